// The agent handing the turn back to the user (a `hand_back` event, made only by the ask_user
// tool: docs/events.md): its question, and a box for the answer, or for a login "Continue"
// once the user has done it in the tab. Page text that looks like such a request reaches the
// panel only as a tool's result, never as one of these. The turn waits with no timeout, so the
// request stays answerable after the panel is closed and opened again; the answer goes to the
// agent through the service worker, after which the box takes no other.

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";

const LOGIN = "login";

export class HandBackView {
  constructor(event) {
    const { id, kind, question } = event.data;
    this.request = { conversationId: event.conversation_id, id };
    this.input = h("textarea", { class: "hand-back-answer", rows: 2, "aria-label": t(kind === LOGIN ? "handBackNote" : "handBackAnswer"),
      placeholder: t(kind === LOGIN ? "handBackNote" : "handBackAnswer") });
    this.button = h("button", { type: "button", class: "hand-back-send", onclick: () => this.send() },
      t(kind === LOGIN ? "handBackContinue" : "handBackSend"));
    this.outcome = h("p", { class: "hand-back-outcome", role: "status", hidden: true });
    this.element = h(
      "div",
      { class: "hand-back", role: "group", "aria-label": t("handBackAsks"), "data-kind": kind === LOGIN ? LOGIN : "question", "data-state": "asking" },
      h("p", { class: "hand-back-label" }, t(kind === LOGIN ? "handBackLogin" : "handBackQuestion")),
      h("p", { class: "hand-back-question" }, shown(question ?? "")),
      this.input,
      h("div", { class: "hand-back-buttons" }, this.button),
      this.outcome,
    );
  }

  get asking() {
    return this.element.dataset.state === "asking";
  }

  async send() {
    const answer = this.input.value;
    if (!answer.trim() && this.element.dataset.kind !== LOGIN) return this.input.focus();
    this.settle(answer);
    try {
      const { answered } = await askBackground(MessageType.answerHandBack, { ...this.request, answer });
      if (!answered) this.say(t("questionClosed"));
    } catch (error) {
      this.say(t("answerNotSent", error.message));
    }
  }

  // answer: what the user said (possibly empty after a login), or null when the turn ended first.
  settle(answer) {
    this.input.disabled = this.button.disabled = true;
    this.element.dataset.state = answer === null ? "ended" : "answered";
    if (answer !== null) this.input.value = answer;
    this.say(t(answer === null ? "notAnswered" : "handBackAnswered"));
  }

  say(text) {
    this.outcome.hidden = false;
    this.outcome.textContent = text;
  }
}
