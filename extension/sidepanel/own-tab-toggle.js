// The composer's "Own tab" switch: whether this turn works in a tab of the agent's own (a tab
// group named for the task) or on the tab the user is on. It starts as the "own tab" setting
// says, the user may flip it for one message, and after that message it is the setting again.

import { loadSettings } from "../shared/settings/settings.js";

export class OwnTabToggle {
  constructor(box) {
    this.box = box;
    this.reset();
  }

  // Back to the setting: at start, after a message is sent, and when the setting changes.
  async reset() {
    const { settings } = await loadSettings();
    this.box.checked = Boolean(settings.own_tab);
  }

  // What the turn asks for (turn-records.js startTurn takes it over the setting).
  forTurn() {
    return { inOwnTab: this.box.checked };
  }
}
