// The user's saved workflows, at the top of the Tools view: each one's file to read and edit
// before it runs, the sites it acts on (each with a box: act there without asking each time,
// unchecked until the user checks it), Save, Export as a .py file, Delete; and Import of a .py
// file, which allows no site and never replaces a workflow of the same name. A file is data,
// which the service worker has Python read (never run) before it keeps it: one that holds code
// is refused, in words. In the code box every character that draws nothing is written out
// (⟨U+202E⟩), as everywhere the user is shown what will run; saving turns them back into the
// characters they stand for. A workflow runs from the composer as "/name" (or "/name value"),
// and the agent may call it as a tool in any turn.

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown, unshown } from "../shared/import-checks/unseen-text.js";
import { deleteWorkflow, loadWorkflows } from "../shared/storage/workflows.js";

export class WorkflowsView {
  constructor(section, { onRun }) {
    this.list = section.querySelector(".workflows-list");
    this.said = section.querySelector(".workflows-said");
    this.onRun = onRun;
    section.querySelector(".import-workflow").addEventListener("change", (event) => this.importFile(event.target));
  }

  // `open`: the name of one to show unfolded (the one just saved from a turn).
  async refresh(open = null) {
    const workflows = Object.values(await loadWorkflows());
    this.list.replaceChildren(...workflows.map((workflow) => this.item(workflow, workflow.name === open)));
    if (!workflows.length) this.list.replaceChildren(h("li", { class: "empty" }, t("noWorkflows")));
    this.list.querySelector("details[open]")?.scrollIntoView({ block: "start" });
  }

  item(workflow, open) {
    const code = h("textarea", { class: "workflow-source", rows: 14, spellcheck: "false", "aria-label": t("workflowCode", workflow.name) });
    code.value = shown(workflow.source);
    const boxes = workflow.sites.map((site) => h("input", { type: "checkbox", value: site, checked: workflow.allowedSites.includes(site) }));
    const said = h("p", { class: "workflow-said", role: "status" });
    const save = async () => {
      const allowedSites = boxes.filter((box) => box.checked).map((box) => box.value);
      try {
        await askBackground(MessageType.editWorkflow, { name: workflow.name, source: unshown(code.value), allowedSites });
        said.classList.remove("error");
        said.textContent = t("workflowSaved");
      } catch (error) {
        said.classList.add("error");
        said.textContent = error.message;
      }
    };
    const button = (label, name, onclick) => h("button", { type: "button", class: `workflow-${name}`, onclick }, label);
    return h("li", { "data-workflow": workflow.name }, h("details", { open },
      h("summary", {}, h("span", { class: "tool-name" }, `/${workflow.name}`), " ", h("span", { class: "tool-description" }, shown(workflow.sites.join(", ")))),
      h("p", { class: "workflow-hint" }, t("workflowHint")),
      code,
      ...boxes.map((box) => h("label", { class: "workflow-site" }, box, " ", t("workflowAllowSite", shown(box.value)))),
      h("div", { class: "message-actions" },
        button(t("workflowSave"), "save", save),
        button(t("workflowRun"), "run", () => this.onRun(workflow.name)),
        button(t("workflowExport"), "export", () => exportFile(workflow.name, unshown(code.value))),
        button(t("delete"), "delete", async () => {
          await deleteWorkflow(workflow.name);
          await this.refresh();
        })),
      said));
  }

  // A .py file from elsewhere: kept, once Python has read it as a workflow's data, to be read
  // like any other, allowed nowhere, and under a name of its own.
  async importFile(input) {
    const [file] = input.files;
    input.value = "";
    if (!file) return;
    this.said.classList.remove("error");
    try {
      const { workflow, renamedFrom } = await askBackground(MessageType.importWorkflow, { fileName: file.name, source: await file.text() });
      await this.refresh(workflow.name);
      this.said.textContent = renamedFrom ? t("workflowImportedRenamed", shown(renamedFrom), workflow.name) : t("workflowImported", workflow.name);
    } catch (error) {
      this.said.classList.add("error");
      this.said.textContent = error.message;
    }
  }
}

function exportFile(name, source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/x-python" }));
  const link = h("a", { href: url, download: `${name}.py` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
