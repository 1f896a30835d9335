// One turn on screen: the user's message, every step the agents took (sub-agents nested
// inside the tool call that started them), and the answer. Events are applied as they
// arrive; an event already shown (same seq) is skipped, so a panel that loaded the turn
// from storage can take the live stream from there.

import { TurnStatus } from "../shared/import-checks/conversation-schema.js";
import { lastSeq } from "../shared/protocol/events.js";
import { h } from "../shared/ui/dom.js";
import { AppView } from "./app-view.js";
import { attachedList } from "./attachments-view.js";
import { ConfirmationView } from "./confirmation-view.js";
import { downloadLine } from "./download-line.js";
import { HandBackView } from "./hand-back-view.js";
import { ownTabLine, tabLine } from "./own-tab-view.js";
import { FormView } from "./form-view.js";
import { codeBlock, LiveMarkdown, renderMarkdown, stopRendering } from "./markdown.js";
import { answerActions, editButton } from "./message-actions.js";
import { turnError } from "./error-actions.js";
import { StepsView } from "./steps-view.js";
import { ThinkingView } from "./thinking-view.js";
import { t, tn } from "../shared/ui/i18n.js";
import { EventKind, NOT_FATAL_ERRORS, NotFatal, PAGE_ACTIONS, Status } from "../shared/wire.js";
import { shown } from "../shared/import-checks/unseen-text.js";

// Which errors do not end the turn, and whether each is told in its step or beside the answer
// (a tool file that failed to load, a reply cut at the output limit...), is wire.py's to say.
const toldBeside = (kind) => NOT_FATAL_ERRORS[kind] === "turn";
const endsTheTurn = (kind) => !Object.hasOwn(NOT_FATAL_ERRORS, kind);

const STATUS_TEXT = { [Status.cancelled]: "stopped", [TurnStatus.interrupted]: "interrupted", [Status.max_steps]: "outOfSteps" };

// Unfolds every call around `element`: a managed agent's question sits inside the call that
// started it, folded by default, and a question the user cannot see is not asked.
function reveal(element) {
  for (let fold = element.parentElement?.closest("details"); fold; fold = fold.parentElement?.closest("details")) fold.open = true;
}

function preview(value, length = 80) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

export class TurnView {
  constructor(turn, { stepsOpen = false } = {}) {
    this.id = turn.id;
    this.text = turn.text;
    this.covered = new Set();
    this.steps = new Map(); // "depth/agent/step" -> { section, reply }
    this.calls = new Map(); // "depth/id" -> { result }
    this.nestUnder = []; // per depth: where the next deeper agent's steps go
    this.nestFor = new Map(); // "depth/tool name" -> where the steps of the agent of that name go
    this.stepsView = new StepsView({ stepsOpen });
    this.trace = this.stepsView.body;
    this.unrendered = new Set();
    this.stepsView.element.addEventListener("toggle", () => this.stepsView.element.open && this.renderUnrendered());
    this.answer = h("div", { class: "message assistant markdown", hidden: true });
    this.errors = h("div", { class: "turn-errors" });
    this.downloads = h("ul", { class: "turn-downloads", hidden: true });
    this.actions = answerActions(this);
    this.notice = h("div", { class: "turn-notice", hidden: true });
    this.modelCalls = []; // model_call events: the turn's trace, shown on request
    this.traceButton = h("button", { class: "show-trace", type: "button", hidden: true, onclick: () => this.showTrace() });
    const context = turn.context?.selection
      ? h("blockquote", { class: "context", title: turn.context.url ?? "" }, turn.context.selection)
      : null;
    this.question = h("div", { class: "message user" }, h("div", { class: "user-text" }, turn.text), context, attachedList(turn), editButton(this));
    this.element = h(
      "article",
      { class: "turn", "data-turn": turn.id },
      this.question,
      ownTabLine(turn),
      this.stepsView.element,
      this.answer,
      this.downloads,
      this.errors,
      this.notice,
      h("div", { class: "turn-footer" }, this.actions, this.traceButton),
    );
    this.apply(Array.isArray(turn.events) ? turn.events : []);
    // A record saved between the turn's last events and its end has the `done` event and still
    // says "running": the event is the later word.
    this.setStatus(turn.status === TurnStatus.running && this.ended ? this.ended : turn.status);
  }

