// The agent's tools, for developers: each with the schema the model sees, and a form to call
// it by hand on the tab you are on, without spending a model call. Tool files that failed to
// load are listed first, with file and line. Characters that draw nothing are written out.

import { MessageType } from "../shared/protocol/messages.js";
import { PICTURE_URL } from "../shared/pictures/data-url.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";

const POLICY_LABELS = { ask: "mcpPolicyAsk", conversation: "mcpPolicyConversation", always: "mcpPolicyAlways", off: "mcpPolicyOff" };

// Arguments to start from: every required parameter, with an empty value of its type.
function exampleArguments(parameters) {
  const empty = { string: "", integer: 0, number: 0, boolean: false, array: [], object: {} };
  const args = {};
  for (const name of parameters.required ?? []) args[name] = empty[parameters.properties?.[name]?.type] ?? null;
  return JSON.stringify(args, null, 2);
}

export class ToolsView {
  constructor(section) {
    this.section = section;
    this.list = section.querySelector(".tools-list");
    this.problems = section.querySelector(".tools-problems");
  }

  get visible() {
    return !this.section.hidden;
  }

  async toggle(show = !this.visible) {
    this.section.hidden = !show;
    if (show) await this.refresh();
  }

  async refresh() {
    this.list.replaceChildren(h("li", { class: "empty" }, t("loadingTools")));
    try {
      const { tools, problems } = await askBackground(MessageType.listTools);
      this.problems.replaceChildren(...problems.map((p) => h("li", { class: "error", role: "alert" }, p.text)));
      this.list.replaceChildren(...tools.map((tool) => this.tool(tool)));
    } catch (error) {
      this.list.replaceChildren(h("li", { class: "error" }, t("toolsFailed", error.message)));
    }
  }

  tool(tool) {
    if (tool.server) return this.mcpTool(tool);
    const args = h("textarea", { class: "tool-call-args", rows: 3, spellcheck: "false", "aria-label": t("argumentsFor", tool.name) });
    args.value = exampleArguments(tool.parameters);
    const result = h("pre", { class: "tool-call-result", hidden: true });
    const pictures = h("div", { class: "tool-call-pictures" });
    const run = h("button", { type: "button", class: "run-tool" }, t("runOnTab"));
    run.addEventListener("click", () => this.runTool(tool.name, args, { result, pictures }, run));
    return h(
      "li",
      { "data-tool": tool.name },
      h(
        "details",
        {},
        h("summary", {}, h("span", { class: "tool-name" }, tool.name), " ", h("span", { class: "tool-description" }, shown(tool.description.split("\n")[0]))),
        h("pre", { class: "tool-signature" }, shown(tool.signature)),
        h("pre", { class: "tool-schema" }, shown(JSON.stringify(tool.parameters, null, 2))),
        args,
        run,
        result,
        pictures,
      ),
    );
  }

  // An MCP server's tool: what the model is told of it, and the policy in force. It runs only
  // in a turn, where its calls are asked as that policy says.
  mcpTool(tool) {
    return h(
      "li",
      { "data-tool": tool.name, "data-server": tool.server },
      h(
        "details",
        {},
        h("summary", {}, h("span", { class: "tool-name" }, tool.name), " ", h("span", { class: "tool-description" }, shown(tool.description.split("\n")[0]))),
        h("p", { class: "tool-policy" }, t("mcpToolPolicy", shown(tool.server), t(POLICY_LABELS[tool.policy] ?? "mcpPolicyAsk"))),
        h("pre", { class: "tool-signature" }, shown(tool.signature)),
        h("pre", { class: "tool-schema" }, shown(JSON.stringify(tool.parameters, null, 2))),
      ),
    );
  }

  // shown: { result (the text a model reads), pictures (what it is shown after it) }.
  async runTool(name, argsField, { result, pictures }, button) {
    pictures.replaceChildren();
    result.hidden = false;
    result.classList.remove("error");
    let args;
    try {
      args = JSON.parse(argsField.value || "{}");
    } catch (error) {
      result.classList.add("error");
      result.textContent = t("notJson", error.message);
      return;
    }
    button.disabled = true;
    result.textContent = t("running");
    try {
      const windowId = await chrome.windows.getCurrent().then((window) => window.id, () => undefined); // (the tab the user is on there)
      const reply = await askBackground(MessageType.callTool, { name, args, windowId });
      result.textContent = reply.result;
      result.dataset.ms = String(reply.ms);
      result.title = t("msInPython", reply.ms);
      // Only pictures drawn from data: URLs (a screenshot of the page): nothing is fetched.
      const drawn = (reply.images ?? []).filter((url) => PICTURE_URL.test(url));
      pictures.replaceChildren(...drawn.map((url) => h("img", { class: "tool-call-picture", src: url, alt: t("toolPicture", name) })));
    } catch (error) {
      result.classList.add("error");
      result.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  }
}
