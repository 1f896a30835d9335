// Schedules in storage and their alarms (the schema: shared/storage/schedules.js). Only a person on the
// settings page makes, changes or deletes one (service-worker.js takes these requests from
// the extension's own pages only); an alarm then starts its run (scheduled-runs.js). Each
// schedule has one alarm, set for the time it is due next and set again after it fires:
// between runs nothing of TabAgent's is awake.

import { SCHEDULES_KEY, MAX_SCHEDULES, alarmName, checkSchedule, nextRunAfter, scheduleIdOf } from "../shared/storage/schedules.js";
import { runWhenFree } from "./scheduled-runs.js";
import { loadWorkflows, workflowDigest } from "../shared/storage/workflows.js";

// A run that starts this much later than it was due was missed (the browser was closed).
export const LATE_MS = 2 * 60_000;

let queue = Promise.resolve();
function serially(change) {
  const result = queue.then(change);
  queue = result.catch(() => {});
  return result;
}

export async function loadSchedules() {
  const { [SCHEDULES_KEY]: schedules = {} } = await chrome.storage.local.get(SCHEDULES_KEY);
  return schedules;
}

const store = (schedules) => chrome.storage.local.set({ [SCHEDULES_KEY]: schedules });

function arm(schedule) {
  if (!schedule.enabled || schedule.dueAt == null) return chrome.alarms.clear(alarmName(schedule.id));
  return chrome.alarms.create(alarmName(schedule.id), { when: schedule.dueAt });
}

// A person saved a schedule on the settings page: checked, given its next time, armed. One
// that runs a tool pins the workflow of that name as it is now (`pinned`: its code's digest,
// null when there is none): a run of a workflow changed since then stops as needing the user.
export function saveSchedule({ schedule }) {
  return serially(async () => {
    const schedules = await loadSchedules();
    const checked = checkSchedule({ ...schedule, id: schedule?.id || crypto.randomUUID() });
    if (!schedules[checked.id] && Object.keys(schedules).length >= MAX_SCHEDULES) throw new Error(`At most ${MAX_SCHEDULES} schedules.`);
    const pinned = checked.what.kind === "tool" ? { pinned: await workflowDigest(checked.what.name, await loadWorkflows()) } : {};
    const kept = { ...schedules[checked.id], ...checked, ...pinned, dueAt: checked.enabled ? nextRunAfter(checked.when, Date.now()) : null };
    await store({ ...schedules, [kept.id]: kept });
    await arm(kept);
    return { schedule: kept };
  });
}

export function deleteSchedule({ scheduleId }) {
  return serially(async () => {
    const schedules = await loadSchedules();
    delete schedules[scheduleId];
    await store(schedules);
    await chrome.alarms.clear(alarmName(scheduleId));
    return { deleted: true };
  });
}

// The schedule is due now: its next time is set (a once-only one will not run again), then it
// runs unless it is running already. onlyIfDue: run only if its time has come, as storage has it
// now (the browser may have fired a kept alarm for it meanwhile, which has run it already).
function runDue(id, { missedAt = null, onlyIfDue = false } = {}) {
  return serially(async () => {
    const schedules = await loadSchedules();
    const schedule = schedules[id];
    const now = Date.now();
    if (!schedule?.enabled || (onlyIfDue && !(schedule.dueAt != null && schedule.dueAt <= now))) return null;
    const dueAt = nextRunAfter(schedule.when, now);
    const kept = { ...schedule, dueAt, enabled: dueAt != null, lastRunAt: now };
    await store({ ...schedules, [id]: kept });
    await arm(kept);
    return kept;
  }).then((schedule) => schedule && runWhenFree(schedule, { missedAt }));
}

// chrome.alarms.onAlarm. An alarm that fires long after its time (the browser was closed when
// it was due, and kept it) is a missed run, and its run says so.
export function onScheduleAlarm(alarm) {
  const id = scheduleIdOf(alarm?.name);
  if (!id) return Promise.resolve(null);
  const late = Date.now() - (alarm.scheduledTime ?? Date.now()) > LATE_MS;
  return runDue(id, { missedAt: late ? alarm.scheduledTime : null });
}

// The browser starts: each schedule that fell due while it was closed runs once now, saying so
// (however many times it was due), and every alarm is set again (a browser may drop them).
export async function catchUpMissedRuns() {
  const schedules = await loadSchedules();
  const now = Date.now();
  const runs = [];
  for (const schedule of Object.values(schedules)) {
    if (schedule.enabled && schedule.dueAt != null && schedule.dueAt <= now) runs.push(runDue(schedule.id, { missedAt: schedule.dueAt, onlyIfDue: true }));
    else await arm(schedule);
  }
  return Promise.all(runs);
}

// After an install or an update the browser has cleared the alarms: each is set again.
export async function armAllSchedules() {
  for (const schedule of Object.values(await loadSchedules())) await arm(schedule);
}
