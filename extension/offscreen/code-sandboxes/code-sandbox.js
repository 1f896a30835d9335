// The sandbox as the offscreen document sees it: runs model-written Python in a sandboxed
// extension page (extension/sandbox/) with a Pyodide of its own, and answers the tool calls
// that code makes. Whatever the sandbox sends is untrusted: messages are taken only from
// the windows of our own sandbox frames and only in the shapes sandbox-protocol.js allows.
//
//   const sandbox = new CodeSandbox();
//   const result = await sandbox.run("print(add(2, 3))", {
//     tools: [{ name: "add", doc: "Adds.", params: [{ name: "a", required: true }, { name: "b", required: true }] }],
//     onToolCall: async (name, argsJson) => JSON.stringify({ ok: true, value: 5 }),
//   });
//   // { output: "5\n", isError: false, isFinal: false, finalValue: "null", stopped: null }
//
// Code that runs too long or grows its memory past the limit is stopped for certain: the
// sandbox frame is removed (its worker ends with it) and a spare, started in advance, takes
// its place. So is a sandbox in which something the code started still runs after its run
// (worker.js reports whether it went quiet, at the latest when the next run arrives, which
// it then holds back); that run goes to the new sandbox, and its output says why its
// variables are gone. One host is one conversation's interpreter: variables persist between runs
// until reset(). Hosts share one spare, so a host per conversation costs no more waiting.

import { spareState, takeFrame } from "./sandbox-frame.js";
import { FromSandbox, ToSandbox, problemToSandbox } from "../../shared/protocol/sandbox-protocol.js";
import { SANDBOX } from "../../shared/wire.js";
import { exposeForDebugging } from "../../shared/debug/debug-handle.js";

export const SANDBOX_DEFAULTS = Object.freeze({
  timeoutMs: SANDBOX.timeout_ms, // of the sandbox's own time: waiting for a tool in the parent does not count
  memoryLimitMb: SANDBOX.memory_limit_mb,
  maxOutputChars: SANDBOX.max_output_chars,
  bootTimeoutMs: SANDBOX.boot_timeout_ms,
});
const RESTARTED = "The sandbox was restarted: variables and imports from earlier steps are gone.";
const LEFT_RUNNING =
  "The sandbox was restarted because code from the previous step kept running: variables and imports from earlier steps are gone.";
// How long a sandbox has to report itself quiet after a run (worker.js takes at most a
// second); one that does not, its thread blocked by leftover code, is replaced.
const QUIET_REPORT_MS = 10_000;

// A countdown that can pause: the sandbox's time runs only while no tool call is out.
class Countdown {
  constructor(ms, expire) {
    Object.assign(this, { remaining: ms, expire, timer: null, since: 0 });
    this.resume();
  }
  pause() {
    clearTimeout(this.timer);
    this.remaining -= performance.now() - this.since;
  }
  resume() {
    this.since = performance.now();
    this.timer = setTimeout(this.expire, Math.max(0, this.remaining));
  }
  stop() {
    clearTimeout(this.timer);
  }
}

export class CodeSandbox {
  constructor(options = {}) {
    const { container = document.body, ...limits } = options;
    this.options = { ...SANDBOX_DEFAULTS, ...limits };
    this.container = container;
    this.frame = null;
    this.used = false; // has this frame run code since it started?
    this.current = null; // the run under way
    this.lastRunId = 0;
    this.verdict = null; // the report awaited from the frame on what the last run left running
    this.notice = null; // for the next run's output: why the sandbox was replaced between runs
    this.stats = { runs: 0, restarts: 0 };
    this.closing = false; // closeWhenDone() came while a run was under way: closed when it ends
  }

  // Starts the sandbox (if it is not already) and resolves once it takes code.
  async prepare() {
    return this.#usableFrame().ready;
  }

  // Starts the sandbox in the background, e.g. while the model writes its first code.
  // Never rejects: a sandbox that cannot start says so to the run that needs it.
  warm() {
    this.#usableFrame();
  }

