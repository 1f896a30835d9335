// The offscreen document: home of the agent's Python. The service worker creates it when
// Python is first needed (a panel opens, a turn is sent) and closes it when it has been idle
// for a while (idle-close.js). It starts Pyodide at once, in a worker of its own
// (python/worker-link.js), keeps it, and answers messages addressed to it. Only chrome.runtime is
// available here, so storage and tabs go through the service worker.
// Its parts, a folder each: python/ (the agent's Python, its worker, and what is lent to it),
// code-sandboxes/ (the sandboxed pages the model's code runs in) and pdf/ (the page tools on a
// PDF tab, read with pdf.js).

import { Broadcast, MessageType, Target } from "../shared/protocol/messages.js";
import { IdleClose } from "./idle-close.js";
import { isServiceWorker } from "../shared/protocol/senders.js";
import { answerConfirmation, answerHandBack, callTool, pageBridge } from "./python/page-bridge.js";
import { runPdfTool } from "./pdf/pdf-reader.js";
import { PythonLink } from "./python/worker-link.js";
import { pythonWorker, workerFailedEarly } from "./python/worker-start.js";
import { TurnRunner } from "./python/turn-runner.js";
import { ClientCalls } from "./python/client-calls.js";
import { appCall } from "./python/app-calls.js";
import { exposeForDebugging } from "../shared/debug/debug-handle.js";
import { EntryPoint } from "../shared/wire.js";
import { ModelRunner } from "./on-device/model-runner.js";
import { ModelDownloads } from "./on-device/model-download.js";
import { removeModelFile } from "../shared/on-device/model-files.js";

// When this document started and its module ran (Unix ms), for the start-up profile.
const documentTimes = { documentStarted: Math.round(performance.timeOrigin), documentModuleRan: Date.now() };
const link = new PythonLink(pythonWorker, workerFailedEarly);
const python = link.ready.then(() => link);
// For the console and tests (shared/debug/debug-handle.js): run(code, sandboxFor) runs Python there.
const debugPython = link.ready.then((info) => ({ info, run: (code, sandboxFor) => link.run(code, sandboxFor) }));
exposeForDebugging("python", debugPython);
// A Python that could not start is announced below; whoever awaits these learns it too.
for (const waiting of [python, debugPython]) waiting.catch(() => {});
const idle = new IdleClose(() => {
  chrome.runtime.sendMessage({ target: Target.background, type: MessageType.offscreenIdle }).catch(() => {});
});
// The on-device model: loaded for a turn, unloaded after the same quiet spell as Python.
const runner = new ModelRunner({ unloadAfterMs: idle.idleMs });
exposeForDebugging("onDeviceModel", runner);
const downloads = new ModelDownloads((progress) => {
  chrome.runtime.sendMessage({ type: Broadcast.deviceModelDownload, ...progress }).catch(() => {}); // no settings page open
}, idle);
const turns = new TurnRunner(python, idle, runner);
const clients = new ClientCalls(python, idle); // MCP clients' calls (TabAgent as an MCP server)
const PANEL_PAGE = chrome.runtime.getURL("extension/sidepanel/sidepanel.html");

link.ready.then(
  (info) => announce({ ready: true, ...info }),
  (error) => announce({ ready: false, error: describe(error) }),
);

function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

function announce(status) {
  chrome.runtime.sendMessage({ type: Broadcast.pythonStatus, status }).catch(() => {
    // Nobody is listening (no panel open): the next ping will ask again.
  });
}

