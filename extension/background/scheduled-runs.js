// Scheduled runs: each in a background tab of its own (run-tab.js), its conversation kept like
// any other and marked as scheduled. A schedule never runs twice at once, and at most
// MAX_AT_ONCE schedules run together: the rest wait their turn. A run's question to the user
// (a consent nobody is there to answer) stops it as "needs you", never approved on their
// behalf; so does a workflow that is not the one the schedule was saved with (schedules.js pins
// it), before anything runs. Its end is said in a notification (run-notices.js). What runs and waits is kept in
// chrome.storage.session: the service worker may stop between a run's start and its end.

import * as conversations from "../shared/storage/conversations.js";
import { TurnStatus } from "../shared/import-checks/conversation-schema.js";
import { taskFor } from "../shared/storage/schedules.js";
import { loadWorkflows, workflowDigest } from "../shared/storage/workflows.js";
import { closeRunTab, openRunTab } from "./run-tab.js";
import { noticeRunEnded, noticeRunNotStarted, noticeWorkflowChanged } from "./run-notices.js";
import { startTurn, stopTurn } from "./turn-records.js";

export const MAX_AT_ONCE = 2;
const RUNS_KEY = "scheduledRuns";

let queue = Promise.resolve();
function serially(change) {
  const result = queue.then(change);
  queue = result.catch(() => {});
  return result;
}

// { running: { scheduleId: { name, conversationId, turnId, tabId, windowId, missedAt, needs } }, waiting: [{ schedule, missedAt }] }
async function loadRuns() {
  const { [RUNS_KEY]: runs } = await chrome.storage.session.get(RUNS_KEY);
  return { running: runs?.running ?? {}, waiting: runs?.waiting ?? [] };
}

const storeRuns = (runs) => chrome.storage.session.set({ [RUNS_KEY]: runs });
const busy = (runs, id) => Boolean(runs.running[id]) || runs.waiting.some((waiting) => waiting.schedule.id === id);

// The schedule is due: it starts now, or waits while MAX_AT_ONCE others run; a schedule that
// is running or waiting already lets this time go (runs never overlap).
export function runWhenFree(schedule, { missedAt = null } = {}) {
  return serially(async () => {
    const runs = await settled(await loadRuns());
    if (busy(runs, schedule.id)) {
      await storeRuns(runs);
      return { started: false, overlapping: true };
    }
    runs.waiting.push({ schedule, missedAt });
    await startWaiting(runs);
    await storeRuns(runs);
    return { started: Boolean(runs.running[schedule.id]), waiting: !runs.running[schedule.id] };
  });
}

async function startWaiting(runs) {
  while (runs.waiting.length && Object.keys(runs.running).length < MAX_AT_ONCE) {
    const { schedule, missedAt } = runs.waiting.shift();
    const run = await startRun(schedule, missedAt);
    if (run) runs.running[schedule.id] = run;
  }
}

// Whether the tool a schedule runs is a workflow other than the one it was saved with: changed,
// deleted, or one by that name where there was none. (A schedule saved before workflows were
// pinned pins none: one that meets a workflow is told so, once saved again it runs.)
async function workflowChanged(schedule, workflows) {
  if (schedule.what.kind !== "tool") return false;
  const now = await workflowDigest(schedule.what.name, workflows);
  return schedule.pinned === undefined ? now !== null : now !== schedule.pinned;
}

async function startRun(schedule, missedAt) {
  const workflows = await loadWorkflows();
  if (await workflowChanged(schedule, workflows)) {
    await noticeWorkflowChanged(schedule);
    return null;
  }
  const { tabId, windowId } = await openRunTab(schedule.url);
  try {
    const scheduled = { scheduleId: schedule.id, name: schedule.name, missedAt };
    const { conversationId, turnId } = await startTurn({
      text: taskFor(schedule.what, Object.keys(workflows)), windowId,
      unattended: { tabId, scheduled, sites: schedule.sites },
    });
    return { name: schedule.name, conversationId, turnId, tabId, windowId, missedAt, needs: null };
  } catch (error) {
    await closeRunTab(tabId);
    await noticeRunNotStarted(schedule, error.message);
    return null;
  }
}

// Runs whose turn has ended (as storage has it) are over: each is told in a notification, its
// tab closed unless it needs the user, and the runs that waited start.
async function settled(runs) {
  for (const [id, run] of Object.entries(runs.running)) {
    const turn = (await conversations.loadConversation(run.conversationId))?.turns.find((one) => one.id === run.turnId);
    if (turn?.status === TurnStatus.running) continue;
    delete runs.running[id];
    if (!run.needs) await closeRunTab(run.tabId);
    await noticeRunEnded(run, turn ?? null);
  }
  return runs;
}

// A turn ended (the service worker has saved it): if it was a scheduled run, that run is over.
export function scheduledTurnFinished() {
  return serially(async () => {
    const runs = await settled(await loadRuns());
    await startWaiting(runs);
    await storeRuns(runs);
  });
}

// Whether a scheduled run is working in this conversation (its questions are said by its own
// notification, which stops it, not by the hand-back's).
export async function isScheduledRun(conversationId) {
  const runs = await loadRuns();
  return Object.values(runs.running).some((one) => one.conversationId === conversationId);
}

// The run asked the user something (offscreen/python/page-bridge.js says so for an unattended turn):
// nobody is there to answer, so it stops, and its notification says it needs them.
export async function scheduledRunNeedsYou({ conversationId, question }) {
  const marked = await serially(async () => {
    const runs = await loadRuns();
    const run = Object.values(runs.running).find((one) => one.conversationId === conversationId);
    if (!run) return false;
    run.needs = String(question ?? "").slice(0, 500);
    await storeRuns(runs);
    return true;
  });
  if (marked) await stopTurn({ conversationId });
  return { stopped: marked };
}