  // Runs `code`; resolves with { output, isError, isFinal, finalValue (JSON text), stopped }
  // where `stopped` is null, or "timeout", "memory", "stopped" or "crashed" when the sandbox
  // had to be replaced. `onToolCall(name, argsJson)` answers the tool stubs: argsJson is
  // {"args": [...], "kwargs": {...}}, the answer {"ok": true, "value": ...} or
  // {"ok": false, "error": {"type", "module", "base", "args"}}, both as JSON text.
  async run(code, { tools = [], onToolCall = null, timeoutMs, memoryLimitMb, maxOutputChars } = {}) {
    if (this.current) throw new Error("this sandbox is already running code: stop it or wait");
    const limits = {
      timeoutMs: timeoutMs ?? this.options.timeoutMs,
      memoryLimitMb: memoryLimitMb ?? this.options.memoryLimitMb,
      maxOutputChars: maxOutputChars ?? this.options.maxOutputChars,
    };
    const problem = problemToSandbox({ type: ToSandbox.run, run_id: 1, code, tools, max_output_chars: 0, memory_limit_bytes: 0 });
    if (problem) throw new TypeError(`cannot run this in the sandbox: ${problem}`);
    const run = { id: ++this.lastRunId, toolNames: new Set(tools.map((t) => t.name)), onToolCall, limits, calls: new Set(), pending: 0 };
    this.current = run;
    try {
      await this.#usableFrame().ready;
    } catch (error) {
      this.current = null;
      this.#replaceFrame();
      throw error;
    }
    if (run.stopped) {
      this.current = null;
      return { output: "Execution stopped before it started.", isError: true, isFinal: false, finalValue: "null", stopped: "stopped" };
    }
    this.used = true;
    this.stats.runs++;
    return new Promise((resolve) => {
      run.resolve = resolve;
      run.message = {
        type: ToSandbox.run,
        run_id: run.id,
        code,
        tools,
        max_output_chars: limits.maxOutputChars,
        memory_limit_bytes: Math.round(limits.memoryLimitMb * 2 ** 20),
      };
      this.#post(run);
    });
  }

  // Sends the run to the frame at once. While the frame has not yet said whether the run
  // before left anything running, the run waits there and its clock waits too.
  #post(run) {
    run.frame = this.frame;
    run.frame.listener = { message: (m) => this.#receive(run, m), broken: (reason) => this.#crashed(run, reason) };
    if (!this.verdict) this.#startClock(run);
    run.frame.post(run.message);
  }

  #startClock(run) {
    run.clock = new Countdown(run.limits.timeoutMs, () => this.#timedOut(run));
  }

  // The same run as Python reaches it (SandboxExecutor): JSON text in and out, spelled as
  // wire.js's SANDBOX; onToolCall(name, argsJson) answers with JSON text too.
  async runJson(code, optionsJson, onToolCall) {
    const { tools = [], timeout_ms, memory_limit_mb, max_output_chars } = JSON.parse(optionsJson);
    const options = { tools, onToolCall, timeoutMs: timeout_ms, memoryLimitMb: memory_limit_mb, maxOutputChars: max_output_chars };
    const { output, isError, isFinal, finalValue, stopped } = await this.run(code, options);
    return JSON.stringify({ output, is_error: isError, is_final: isFinal, final_value: finalValue, stopped });
  }

  // A new conversation: a fresh interpreter, without the variables and imports of this one.
  async reset() {
    this.stop();
    this.notice = null; // a new conversation expects no variables
    if (this.used) this.#replaceFrame();
  }

  // Stops the code running now, if any (the run resolves with stopped: "stopped").
  stop() {
    if (!this.current) return;
    if (this.current.frame) this.#abort(this.current, "stopped", `Execution stopped. ${RESTARTED}`);
    else this.current.stopped = true; // still waiting for the sandbox to start: it will not run
  }

  close() {
    this.stop();
    this.#dropVerdict();
    this.frame?.destroy();
    this.frame = null;
  }

  // Closes when the run under way ends, or now if there is none (a sandbox evicted while busy).
  closeWhenDone() {
    if (this.current) this.closing = true;
    else this.close();
  }

