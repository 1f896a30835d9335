// What a schedule is, checked field by field, and when it runs next. Pure JavaScript (no
// extension APIs), so Node's test runner checks it too. Schedules are kept in
// chrome.storage.local under SCHEDULES_KEY; only the service worker writes them, and only when
// a person saves one on the settings page (background/schedules.js): nothing imported, and
// nothing a page or the model writes, makes or changes one.
//
// A schedule: { id, name,
//   what: { kind: "prompt", text } | { kind: "tool", name, args }   what to run
//   when: { kind: "once", at } | { kind: "every", minutes } | { kind: "daily", time: "HH:MM" }
//   url: the page its tab opens on ("" for none),
//   sites: ["shop.example", ...]: where it may act without asking (site rules' spelling),
//   enabled, dueAt: when it runs next (ms), or null when it will not run again }

export const SCHEDULES_KEY = "schedules";
export const ALARM_PREFIX = "schedule:";
export const MAX_SCHEDULES = 50;
export const MIN_EVERY_MINUTES = 1; // Chrome's and Firefox's shortest alarm period (seconds in tests go through the handler)
export const WHAT_KINDS = Object.freeze(["prompt", "tool"]);
export const WHEN_KINDS = Object.freeze(["once", "every", "daily"]);
const ID = /^[A-Za-z0-9_-]{1,100}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const SITE = /^[^\s/?#@\\]{1,253}$/; // a host, perhaps with a scheme and port: site-rules.js reads it
const MAX_TEXT = 20_000;

export class ScheduleError extends Error {}

function fail(what) {
  throw new ScheduleError(what);
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function checkWhat(what) {
  if (!isObject(what) || !WHAT_KINDS.includes(what.kind)) fail("What to run must be a prompt or a tool.");
  if (what.kind === "prompt") {
    if (typeof what.text !== "string" || !what.text.trim()) fail("Write the prompt to run.");
    if (what.text.length > MAX_TEXT) fail(`The prompt is longer than ${MAX_TEXT} characters.`);
    return { kind: "prompt", text: what.text };
  }
  if (typeof what.name !== "string" || !TOOL_NAME.test(what.name)) fail("Name the tool to run (a Python name).");
  if (what.args !== undefined && !isObject(what.args)) fail("The tool's arguments must be a JSON object.");
  const args = what.args ?? {};
  if (JSON.stringify(args).length > MAX_TEXT) fail(`The tool's arguments are longer than ${MAX_TEXT} characters.`);
  return { kind: "tool", name: what.name, args };
}

function checkWhen(when) {
  if (!isObject(when) || !WHEN_KINDS.includes(when.kind)) fail("Say when it runs: once, every so many minutes, or daily.");
  if (when.kind === "once") {
    if (!(Number.isFinite(when.at) && when.at > 0)) fail("Say the date and time it runs.");
    return { kind: "once", at: when.at };
  }
  if (when.kind === "every") {
    if (!(Number.isFinite(when.minutes) && when.minutes >= MIN_EVERY_MINUTES && when.minutes <= 60 * 24 * 366)) {
      fail(`Run it every ${MIN_EVERY_MINUTES} minute or more.`);
    }
    return { kind: "every", minutes: when.minutes };
  }
  if (typeof when.time !== "string" || !TIME.test(when.time)) fail("Say the time of day it runs, as 08:30.");
  return { kind: "daily", time: when.time };
}

function checkUrl(url) {
  if (url === undefined || url === "") return "";
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    fail("The page to open must be a whole address, as https://example.org/.");
  }
  if (!["http:", "https:"].includes(parsed.protocol)) fail("The page to open must be an http or https address.");
  return parsed.href;
}

function checkSites(sites) {
  if (sites === undefined) return [];
  if (!Array.isArray(sites) || sites.length > 50) fail("Its sites must be a list of at most 50.");
  return sites.map((site) => {
    if (typeof site !== "string" || !SITE.test(site.trim())) fail(`“${String(site).slice(0, 60)}” is not a site (write a host, as shop.example).`);
    return site.trim();
  });
}

// The schedule as it may be stored, or a ScheduleError saying in words what is wrong.
export function checkSchedule(schedule) {
  if (!isObject(schedule)) fail("A schedule must be an object.");
  if (typeof schedule.id !== "string" || !ID.test(schedule.id)) fail("A schedule's id must be 1 to 100 letters, digits, - or _.");
  if (typeof schedule.name !== "string" || !schedule.name.trim() || schedule.name.length > 200) fail("Give the schedule a name (up to 200 characters).");
  return {
    id: schedule.id,
    name: schedule.name.trim(),
    what: checkWhat(schedule.what),
    when: checkWhen(schedule.when),
    url: checkUrl(schedule.url),
    sites: checkSites(schedule.sites),
    enabled: schedule.enabled !== false,
  };
}

// The first time after `now` the schedule runs, in ms; null when it will not run again.
export function nextRunAfter(when, now) {
  if (when.kind === "once") return when.at > now ? when.at : null;
  if (when.kind === "every") return now + when.minutes * 60_000;
  const [hours, minutes] = when.time.split(":").map(Number);
  const next = new Date(now);
  next.setHours(hours, minutes, 0, 0);
  if (next.getTime() <= now) next.setDate(next.getDate() + 1);
  return next.getTime();
}

// What the run does: the prompt itself; a saved workflow (`workflows`: their names) replayed
// without the model, as "/name {arguments}" typed in the panel would (turn-records.js; where a
// step no longer fits, the agent takes over); another user tool by name with its arguments,
// through the agent. Either way every action is under the same rules and consent.
export function taskFor(what, workflows = []) {
  if (what.kind === "prompt") return what.text;
  if (workflows.includes(what.name)) return `/${what.name} ${JSON.stringify(what.args ?? {})}`;
  return `Run the tool ${what.name} with these arguments, then answer with what it returned: ${JSON.stringify(what.args)}`;
}

export const alarmName = (id) => `${ALARM_PREFIX}${id}`;
export const scheduleIdOf = (alarm) => (String(alarm).startsWith(ALARM_PREFIX) ? String(alarm).slice(ALARM_PREFIX.length) : null);
