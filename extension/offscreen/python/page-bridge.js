// The page bridge handed to Python (JsonBridge in py/tabagent/app/page_bridge.py), JSON text both
// ways. runPageTool() sends a page-tool call to the service worker, which runs it in the user's tab;
// confirm() waits for the user's answer to a confirmation the agent has emitted, which the
// side panel sends back through the service worker (MessageType.answerConfirmation); ask()
// waits, with no timeout, for the user's answer to a hand-back (MessageType.answerHandBack).
// A confirmation that carries a form (an MCP server's elicitation) is answered with the values
// typed: the wait then resolves to wire.js FORM_ANSWER as JSON text.

import { CONFIRMATION_DECISIONS, DOWNLOADS, Decision, EntryPoint } from "../../shared/wire.js";
import { Broadcast, MessageType, Target } from "../../shared/protocol/messages.js";
import { readyForModel } from "../../shared/pictures/screenshot-canvas.js";
import { runPdfTool } from "../pdf/pdf-reader.js";
import { readDownloadedFile } from "../pdf/downloaded-file.js";

const waiting = new Map(); // confirmation id -> { conversationId, resolve }
const handedBack = new Map(); // hand-back id -> { conversationId, resolve }

// agentTab: the tab the turn works on ({tab_id?, window_id?}, from the side panel that started
// it), sent with every call so that a tab the page brings to the front is not taken for it.
// unattended: a scheduled run, with nobody at the panel: a question is never answered for the
// user; the service worker is told the run needs them, and stops it (scheduled-runs.js).
export function pageBridge(conversationId, agentTab = null, { unattended = false } = {}) {
  const asked = new Set();
  const handed = new Set();
  // The turn's watches for the downloads its actions start (background/action-downloads.js): the
  // latest per tab and site, sent with each call, so that a download that comes late is still the turn's.
  let watching = [];
  return {
    async runPageTool(requestJson) {
      // Passed on as Python wrote it: the wire's spelling (wire.js PAGE_TOOL_REQUEST), no renaming.
      const { name, args, tab_id, expect_url } = JSON.parse(requestJson);
      // The last claim of the turn's downloads: nothing to claim when no action of the turn may have started one.
      if (name === DOWNLOADS.unnamed_call && !watching.length) return JSON.stringify({ ok: true, result: {} });
      const message = { target: Target.background, type: MessageType.pageTool, name, args, tab_id, expect_url, agent_tab: agentTab, watching };
      const reply = await chrome.runtime.sendMessage(message).catch((error) => ({ ok: false, error: error.message }));
      if (!reply?.ok) {
        const why = reply?.error ?? "the service worker did not answer";
        return JSON.stringify({ ok: false, error: `The page tools could not be reached (${why}); try again.` });
      }
      const { watch } = reply.result ?? {};
      if (watch) watching = [...watching.filter((one) => one.tab_id !== watch.tab_id || one.site !== watch.site), watch];
      if (reply.result) delete reply.result.watch;
      // A PDF tab: read here with pdf.js, as the service worker said what to read.
      if (reply.result?.pdf) reply.result = { ...reply.result, ...(await runPdfTool(reply.result.pdf)), pdf: undefined };
      // A download of the turn (read_download): its bytes, fetched by the service worker, read here (text, or pdf.js).
      if (reply.result?.download) reply.result = { ...reply.result, ...(await readDownloadedFile(reply.result.download)), download: undefined };
      // A screenshot is made ready for the model here, where there is a canvas, on its way to Python.
      if (name === "screenshot" && reply.result?.ok) reply.result.result = await readyForModel(reply.result.result);
      return JSON.stringify(reply.result);
    },
    confirm(id, question) {
      asked.add(id);
      const answer = new Promise((resolve) => waiting.set(id, { conversationId, resolve }));
      if (unattended) chrome.runtime.sendMessage({ type: Broadcast.runNeedsYou, conversationId, question: String(question ?? "") }).catch(() => {});
      return answer;
    },
    // A hand-back waits as long as the user takes: the turn goes on with their answer (JSON
    // text: a string, or null when the turn ended first).
    // Unattended, nobody can answer: the service worker is told, as for a confirmation.
    ask(id, question) {
      handed.add(id);
      const answer = new Promise((resolve) => handedBack.set(id, { conversationId, resolve }));
      if (unattended) chrome.runtime.sendMessage({ type: Broadcast.runNeedsYou, conversationId, question: String(question ?? "") }).catch(() => {});
      return answer;
    },
    // An MCP server of the turn asked for sign-in: the service worker refreshes the token or,
    // once the user said yes (interactive), opens the browser's sign-in window. JSON text:
    // { ok, authorization } or { ok: false, error, ended } (ended: a kept sign-in that cannot be renewed).
    async signIn(serverId, challenge, interactive) {
      const message = { target: Target.background, type: MessageType.mcpSignInForTurn, serverId: String(serverId), challenge: String(challenge ?? ""), interactive: interactive === true };
      const reply = await chrome.runtime.sendMessage(message).catch((error) => ({ ok: false, error: error.message }));
      const signed = reply?.ok ? reply.result : { ok: false, error: reply?.error ?? "the service worker did not answer" };
      return JSON.stringify(signed?.ok ? { ok: true, authorization: signed.authorization }
        : { ok: false, error: String(signed?.error ?? "the sign-in did not happen"), ended: signed?.ended === true });
    },
    // The turn is over (finished or stopped): questions still open no longer matter (a
    // form still open is cancelled: FORM_ANSWER with no values).
    close() {
      for (const id of asked) settle(id, Decision.deny);
      for (const id of handed) handBack(id, null);
    },
  };
}

