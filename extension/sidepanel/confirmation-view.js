// A page action waiting for the user's consent (a `confirmation` event, docs/events.md): the
// sentence saying exactly what will happen, its parts (page, element, text to type, address),
// and three answers. The answer goes to the agent through the service worker; the box then
// shows the decision and takes no other answer.

import { MessageType } from "../shared/messages.js";
import { askBackground } from "../shared/runtime.js";
import { h } from "./dom.js";

const DETAILS = { page: "On the page", element: "Element", locator: "Locator", text: "Text to type", url: "Address" };
const ANSWERS = [
  ["once", "Allow once"],
  ["turn", "Allow for this turn"],
  ["deny", "Deny"],
];
const DECIDED = {
  once: "Allowed once.",
  turn: "Allowed for the rest of this turn.",
  deny: "Denied: nothing was done.",
  ended: "Not answered: the turn ended.",
};

function detailList(details) {
  const rows = Object.entries(DETAILS)
    .filter(([key]) => details?.[key] != null && details[key] !== "")
    .flatMap(([key, label]) => [h("dt", {}, label), h("dd", { "data-detail": key }, String(details[key]))]);
  return h("dl", { class: "confirmation-details" }, ...rows);
}

export class ConfirmationView {
  constructor(event) {
    const { id, tool, message, details } = event.data;
    this.question = { conversationId: event.conversation_id, id };
    this.buttons = ANSWERS.map(([decision, label]) =>
      h("button", { type: "button", "data-decision": decision, onclick: () => this.answer(decision) }, label),
    );
    this.outcome = h("p", { class: "confirmation-outcome", role: "status", hidden: true });
    this.element = h(
      "div",
      { class: "confirmation", role: "group", "aria-label": `TabAgent asks before ${tool}`, "data-tool": tool, "data-state": "asking" },
      h("p", { class: "confirmation-message" }, message),
      detailList(details),
      h("div", { class: "confirmation-buttons" }, ...this.buttons),
      this.outcome,
    );
  }

  get asking() {
    return this.element.dataset.state === "asking";
  }

  async answer(decision) {
    this.settle(decision);
    try {
      const { answered } = await askBackground(MessageType.answerConfirmation, { ...this.question, decision });
      if (!answered) this.say("This question was no longer open: it was answered elsewhere, or the turn ended.");
    } catch (error) {
      this.say(`The answer could not be sent: ${error.message}`);
    }
  }

  // decision: "once" | "turn" | "deny", or "ended" when the turn ended unanswered.
  settle(decision) {
    for (const button of this.buttons) button.disabled = true;
    this.element.dataset.state = decision;
    this.say(DECIDED[decision] ?? decision);
  }

  say(text) {
    this.outcome.hidden = false;
    this.outcome.textContent = text;
  }
}
