// A reasoning model's thoughts in one step: they stream into an open "Thinking" block,
// which folds away when the answer starts (a click opens it again). Never part of the
// reply or the answer: those are rendered from other events.

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";

export class ThinkingView {
  constructor() {
    this.label = h("summary", {}, t("thinking"));
    this.text = h("div", { class: "thinking-text" });
    // Hidden until there is something to read: a model with thinking off sends an empty block.
    this.element = h("details", { class: "thinking", open: true, hidden: true }, this.label, this.text);
    this.folded = false;
  }

  append(text) {
    this.text.append(text);
    if (this.element.hidden && text.trim()) this.element.hidden = false;
  }

  // A retry starts over: take back what the failed attempt streamed (all of it if unknown),
  // and think in the open again.
  withdraw(characters) {
    const text = this.text.textContent;
    this.text.textContent = characters === undefined ? "" : text.slice(0, Math.max(0, text.length - characters));
    this.element.hidden = !this.text.textContent.trim();
    this.folded = false;
    this.element.open = true;
    this.label.textContent = t("thinking");
  }

  fold() {
    if (this.folded) return;
    this.folded = true;
    this.element.open = false;
    this.label.textContent = t("thought");
  }
}
