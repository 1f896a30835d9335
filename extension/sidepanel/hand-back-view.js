// The agent handing the turn back to the user (a `hand_back` event, made only by the ask_user
// tool: docs/events.md): its question, and a box for the answer, or for a login "Continue"
// once the user has done it in the tab. Page text that looks like such a request reaches the
// panel only as a tool's result, never as one of these. The turn waits with no timeout, so the
// request stays answerable after the panel is closed and opened again; the answer goes to the
// agent through the service worker, after which the box takes no other (question-view.js).

import { MessageType } from "../shared/protocol/messages.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";
import { QuestionView } from "./question-view.js";

const LOGIN = "login";

export class HandBackView extends QuestionView {
  constructor(event) {
    super(event, MessageType.answerHandBack, "hand-back-outcome");
    const { kind, question } = event.data;
    const login = kind === LOGIN;
    this.input = h("textarea", { class: "hand-back-answer", rows: 2, "aria-label": t(login ? "handBackNote" : "handBackAnswer"),
      placeholder: t(login ? "handBackNote" : "handBackAnswer") });
    this.button = h("button", { type: "button", class: "hand-back-send", onclick: () => this.answer() },
      t(login ? "handBackContinue" : "handBackSend"));
    this.element = this.frame(
      { class: "hand-back", "aria-label": t("handBackAsks"), "data-kind": login ? LOGIN : "question" },
      h("p", { class: "hand-back-label" }, t(login ? "handBackLogin" : "handBackQuestion")),
      h("p", { class: "hand-back-question" }, shown(question ?? "")),
      this.input,
      h("div", { class: "hand-back-buttons" }, this.button),
    );
  }

  answer() {
    const answer = this.input.value;
    if (!answer.trim() && this.element.dataset.kind !== LOGIN) return this.input.focus();
    return this.send(answer, { answer });
  }

  // answer: what the user said (possibly empty after a login), or null when the turn ended first.
  settle(answer) {
    if (answer !== null) this.input.value = answer;
    super.settle(answer === null ? "ended" : "answered", t(answer === null ? "notAnswered" : "handBackAnswered"));
  }

  controls() {
    return [this.input, this.button];
  }
}
