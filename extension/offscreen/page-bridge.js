// The page bridge handed to Python (JsonBridge in py/tabagent/app/page_bridge.py), JSON text both
// ways. call() sends a page-tool call to the service worker, which runs it in the user's tab;
// confirm() waits for the user's answer to a confirmation the agent has emitted, which the
// side panel sends back through the service worker (MessageType.answerConfirmation).

import { CONFIRMATION_DECISIONS, Decision, EntryPoint } from "../shared/wire.js";
import { MessageType, Target } from "../shared/messages.js";
import { readyForModel } from "../shared/screenshot-canvas.js";
import { runPdfTool } from "./pdf-reader.js";

const waiting = new Map(); // confirmation id -> { conversationId, resolve }

// agentTab: the tab the turn works on ({tab_id?, window_id?}, from the side panel that started
// it), sent with every call so that a tab the page brings to the front is not taken for it.
export function pageBridge(conversationId, agentTab = null) {
  const asked = new Set();
  return {
    async call(requestJson) {
      // Passed on as Python wrote it: the wire's spelling (wire.js PAGE_TOOL_REQUEST), no renaming.
      const { name, args, tab_id, expect_url } = JSON.parse(requestJson);
      const message = { target: Target.background, type: MessageType.pageTool, name, args, tab_id, expect_url, agent_tab: agentTab };
      const reply = await chrome.runtime.sendMessage(message).catch((error) => ({ ok: false, error: error.message }));
      if (!reply?.ok) {
        const why = reply?.error ?? "the service worker did not answer";
        return JSON.stringify({ ok: false, error: `The page tools could not be reached (${why}); try again.` });
      }
      // A PDF tab: read here with pdf.js, as the service worker said what to read.
      if (reply.result?.pdf) reply.result = { ...reply.result, ...(await runPdfTool(reply.result.pdf)), pdf: undefined };
      // A screenshot is made ready for the model here, where there is a canvas, on its way to Python.
      if (name === "screenshot" && reply.result?.ok) reply.result.result = await readyForModel(reply.result.result);
      return JSON.stringify(reply.result);
    },
    confirm(id) {
      asked.add(id);
      return new Promise((resolve) => waiting.set(id, { conversationId, resolve }));
    },
    // The turn is over (finished or stopped): questions still open no longer matter.
    close() {
      for (const id of asked) settle(id, Decision.deny);
    },
  };
}

function settle(id, decision) {
  const entry = waiting.get(id);
  if (!entry) return false;
  waiting.delete(id);
  entry.resolve(decision);
  return true;
}

const DECISIONS = new Set(CONFIRMATION_DECISIONS);

export async function answerConfirmation({ conversationId, id, decision }) {
  if (!DECISIONS.has(decision)) throw new Error(`“${decision}” is not an answer: ${CONFIRMATION_DECISIONS.join(", ")}.`);
  // Answered already, or the turn has ended: there is nobody waiting any more.
  if (waiting.get(id)?.conversationId !== conversationId) return { answered: false };
  return { answered: settle(id, decision) };
}

// One tool called by hand (MessageType.callTool): the exact text a model would get, and the
// time from the call to the result measured in Python.
export async function callTool(api, { name, args, agentTab }) {
  const reply = await api.call(EntryPoint.call_tool_json, [name, args ?? {}], { page: pageBridge(null, agentTab) });
  if (!reply.ok) throw new Error(reply.error);
  return { result: reply.result, ms: reply.ms, images: reply.images ?? [] };
}