function settle(id, decision, values) {
  const entry = waiting.get(id);
  if (!entry) return false;
  waiting.delete(id);
  entry.resolve(values === undefined ? decision : JSON.stringify({ decision, values }));
  return true;
}

function handBack(id, answer) {
  const entry = handedBack.get(id);
  if (!entry) return false;
  handedBack.delete(id);
  entry.resolve(JSON.stringify(answer));
  return true;
}

// The user's answer to a hand-back: their words (for a login, what they add to Continue).
export async function answerHandBack({ conversationId, id, answer }) {
  if (typeof answer !== "string") throw new Error("An answer to a hand-back is text.");
  if (handedBack.get(id)?.conversationId !== conversationId) return { answered: false };
  return { answered: handBack(id, answer) };
}

const DECISIONS = new Set(CONFIRMATION_DECISIONS);
const isPlain = (value) =>
  ["string", "number", "boolean"].includes(typeof value) || (Array.isArray(value) && value.every((one) => typeof one === "string"));

// values: for a form, its fields' values by name (plain values only; Python checks each
// against its field again).
export async function answerConfirmation({ conversationId, id, decision, values }) {
  if (!DECISIONS.has(decision)) throw new Error(`“${decision}” is not an answer: ${CONFIRMATION_DECISIONS.join(", ")}.`);
  if (values !== undefined && (values === null || typeof values !== "object" || !Object.values(values).every(isPlain))) {
    throw new Error("A form's answer is its fields' values, each a text, a number, a yes or no, or a list of choices.");
  }
  // Answered already, or the turn has ended: there is nobody waiting any more.
  if (waiting.get(id)?.conversationId !== conversationId) return { answered: false };
  return { answered: settle(id, decision, values) };
}

// One tool called by hand (MessageType.callTool): the exact text a model would get, and the
// time from the call to the result measured in Python.
export async function callTool(api, { name, args, agentTab }) {
  const reply = await api.runEntryPoint(EntryPoint.call_tool_json, [name, args ?? {}], { page_bridge: pageBridge(null, agentTab) });
  if (!reply.ok) throw new Error(reply.error);
  return { result: reply.result, ms: reply.ms, images: reply.images ?? [] };
}