  apply(events) {
    this.growing = new Set(); // replies that got tokens: rendered once, after the batch
    for (const event of events) {
      if (this.covered.has(event.seq)) continue;
      for (let seq = event.seq; seq <= lastSeq(event); seq++) this.covered.add(seq);
      if (event.kind !== EventKind.token) this.renderGrowing();
      this[`on_${event.kind}`]?.(event);
      this.foldThinking(event);
    }
    this.renderGrowing();
  }

  // Replies inside folded steps are rendered when the steps are opened, not before: a stored
  // conversation of hundreds of steps opens without rendering Markdown nobody sees.
  renderGrowing() {
    for (const live of this.growing) {
      if (this.stepsView.element.open) live.update();
      else this.unrendered.add(live);
    }
    this.growing.clear();
  }

  // The turn is going off the screen: an answer still rendering stops.
  close() {
    stopRendering(this.answer);
    for (const app of this.apps ?? []) app.close();
  }

  renderUnrendered() {
    for (const live of this.unrendered) live.update();
    this.unrendered.clear();
  }

  setStatus(status) {
    this.element.dataset.status = status;
    this.stepsView.setRunning(status === TurnStatus.running, { answered: !this.answer.hidden });
    if (this.stepsView.element.open) this.renderUnrendered();
    this.actions.hidden = status === TurnStatus.running;
    for (const copy of this.actions.querySelectorAll("[class^=action-copy]")) copy.hidden = this.answer.hidden;
    if (status !== TurnStatus.running) for (const box of this.confirmations?.values() ?? []) if (box.asking) box.settle("ended");
    if (status !== TurnStatus.running) for (const box of this.handBacks?.values() ?? []) if (box.asking) box.settle(null);
    const text = STATUS_TEXT[status] && t(STATUS_TEXT[status]);
    this.notice.hidden = !text;
    if (text) this.notice.textContent = text;
  }

  // --- where events go -------------------------------------------------------------------

  step(event) {
    const key = `${event.depth}/${event.agent}/${event.step}`;
    if (!this.steps.has(key)) this.on_step_start(event);
    return this.steps.get(key);
  }

  on_step_start(event) {
    this.stepsView.noteStep(event);
    const reply = h("div", { class: "reply markdown" });
    reply.live = new LiveMarkdown(reply);
    const label = event.depth > 0 ? t("agentStepLabel", event.agent, event.step) : t("stepLabel", event.step);
    const section = h("section", { class: "step", "data-depth": event.depth }, h("header", {}, label), reply);
    section.style.setProperty("--depth", event.depth);
    // A managed agent's steps go inside the call that started it (the tool named for it), so two
    // agents running at once each keep their steps apart.
    const parent = event.depth > 0
      ? this.nestFor.get(`${event.depth - 1}/${event.agent}`) ?? this.nestUnder[event.depth - 1] ?? this.trace : this.trace;
    parent.append(section);
    this.steps.set(`${event.depth}/${event.agent}/${event.step}`, { section, reply });
  }

  on_token(event) {
    const { reply } = this.step(event);
    this.clearRetry(reply);
    reply.live.add(event.data.text);
    this.growing.add(reply.live);
  }

  on_reasoning(event) {
    const step = this.step(event);
    this.clearRetry(step.reply);
    if (!step.thinking && !event.data.text.trim()) return; // nothing to show yet (or an empty block)
    if (!step.thinking) {
      step.thinking = new ThinkingView();
      step.reply.before(step.thinking.element);
    }
    step.thinking.append(event.data.text);
  }

  // Anything after the thoughts but a retry (the answer starting, a tool call, the end) folds them.
  foldThinking(event) {
    if (event.kind === EventKind.reasoning || event.data?.kind === NotFatal.retrying) return;
    this.steps.get(`${event.depth}/${event.agent}/${event.step}`)?.thinking?.fold();
  }

  // The model wrote its calls as text: what streamed was the call; what it said stays.
  on_text_call(event) {
    this.step(event).reply.live.set(event.data.said);
  }

  on_tool_call(event) {
    const { name, arguments: args, id } = event.data;
    if (event.depth === 0) this.stepsView.noteTool(name);
    const result = h("pre", { class: "result pending" }, t("runningTool"));
    const nested = h("div", { class: "nested" });
    const details = h(
      "details",
      { class: "tool", "data-tool": name },
      h("summary", {}, h("span", { class: "tool-name" }, name), h("span", { class: "tool-args" }, preview(args))),
      h("pre", { class: "arguments" }, typeof args === "string" ? args : JSON.stringify(args, null, 2)),
      nested,
      result,
    );
    this.step(event).section.append(details);
    const call = { result, details, name };
    this.calls.set(`${event.depth}/${id}`, call);
    this.running ??= new Map(); // tool name -> its newest call still running, for its progress
    this.running.set(name, call);
    this.nestUnder[event.depth] = nested;
    this.nestFor.set(`${event.depth}/${name}`, nested);
  }

