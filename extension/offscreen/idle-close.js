// When the offscreen document (and its Python, ~140 MB) may go: after a quiet spell with no
// turn running and no side panel open. Panels hold a runtime Port to this document while they
// are open; turns are counted by the turn runner. When the spell is over, the service worker
// is asked to close the document (it alone may, and it knows whether a message is on its way).

import { SETTINGS } from "../shared/wire.js";

// Until the first message brings the user's setting: the setting's default.
export const IDLE_CLOSE_MINUTES = SETTINGS.idle_close_minutes;

export class IdleClose {
  constructor(onIdle) {
    this.onIdle = onIdle;
    this.panels = new Set();
    this.turns = 0;
    this.idleMs = IDLE_CLOSE_MINUTES * 60_000;
    this.lastActive = Date.now();
    this.timer = null;
    this.#rearm();
  }

  // The user's setting, sent along with every message from the service worker.
  setMinutes(minutes) {
    if (!(Number(minutes) > 0)) return;
    this.idleMs = Number(minutes) * 60_000;
    this.#rearm();
  }

  // Something was asked of Python: the quiet spell starts again.
  touch() {
    this.lastActive = Date.now();
    this.#rearm();
  }

  addPanel(port) {
    this.panels.add(port);
    port.onDisconnect.addListener(() => {
      this.panels.delete(port);
      this.touch();
    });
    this.touch();
  }

  turnStarted() {
    this.turns += 1;
    this.touch();
  }

  turnEnded() {
    this.turns -= 1;
    this.touch();
  }

  isIdle() {
    return this.turns === 0 && this.panels.size === 0 && Date.now() - this.lastActive >= this.idleMs;
  }

  #rearm() {
    clearTimeout(this.timer);
    if (this.turns > 0 || this.panels.size > 0) return; // nothing to count down while in use
    const left = Math.max(0, this.lastActive + this.idleMs - Date.now());
    this.timer = setTimeout(() => {
      if (!this.isIdle()) return this.#rearm();
      this.onIdle();
      // Still here a spell later (the service worker was busy with it)? Then ask again.
      this.timer = setTimeout(() => this.#rearm(), this.idleMs);
    }, left);
  }
}
