// What the composer adds to a message: the selection attached by "Ask about selection…" (shown
// above the box until sent or removed), the user's own prompts as /name slash commands, and
// the prompts of their MCP servers as /server.prompt: sending one puts the server's text in
// the box, for the user to read, change and send themselves (it is not theirs until they do).

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { loadSettings } from "../shared/settings/settings.js";
import { PENDING_SELECTION, fillPrompt, parsePrompts } from "../shared/settings/quick-actions.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { loadWorkflows } from "../shared/storage/workflows.js";

export class ComposerAdditions {
  constructor({ prompt, attached, commands }) {
    this.prompt = prompt;
    this.attached = attached;
    this.commands = commands;
    this.pending = null;
    this.prompts = [];
    this.workflows = []; // saved workflows: "/name" runs one without the model (shared/storage/workflows.js)
    this.mcpPrompts = null; // asked of the servers the first time "/" is typed
    prompt.addEventListener("input", () => this.suggest());
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === "session" && changes[PENDING_SELECTION]?.newValue) this.attach(changes[PENDING_SELECTION].newValue);
      if (area === "local" && changes.settings) this.loadPrompts();
      if (area === "local" && changes.workflows) this.loadPrompts();
      if (area === "local" && changes.mcpServers) this.mcpPrompts = null;
    });
  }

  async start() {
    await this.loadPrompts();
    const { [PENDING_SELECTION]: pending } = await chrome.storage.session.get(PENDING_SELECTION);
    if (pending) this.attach(pending);
  }

  async loadPrompts() {
    const { settings } = await loadSettings();
    this.prompts = parsePrompts(settings.custom_prompts).prompts;
    this.workflows = Object.values(await loadWorkflows());
  }

  attach(context) {
    this.pending = context;
    const remove = h("button", { type: "button", class: "remove-context", "aria-label": t("removeSelection"), onclick: () => this.clear() }, "×");
    this.attached.replaceChildren(
      h("span", { class: "attached-label" }, t("selectionFrom", context.title || context.url)),
      h("blockquote", { class: "context" }, context.selection),
      remove,
    );
    this.attached.hidden = false;
    this.prompt.focus();
  }

  clear() {
    this.pending = null;
    this.attached.hidden = true;
    this.attached.replaceChildren();
    chrome.storage.session.remove(PENDING_SELECTION);
  }

  // The message to send: a /name command becomes its prompt (what follows it is added).
  expand(text) {
    const match = /^\/([\p{L}\p{N}_-]+)\s*([\s\S]*)$/u.exec(text);
    const command = match && this.prompts.find((p) => p.name === match[1]);
    if (!command) return text;
    const filled = fillPrompt(command.prompt, this.pending ?? {});
    return match[2] ? `${filled}\n\n${match[2]}` : filled;
  }

  // The attached selection, to send with the message (cleared once the turn started).
  context() {
    const context = this.pending;
    return context ? { selection: context.selection, title: context.title, url: context.url } : undefined;
  }

  suggest() {
    const typed = /^\/([\p{L}\p{N}_.-]*)$/u.exec(this.prompt.value.trim())?.[1];
    if (typed !== undefined && this.mcpPrompts === null) this.loadMcpPrompts();
    const own = typed === undefined ? [] : this.prompts.filter((p) => p.name.startsWith(typed));
    const served = typed === undefined ? [] : (this.mcpPrompts ?? []).filter((p) => p.command.startsWith(typed));
    const saved = typed === undefined ? [] : this.workflows.filter((w) => w.name.startsWith(typed));
    this.commands.hidden = own.length + served.length + saved.length === 0;
    this.commands.replaceChildren(
      ...own.map(({ name, prompt }) => this.suggestion(name, prompt)),
      ...saved.map((w) => this.suggestion(w.name, Object.keys(w.parameters ?? {}).map((p) => `${p}=…`).join(" ") || t("workflowsHeading"), "workflow")),
      ...served.map((p) => this.suggestion(shown(p.command), shown([p.description, ...p.arguments.map((a) => `${a.name}=…`)].filter(Boolean).join(" ")), "mcp")),
    );
  }

  suggestion(name, text, kind = "own") {
    return h("li", { "data-kind": kind }, h("button", { type: "button", class: "slash-command", onclick: () => this.choose(name) },
      h("strong", {}, `/${name}`), ` ${text}`));
  }

  async loadMcpPrompts() {
    this.mcpPrompts = [];
    try {
      const { prompts } = await askBackground(MessageType.listMcpPrompts);
      this.mcpPrompts = prompts.map((p) => ({ ...p, command: `${p.server}.${p.name}` }));
    } catch (error) {
      console.warn("TabAgent: could not list the MCP servers' prompts:", error.message);
    }
    this.suggest();
  }

  // "/server.prompt rest": the server's prompt, filled in with the rest ("name=value" pairs, or
  // the value of its first argument), or null when the text is no MCP prompt's command.
  async fillMcpPrompt(text) {
    const match = /^\/([\p{L}\p{N}_-]+\.[^\s]+)\s*([\s\S]*)$/u.exec(text);
    const chosen = match && (this.mcpPrompts ?? []).find((p) => p.command === match[1]);
    if (!chosen) return null;
    const filled = await askBackground(MessageType.getMcpPrompt, { serverId: chosen.server_id, name: chosen.name, arguments: promptArguments(chosen, match[2]) });
    // The server's words go in the box for the user to read: nothing in them may be unseen.
    return filled.ok ? { text: shown(filled.text) } : { error: shown(filled.error) };
  }

  // A sentence under the box (an MCP prompt that could not be had), or nothing.
  tell(sentence) {
    this.commands.hidden = !sentence;
    this.commands.replaceChildren(...(sentence ? [h("li", { class: "error", role: "alert" }, sentence)] : []));
  }

  choose(name) {
    this.prompt.value = `/${name} `;
    this.commands.hidden = true;
    this.prompt.focus();
  }
}

// "topic=MCP lang=de" -> { topic: "MCP", lang: "de" }; text with no "=" is the first argument's.
function promptArguments(prompt, rest) {
  const text = rest.trim();
  if (!text || !prompt.arguments.length) return {};
  const pairs = [...text.matchAll(/([\p{L}\p{N}_-]+)=("[^"]*"|\S*)/gu)];
  if (!pairs.length) return { [prompt.arguments[0].name]: text };
  return Object.fromEntries(pairs.map(([, name, value]) => [name, value.replace(/^"|"$/g, "")]));
}