  // A managed agent opened a tab of its own: named at the top of that agent's steps, inside the
  // call that started it. The turn's own tab is the record's (ownTabLine), not an event's.
  on_own_tab(event) {
    const where = event.depth > 0 && this.nestFor.get(`${event.depth - 1}/${event.agent}`);
    const line = where && tabLine(event.data.tab_id, this.id);
    if (line) where.prepend(line);
  }

  // Files the turn's actions downloaded after its last action (a server that answered late): said
  // beside the answer, so the user knows they arrived, and followed while on their way.
  on_download(event) {
    for (const file of event.data.files ?? []) this.downloads.append(downloadLine(file));
    this.downloads.hidden = !this.downloads.childElementCount;
  }

  // What an MCP server reports of a call under way: a bar when it gives a total, its words
  // (shown as written out), and a count only when there are no words and no total (a count with
  // no total, as a task's polls, says nothing beside words); under the newest call still running.
  on_tool_progress(event) {
    const call = this.running?.get(event.data.name);
    if (!call || !call.result.classList.contains("pending")) return;
    const { progress, total, message } = event.data;
    call.progress ??= h("div", { class: "tool-progress" }, h("progress", {}), h("span", { class: "tool-progress-text" }));
    const [bar, text] = call.progress.children;
    if (total) bar.setAttribute("max", String(total));
    if (total) bar.value = Math.min(progress, total);
    else bar.removeAttribute("value"); // no total: an indeterminate bar
    const count = total ? t("progressOf", progress, total) : message ? "" : String(progress);
    text.textContent = [count, message ? shown(message) : ""].filter(Boolean).join(" · ");
    if (!call.progress.isConnected) call.details.after(call.progress); // under the call, seen while it is folded
  }

  // A call whose tool names an MCP App: the app, at the end of the call's step (under the call
  // and its question, seen while the call is folded).
  on_tool_app(event) {
    if (!this.running?.get(event.data.name)) return;
    const app = new AppView(event);
    (this.apps ??= []).push(app);
    this.step(event).section.append(app.element);
    this.stepsView.showsApp = true;
    this.stepsView.element.open = true;
    app.show();
  }

  // A log message an MCP server sent: in the turn's steps, and in its trace with the model
  // calls, as the server wrote it.
  on_server_log(event) {
    const { server, level, logger, message } = event.data;
    const where = event.step > 0 ? this.step(event).section : this.trace;
    const said = logger ? `${shown(logger)}: ${shown(message)}` : shown(message);
    where.append(h("div", { class: `server-log level-${level}` }, t("serverLog", server, level), " ", said));
    this.modelCalls.push(event);
  }

  on_tool_result(event) {
    const call = this.calls.get(`${event.depth}/${event.data.id}`);
    if (!call) return;
    call.result.classList.remove("pending");
    call.progress?.remove();
    call.result.classList.toggle("error", Boolean(event.data.is_error));
    call.result.textContent = event.data.result;
    call.details.classList.toggle("failed", Boolean(event.data.is_error));
    if (!event.data.is_error && PAGE_ACTIONS.includes(event.data.name)) this.actions.querySelector(".action-save-workflow").hidden = false;
  }

