// What every question the panel puts to the user has in common (a page action's confirmation,
// an MCP server's form, the agent handing the turn back: confirmation-view.js, form-view.js,
// hand-back-view.js): a box asking until it is answered, once; the answer sent to the agent
// through the service worker; the box then settled (its controls disabled, its state marked)
// and saying what became of it. A subclass draws its own box and says how its answer settles it.

import { askBackground } from "../shared/protocol/runtime.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";

export class QuestionView {
  // event: the question's event (its id answers it); answerType: the message the answer goes in.
  constructor(event, answerType, outcomeClass) {
    this.request = { conversationId: event.conversation_id, id: event.data.id };
    this.answerType = answerType;
    this.outcome = h("p", { class: outcomeClass, role: "status", hidden: true });
  }

  // The box: a group asking, `children` in it, then what became of it.
  frame(attributes, ...children) {
    return h("div", { role: "group", ...attributes, "data-state": "asking" }, ...children, this.outcome);
  }

  get asking() {
    return this.element.dataset.state === "asking";
  }

  // Settles the box with the user's `answer`, then sends `payload` to the agent.
  async send(answer, payload) {
    this.settle(answer);
    try {
      const { answered } = await askBackground(this.answerType, { ...this.request, ...payload });
      if (!answered) this.say(t("questionClosed"));
    } catch (error) {
      this.say(t("answerNotSent", error.message));
    }
  }

  // The box takes no other answer: its controls (a subclass's `controls()`) disabled, `state`
  // marked, `said` shown. A subclass's settle(answer) says which state and words its answer is.
  settle(state, said) {
    for (const control of this.controls()) control.disabled = true;
    this.element.dataset.state = state;
    this.say(said);
  }

  say(text) {
    this.outcome.hidden = false;
    this.outcome.textContent = text;
  }
}