const handlers = {
  async [MessageType.ping]() {
    const info = await link.ready;
    return { ready: true, ...info, phases: { ...documentTimes, ...info.phases } };
  },
  [MessageType.runTurn]: (message) => turns.start(message),
  [MessageType.stopTurn]: (message) => (clients.owns(message.conversationId) ? clients.stop(message) : turns.stop(message)),
  [MessageType.liveTurns]: async () => ({ turnIds: [...turns.liveTurnIds(), ...clients.liveTurnIds()] }),
  [MessageType.clientCall]: (message) => clients.runClientCall(message),
  [MessageType.answerConfirmation]: (message) => answerConfirmation(message),
  [MessageType.answerHandBack]: (message) => answerHandBack(message),
  [MessageType.callTool]: async (message) => callTool(await turns.api(), message),
  [MessageType.listTools]: async ({ mcpServers, mcpHeaders }) => {
    const api = await turns.api();
    const own = await api.runEntryPoint(EntryPoint.list_tools_json, [], { page_bridge: pageBridge(null) });
    if (!mcpServers?.length) return own;
    const mcp = await api.runEntryPoint(EntryPoint.list_mcp_tools_json, [mcpServers, mcpHeaders ?? {}]);
    return { tools: [...own.tools, ...mcp.tools], problems: [...own.problems, ...mcp.problems] };
  },
  [MessageType.downloadDeviceModel]: async ({ request }) => downloads.start(request),
  [MessageType.stopDeviceModelDownload]: async ({ id }) => downloads.stop(id),
  [MessageType.deleteDeviceModel]: async ({ id }) => {
    downloads.stop(id);
    if (runner.loaded?.id === id) await runner.unload();
    await removeModelFile(id);
    return { deleted: true };
  },
  [MessageType.deviceModelStatus]: async () => ({ downloads: downloads.list(), runner: runner.status() }),
  [MessageType.idleCheck]: async () => ({ idle: idle.isIdle() }),
  [MessageType.idleCloseChanged]: async () => ({}),
  [MessageType.pdfTool]: (message) => runPdfTool(message),
  [MessageType.listMcpPrompts]: async ({ mcpServers, mcpHeaders }) =>
    (await turns.api()).runEntryPoint(EntryPoint.list_mcp_prompts_json, [mcpServers ?? [], mcpHeaders ?? {}]),
  [MessageType.getMcpPrompt]: async ({ server, headers, name, arguments: args }) =>
    (await turns.api()).runEntryPoint(EntryPoint.get_mcp_prompt_json, [server, headers ?? {}, name, args ?? {}]),
  [MessageType.readMcpApp]: async ({ server, headers, uri }) =>
    (await turns.api()).runEntryPoint(EntryPoint.read_mcp_app_json, [server, headers ?? {}, String(uri)]),
  [MessageType.mcpAppCall]: (message) => appCall(turns.api(), message),
  [MessageType.saveWorkflow]: async ({ events, task, name }) =>
    (await turns.api()).runEntryPoint(EntryPoint.workflow_from_turn_json, [events ?? [], task ?? "", name ?? ""]),
  [MessageType.readWorkflow]: async ({ source }) => (await turns.api()).runEntryPoint(EntryPoint.read_workflow_json, [String(source)]),
  [MessageType.messagesGiven]: async ({ turns: shown }) => (await turns.api()).runEntryPoint(EntryPoint.messages_given_json, [shown ?? []]),
  [MessageType.checkMcpServer]: async ({ server, headers }) =>
    (await turns.api()).runEntryPoint(EntryPoint.check_mcp_server_json, [server, headers ?? {}]),
  [MessageType.mcpSignInPlan]: async ({ server, redirectUri, clientId, how }) =>
    (await turns.api()).runEntryPoint(EntryPoint.mcp_sign_in_plan_json, [server, String(redirectUri), String(clientId ?? ""), how ?? {}]),
  [MessageType.mcpSignInFinish]: async ({ plan, endedAt }) =>
    (await turns.api()).runEntryPoint(EntryPoint.mcp_sign_in_finish_json, [plan, String(endedAt)]),
  [MessageType.mcpRefreshSignIn]: async ({ record }) => (await turns.api()).runEntryPoint(EntryPoint.mcp_refresh_json, [record]),
  [MessageType.mcpSignOut]: async ({ record }) => (await turns.api()).runEntryPoint(EntryPoint.mcp_sign_out_json, [record]),
};
// Messages about Python's life cycle are not a use of it.
const LIFE_CYCLE = new Set([MessageType.idleCheck, MessageType.idleCloseChanged, MessageType.deviceModelStatus]);

// Everything the offscreen document does for others comes through the service worker, which
// checks who asked: a content script addressing this document directly is not answered.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (message?.target !== Target.offscreen || !isServiceWorker(sender)) return false;
  const handler = Object.hasOwn(handlers, message.type) ? handlers[message.type] : null;
  if (!handler) {
    sendResponse({ ok: false, error: `offscreen: unknown message type ${message.type}` });
    return false;
  }
  idle.setMinutes(message.idle_close_minutes);
  runner.setUnloadAfter(idle.idleMs);
  if (!LIFE_CYCLE.has(message.type)) idle.touch();
  handler(message).then(
    (result) => sendResponse({ ok: true, result }),
    (error) => sendResponse({ ok: false, error: describe(error) }),
  );
  return true; // the answer comes asynchronously
});

chrome.runtime.sendMessage({ target: Target.background, type: MessageType.offscreenListening }).catch(() => {});

// An open side panel keeps Python here: it holds a port for as long as it is open.
chrome.runtime.onConnect.addListener((port) => {
  if (port.name === MessageType.panelOpen && port.sender?.url?.split(/[?#]/)[0] === PANEL_PAGE) idle.addPanel(port);
  else port.disconnect();
});