  on_code(event) {
    const { section, reply } = this.step(event);
    // The code is shown in its own block below: keep only the thought around it.
    reply.live.set(reply.live.text.replace(/```[\s\S]*?(```|$)/g, "").trim());
    if (event.depth === 0) this.stepsView.noteTool("python");
    section.append(codeBlock(event.data.code));
  }

  on_code_output(event) {
    const output = event.data.output || t("noOutput");
    this.step(event).section.append(h("pre", { class: `output${event.data.is_error ? " error" : ""}` }, output));
  }

  on_error(event) {
    const { kind, message } = event.data;
    const where = event.step > 0 ? this.step(event) : null;
    if (kind === NotFatal.retrying) return this.showRetry(where, event.data);
    // The error that ended the turn shows next to the answer, with what fixes it.
    if (event.depth === 0 && endsTheTurn(kind)) return this.errors.append(turnError(event.data, this.id));
    if (toldBeside(kind)) return this.errors.append(h("div", { class: `error kind-${kind}` }, message));
    const box = h("div", { class: `error kind-${kind}` }, message);
    (where?.section ?? this.trace).append(box);
  }

  showRetry(where, { message, reason = message, retry_in: retryIn, attempt, max_attempts: maxAttempts, withdraw }) {
    const reply = where?.reply;
    // The failed attempt's text goes (all of it when the event does not say how much).
    if (reply) reply.live.set(withdraw ? reply.live.text.slice(0, Math.max(0, reply.live.text.length - withdraw.text)) : "");
    where?.thinking?.withdraw(withdraw?.reasoning);
    const box = h("div", { class: "retrying" }); // not announced: the finished turn is
    const until = Date.now() + retryIn * 1000;
    // Python's words say why (shown as they are); the countdown is the panel's, in the UI's language.
    const numbered = Number.isInteger(attempt) && Number.isInteger(maxAttempts);
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      box.textContent = numbered ? t("retryAttempt", reason, attempt + 1, maxAttempts, left) : t("retryingIn", reason, left);
      if (left === 0 || !box.isConnected) clearInterval(timer);
    };
    const timer = setInterval(tick, 250);
    tick();
    (where?.section ?? this.trace).append(box);
    if (reply) reply.retryBox = box;
  }

  clearRetry(reply) {
    reply.retryBox?.remove();
    reply.retryBox = null;
  }

  on_final_answer(event) {
    const answer = event.data.answer;
    const text = typeof answer === "string" ? answer : JSON.stringify(answer, null, 2);
    // A sub-agent's answer shows as the result of the tool call that started it.
    if (event.depth > 0) return;
    // A reply with no action is the answer: show it once, rendered, not twice.
    const { reply } = this.step(event);
    if (reply.live.text.trim() === text.trim()) reply.closest(".step").classList.add("answered");
    this.answerText = text;
    renderMarkdown(this.answer, text);
    this.answer.hidden = false;
  }

  // A page action asking first; the same id comes again with the user's decision.
  on_confirmation(event) {
    this.confirmations ??= new Map();
    let box = this.confirmations.get(event.data.id);
    if (!box) {
      box = event.data.form ? new FormView(event) : new ConfirmationView(event);
      this.confirmations.set(event.data.id, box);
      this.step(event).section.append(box.element);
    }
    if (event.data.decision && box.asking) box.settle(event.data.decision);
    if (box.asking) reveal(box.element);
  }

  // The agent asks the user (ask_user) and waits; the same id comes again with the answer.
  on_hand_back(event) {
    this.handBacks ??= new Map();
    let box = this.handBacks.get(event.data.id);
    if (!box) {
      box = new HandBackView(event);
      this.handBacks.set(event.data.id, box);
      this.step(event).section.append(box.element);
      this.stepsView.element.open = true; // a request the user must see, even in folded steps
    }
    if (typeof event.data.answer === "string" && box.asking) box.settle(event.data.answer);
    if (box.asking) reveal(box.element);
  }

  on_done(event) {
    if (event.depth !== 0) return;
    this.ended = event.data.status;
    this.setStatus(event.data.status);
  }

  on_model_call(event) {
    this.modelCalls.push(event);
    this.traceButton.hidden = false;
    const count = this.modelCalls.filter((call) => call.kind === EventKind.model_call).length;
    this.traceButton.textContent = tn("traceButton", count);
  }

  // What a screen reader hears once the turn is over (the stream itself is not announced).
  summary() {
    const outcome = this.answer.hidden ? this.errors.textContent || this.notice.textContent : this.answer.textContent;
    return t("announceAnswer", outcome.slice(0, 600));
  }

  // The conversation was compacted to fit the model's window: said where it happened, and
  // listed in the trace with the model calls.
  on_compaction(event) {
    const where = event.step > 0 ? this.step(event).section : this.trace;
    where.append(h("div", { class: "compaction", role: "status" },
      h("strong", { class: "compaction-label" }, t("compactionLabel")), " ",
      h("span", { class: "compaction-message" }, event.data.message))); // Python's words, as they are
    this.modelCalls.push(event);
  }

  showTrace() {
    this.element.dispatchEvent(new CustomEvent("show-trace", { bubbles: true, detail: { calls: this.modelCalls } }));
  }
}
