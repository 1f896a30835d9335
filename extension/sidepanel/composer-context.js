// What the composer adds to a message: the selection attached by "Ask about selection…" (shown
// above the box until sent or removed), and the user's own prompts as /name slash commands.

import { loadSettings } from "../shared/settings.js";
import { PENDING_CONTEXT, fillPrompt, parsePrompts } from "../shared/quick-actions.js";
import { h } from "./dom.js";
import { t } from "../shared/i18n.js";

export class ComposerContext {
  constructor({ prompt, attached, commands }) {
    this.prompt = prompt;
    this.attached = attached;
    this.commands = commands;
    this.pending = null;
    this.prompts = [];
    prompt.addEventListener("input", () => this.suggest());
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === "session" && changes[PENDING_CONTEXT]?.newValue) this.attach(changes[PENDING_CONTEXT].newValue);
      if (area === "local" && changes.settings) this.loadPrompts();
    });
  }

  async start() {
    await this.loadPrompts();
    const { [PENDING_CONTEXT]: pending } = await chrome.storage.session.get(PENDING_CONTEXT);
    if (pending) this.attach(pending);
  }

  async loadPrompts() {
    const { settings } = await loadSettings();
    this.prompts = parsePrompts(settings.customPrompts).prompts;
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
    chrome.storage.session.remove(PENDING_CONTEXT);
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
    const typed = /^\/([\p{L}\p{N}_-]*)$/u.exec(this.prompt.value.trim())?.[1];
    const matches = typed === undefined ? [] : this.prompts.filter((p) => p.name.startsWith(typed));
    this.commands.hidden = matches.length === 0;
    this.commands.replaceChildren(...matches.map(({ name, prompt }) =>
      h("li", {}, h("button", { type: "button", class: "slash-command", onclick: () => this.choose(name) },
        h("strong", {}, `/${name}`), ` ${prompt}`))));
  }

  choose(name) {
    this.prompt.value = `/${name} `;
    this.commands.hidden = true;
    this.prompt.focus();
  }
}
