// The notifications that say how a scheduled run ended: finished, with the first line of its
// answer; stopped because it needs the user, with the question it was asking; failed, with
// why. A run missed while the browser was closed says it ran at start. What the model or a page
// wrote is plain text here, every character that draws nothing written out.

import { EventKind } from "../shared/wire.js";
import { TurnStatus } from "../shared/import-checks/conversation-schema.js";
import { shownWithin } from "../shared/import-checks/unseen-text.js";
import { t } from "../shared/ui/i18n.js";
import { noticeIdFor } from "./notice-clicks.js";

const ICON = "extension/icons/icon-128.png";
// Its click opens the run's conversation, and the run's tab when it was kept for the user.
const noticeId = (run) => noticeIdFor("run", { conversationId: run.conversationId, windowId: run.windowId, tabId: run.needs ? run.tabId : null });

function firstLine(text) {
  const line = String(text ?? "").split("\n").map((one) => one.trim()).find(Boolean) ?? "";
  return shownWithin(line, 200);
}

function answerOf(turn) {
  const final = turn?.events.findLast((event) => event.kind === EventKind.final_answer && event.depth === 0);
  return typeof final?.data.answer === "string" ? final.data.answer : JSON.stringify(final?.data.answer ?? "");
}

function errorOf(turn) {
  return turn?.events.findLast((event) => event.kind === EventKind.error)?.data.message ?? "";
}

function outcome(run, turn) {
  if (run.needs) return t("runNeedsYou", shownWithin(run.needs, 200));
  if (turn?.status === TurnStatus.ok) return t("runFinished", firstLine(answerOf(turn)));
  if (turn?.status === TurnStatus.cancelled) return t("runStopped");
  return t("runFailed", firstLine(errorOf(turn)) || String(turn?.status ?? TurnStatus.interrupted));
}

function missed(run) {
  return run.missedAt ? `${t("runMissed", new Date(run.missedAt).toLocaleString())} ` : "";
}

export function noticeRunEnded(run, turn) {
  return notify(noticeId(run), shownWithin(run.name, 100), `${missed(run)}${outcome(run, turn)}`);
}

export function noticeRunNotStarted(schedule, why) {
  return notify(`run:${schedule.id}:${Date.now()}`, shownWithin(schedule.name, 100), t("runNotStarted", shownWithin(why, 300)));
}

// A schedule's workflow is not the one it was saved with: it did not run, and needs the user.
export function noticeWorkflowChanged(schedule) {
  return notify(`run:${schedule.id}:${Date.now()}`, shownWithin(schedule.name, 100), t("runWorkflowChanged", shownWithin(schedule.what.name, 100)));
}

function notify(id, title, message) {
  const options = { type: "basic", iconUrl: chrome.runtime.getURL(ICON), title: `TabAgent: ${title}`, message };
  return chrome.notifications.create(id, options).catch((error) => console.warn("TabAgent: no notification:", error.message));
}
