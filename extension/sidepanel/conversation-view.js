// The open conversation: its turns, kept up to date from the live event stream.
// Live batches that arrive before the conversation is on screen (the first events of a
// new conversation race the answer to "start turn") are kept briefly and replayed.

import { TurnStatus } from "../shared/import-checks/conversation-schema.js";
import { loadConversation } from "../shared/storage/conversations.js";
import { h } from "../shared/ui/dom.js";
import { TurnView } from "./turn-view.js";

const EARLY_BATCHES = 200;

// What the import left out of this conversation (background/imported-records.js), above its
// turns for as long as it is kept: the agent does not remember what they show.
function importNotes(record) {
  const notes = Array.isArray(record.importNotes) ? record.importNotes.filter((note) => typeof note === "string") : [];
  return notes.map((note) => h("p", { class: "notice import-note", role: "note" }, note));
}

export class ConversationView {
  constructor(element, { onRunningChange, renderEmpty = () => {}, announce = () => {}, onOpen = () => {}, stepsOpen = false }) {
    this.onOpen = onOpen;
    this.element = element;
    this.onRunningChange = onRunningChange;
    this.renderEmpty = renderEmpty;
    this.announce = announce;
    this.stepsOpen = stepsOpen;
    this.id = null;
    this.turns = new Map();
    this.recent = []; // live batches, newest last
    // Whether the view follows the end as a turn grows: true until the user scrolls up, and
    // again once they scroll back to the end. It is learnt from scroll events, and the turns'
    // growth from a ResizeObserver, both of which come after the browser's own layout: a live
    // batch reads no layout (measuring the view after each batch laid the panel out again for
    // every token), and what grows after the stream (a highlighted block, typeset math, the
    // answer's buttons) is followed too.
    this.following = true;
    this.lastTop = 0;
    this.userScrolls = false; // the user has just turned the wheel, touched, pressed a key or the scroll bar
    element.addEventListener("scroll", () => this.scrolled(), { passive: true });
    for (const input of ["wheel", "touchstart", "pointerdown", "keydown"]) {
      element.addEventListener(input, () => { this.userScrolls = true; }, { passive: true });
    }
    this.growth = new ResizeObserver(() => {
      if (this.following) this.scrollToEnd();
    });
  }

  // Only the user's own move up leaves the end. A scroll event comes a frame late: the turn may
  // have grown under a view that was at its end, or shrunk for a moment as an answer is drawn
  // again (the browser then moves the view up itself), and neither is a reason to stop following.
  scrolled() {
    const top = this.element.scrollTop;
    if (this.nearEnd()) this.following = true;
    else if (top < this.lastTop && this.userScrolls) this.following = false;
    this.lastTop = top;
    this.userScrolls = false;
  }

  showEmpty() {
    this.id = null;
    this.closeTurns();
    this.element.replaceChildren();
    this.renderEmpty(this.element);
    this.onOpen(null);
    this.onRunningChange(false);
  }

  async open(id) {
    const record = await loadConversation(id);
    if (!record) return this.showEmpty();
    if (id !== this.id) this.onOpen(record);
    this.id = id;
    this.closeTurns();
    this.element.replaceChildren(...importNotes(record), ...record.turns.map((turn) => this.addTurn(turn).element));
    for (const batch of this.recent) if (batch.conversationId === id) this.applyBatch(batch);
    this.onRunningChange(this.running());
    this.scrollToEnd();
  }

  // The turns on screen go: what they still render stops (it would be for nobody).
  closeTurns() {
    for (const view of this.turns.values()) view.close();
    this.turns.clear();
    this.growth.disconnect();
  }

  addTurn(turn) {
    const view = new TurnView(turn, { stepsOpen: this.stepsOpen });
    this.turns.set(turn.id, view);
    this.growth.observe(view.element);
    return view;
  }

  running() {
    return [...this.turns.values()].some((view) => view.element.dataset.status === TurnStatus.running);
  }

  // A batch of live events (Broadcast.turnEvents) for any conversation.
  async receive(batch) {
    this.recent.push(batch);
    if (this.recent.length > EARLY_BATCHES) this.recent.shift();
    if (batch.conversationId !== this.id) return;
    if (!this.turns.has(batch.turnId)) return this.open(this.id); // a turn started elsewhere
    this.applyBatch(batch);
  }

  applyBatch({ turnId, events }) {
    const view = this.turns.get(turnId);
    if (!view) return;
    view.apply(events);
  }

  finished({ conversationId, turnId, status, events }) {
    if (conversationId !== this.id) return;
    const view = this.turns.get(turnId);
    if (!view) return;
    view.apply(events);
    view.setStatus(status);
    this.onRunningChange(this.running());
    this.announce(view.summary());
  }

  lastTurn() {
    return [...this.turns.values()].at(-1) ?? null;
  }

  nearEnd() {
    const { scrollTop, scrollHeight, clientHeight } = this.element;
    return scrollHeight - scrollTop - clientHeight < 80;
  }

  scrollToEnd() {
    this.element.scrollTop = this.element.scrollHeight;
    this.following = true;
  }
}
