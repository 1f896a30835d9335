// A turn's trace: exactly what was sent to the model and what came back at each step
// (messages, tool schemas, raw replies, token usage, timings), copyable as JSON. Every character
// that draws nothing is written out (⟨U+202E⟩), as wherever the user is shown what the model
// reads: a page's zero-width or right-to-left characters, which the request's JSON carries as
// escapes, would otherwise be drawn as nothing, or turn the words around. Copy as JSON copies
// the data as it is.

import { h } from "../shared/ui/dom.js";
import { EventKind } from "../shared/wire.js";
import { t } from "../shared/ui/i18n.js";
import { shown } from "../shared/import-checks/unseen-text.js";

const NOT_A_CALL = new Set([EventKind.compaction, EventKind.server_log]); // kept in the trace by their kind

function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // a streamed reply is server-sent events, not one JSON document
  }
}

// Usage comes as data, read by Python from the reply. The record may be an imported file,
// so only whole numbers are shown: anything else is a "?".
function usageOf(usage) {
  if (!usage || typeof usage !== "object") return "";
  const count = (value) => (Number.isInteger(value) ? value : "?");
  return ` · ${t("tokenUsage", count(usage.prompt_tokens), count(usage.completion_tokens))}`;
}

// The trace as data: one entry per model call, in order.
export function traceAsJson(calls) {
  return calls.map((event) => ({
    agent: event.agent, depth: event.depth, step: event.step,
    ...(NOT_A_CALL.has(event.kind) ? { kind: event.kind } : {}), ...event.data,
  }));
}

export class TraceView {
  constructor(dialog) {
    this.dialog = dialog;
    this.body = dialog.querySelector(".trace-calls");
    this.calls = []; // the model calls shown, for Copy as JSON
    dialog.querySelector(".close-trace").addEventListener("click", () => dialog.close());
    dialog.querySelector(".copy-trace").addEventListener("click", async (event) => {
      await navigator.clipboard.writeText(JSON.stringify(traceAsJson(this.calls), null, 2));
      event.currentTarget.textContent = t("copied");
    });
  }

  show(calls) {
    this.calls = calls;
    this.dialog.querySelector(".copy-trace").textContent = t("copyAsJson");
    this.body.replaceChildren(...calls.map((event, index) => this.modelCall(event, index)));
    this.dialog.showModal();
  }

  modelCall(event, index) {
    if (event.kind === EventKind.compaction) return this.compaction(event, index);
    if (event.kind === EventKind.server_log) return this.serverLog(event, index);
    const { status, started, ended, request, response, url, usage } = event.data;
    const timing = ended && started ? `${Math.round((ended - started) * 1000)} ms` : "";
    const title = `${index + 1}. ${t("agentStepLabel", event.agent, event.step)} · ${status ?? t("noAnswer")} · ${timing}${usageOf(usage)}`;
    return h(
      "details",
      { class: "model-call", "data-status": status ?? "" },
      h("summary", {}, title),
      h("div", { class: "call-url" }, shown(url)),
      h("h3", {}, t("sent")),
      h("pre", { class: "call-request" }, shown(pretty(request))),
      h("h3", {}, t("received")),
      h("pre", { class: "call-response" }, response ? shown(response) : t("nothingReceived")),
    );
  }

  // A log message from an MCP server (docs/events.md server_log), as it wrote it.
  serverLog(event, index) {
    const { server, level, logger, message } = event.data;
    return h("div", { class: "trace-server-log", "data-level": level },
      `${index + 1}. ${t("serverLog", server, level)} ${logger ? `${shown(logger)}: ` : ""}${shown(message)}`);
  }

  // A compaction: what was dropped or summarised so that the next request fits.
  compaction(event, index) {
    const { message, dropped = [] } = event.data;
    return h(
      "details",
      { class: "trace-compaction" },
      h("summary", {}, `${index + 1}. ${t("agentStepLabel", event.agent, event.step)} · ${t("compacted")}`),
      h("p", {}, shown(message)),
      h("ul", {}, ...dropped.map((line) => h("li", {}, shown(line)))),
    );
  }
}