  #usableFrame() {
    if (!this.frame || this.frame.broken) this.#replaceFrame();
    return this.frame;
  }

  #take() {
    this.used = false;
    return takeFrame(this.container, this.options.bootTimeoutMs);
  }

  #replaceFrame() {
    this.#dropVerdict(); // it was about the frame going now
    this.frame?.destroy();
    this.frame = this.#take();
  }

  #receive(run, message) {
    if (message.type === FromSandbox.settled) return this.#settled(run.frame, message);
    if (message.type === FromSandbox.memoryExceeded) {
      const limit = run.limits.memoryLimitMb;
      return this.#abort(run, "memory", `Execution stopped: the code used more than ${limit} MB of memory. ${RESTARTED}`);
    }
    if (message.run_id !== run.id) return run.frame.malformedMessage(`${message.type} for another run`);
    if (message.type === FromSandbox.toolCall) this.#toolCall(run, message);
    else if (message.type === FromSandbox.result) this.#finish(run, { ...pick(message), stopped: null });
  }

  async #toolCall(run, { call_id: callId, name, args }) {
    if (run.calls.has(callId)) return run.frame.malformedMessage(`call id ${callId} used twice`);
    run.calls.add(callId);
    if (run.pending++ === 0) run.clock.pause();
    let reply;
    try {
      if (!run.toolNames.has(name) || !run.onToolCall) throw new ToolMissing(name);
      reply = await run.onToolCall(name, args);
      if (typeof reply !== "string") throw new TypeError(`the answer to ${name}() is not JSON text`);
    } catch (error) {
      const type = error instanceof ToolMissing ? "NameError" : "RuntimeError";
      reply = JSON.stringify({ ok: false, error: { type, module: "builtins", base: type, args: [error.message] } });
    }
    if (this.current !== run) return; // stopped, timed out or crashed meanwhile
    if (--run.pending === 0) run.clock.resume();
    run.frame.post({ type: ToSandbox.toolResult, run_id: run.id, call_id: callId, reply });
  }

  #timedOut(run) {
    const seconds = run.limits.timeoutMs / 1000;
    this.#abort(run, "timeout", `Execution timed out after ${seconds} s and was stopped. ${RESTARTED}`);
  }

  #crashed(run, reason) {
    this.#abort(run, "crashed", `The sandbox stopped working (${reason}). ${RESTARTED}`);
  }

  #abort(run, stopped, output) {
    if (this.current !== run) return;
    this.#replaceFrame();
    this.stats.restarts++;
    this.#finish(run, { output, isError: true, isFinal: false, finalValue: "null", stopped });
  }

  #finish(run, result) {
    if (this.current !== run) return;
    this.current = null;
    run.clock?.stop();
    run.frame.listener = null;
    if (!result.stopped) this.#awaitVerdict(run);
    if (this.notice) result = { ...result, output: `${this.notice}\n${result.output}` };
    this.notice = null;
    run.resolve(result);
    if (this.closing) this.close();
  }

  // Until the frame reports on what the run left running, anything else from it means code
  // of the run goes on.
  #awaitVerdict(run) {
    const frame = run.frame;
    const verdict = { frame, runId: run.id, timer: setTimeout(() => this.#judged(verdict, false), QUIET_REPORT_MS) };
    this.verdict = verdict;
    frame.listener = {
      message: (m) => (m.type === FromSandbox.settled ? this.#settled(frame, m) : this.#judged(verdict, false)),
      broken: () => this.#judged(verdict, false),
    };
  }

  #settled(frame, { run_id: runId, quiet }) {
    const verdict = this.verdict;
    if (verdict?.frame !== frame || verdict.runId !== runId) return frame.malformedMessage(`settled for run ${runId}, not the last`);
    this.#judged(verdict, quiet);
  }

  // A quiet frame starts the run waiting there, if any; one that is not is replaced, and the
  // run waiting there (which it never started) goes to the new one.
  #judged(verdict, quiet) {
    if (this.verdict !== verdict) return;
    this.#dropVerdict();
    const waiting = this.current?.frame === verdict.frame ? this.current : null;
    if (!waiting) verdict.frame.listener = null;
    if (quiet) return waiting && this.#startClock(waiting);
    this.#replaceFrame();
    this.stats.restarts++;
    this.notice = LEFT_RUNNING;
    if (waiting) this.#resend(waiting);
  }

  async #resend(run) {
    try {
      await this.frame.ready;
    } catch (error) {
      return this.#crashed(run, error.message);
    }
    if (this.current === run) this.#post(run);
  }

  #dropVerdict() {
    clearTimeout(this.verdict?.timer);
    this.verdict = null;
  }
}

// For tests, benchmarks and the console (tabagentDebug.sandboxStatus): how a host stands.
exposeForDebugging("sandboxStatus", (host) => {
  const frame = host.frame;
  return { ready: Boolean(frame?.info), running: Boolean(host.current), spare: spareState(), ...frame?.info, ...host.stats };
});

class ToolMissing extends Error {
  constructor(name) {
    super(`name '${name}' is not defined: it is not a tool of this run`);
  }
}

// A result message (the wire's snake_case) as run() answers it.
function pick({ output, is_error, is_final, final_value }) {
  return { output, isError: is_error, isFinal: is_final, finalValue: final_value };
}
