// A turn's steps, folded into one line under the question ("4 steps · read_page, python")
// so the answer comes first. The line opens on click; the steps stay open while the turn
// runs (and after, when there is no answer), and the "show steps" setting keeps them open for those who want to watch.

import { h } from "../shared/ui/dom.js";
import { t, tn } from "../shared/ui/i18n.js";

export class StepsView {
  constructor({ stepsOpen = false } = {}) {
    this.stepsOpen = stepsOpen;
    this.count = 0;
    this.tools = new Set();
    this.label = h("span", { class: "steps-label" });
    this.body = h("div", { class: "trace" });
    this.element = h("details", { class: "steps", hidden: true }, h("summary", {}, this.label), this.body);
    this.running = false;
    this.showsApp = false; // an MCP App is in a step: the steps stay open, the app is the result to see
    this.settled = false; // has setRunning been called? Its first call sets the fold, running or not
  }

  noteStep(event) {
    if (event.depth !== 0) return;
    this.count = Math.max(this.count, event.step);
    this.element.hidden = false;
    this.relabel();
  }

  noteTool(name) {
    if (this.tools.has(name)) return;
    this.tools.add(name);
    this.relabel();
  }

  relabel() {
    const steps = tn("stepsCount", this.count);
    const tools = [...this.tools].join(", ");
    this.label.textContent = [this.running ? t("working") : "", steps, tools].filter(Boolean).join(" · ");
  }

  // A turn that ended without an answer (stopped, failed) keeps its steps open: they are
  // all there is to read.
  setRunning(running, { answered = true } = {}) {
    if (running) this.element.open = true;
    else if (this.running || !this.settled) this.element.open = this.stepsOpen || this.showsApp || !answered;
    this.running = running;
    this.settled = true;
    this.relabel();
  }
}
