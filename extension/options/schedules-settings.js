// Settings' Schedules section: make, edit, turn off and delete schedules (shared/storage/schedules.js).
// What a schedule may do (the page it opens, the sites where it acts without asking, and that
// anything else stops it as needing you) is written out under the form as it is made or edited,
// and in each schedule of the list. The service worker checks and stores what is saved here.

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { SCHEDULES_KEY } from "../shared/storage/schedules.js";
import { t } from "../shared/ui/i18n.js";
import { h } from "../shared/ui/dom.js";
import { shownWithin } from "../shared/import-checks/unseen-text.js";

const $ = (id) => document.getElementById(id);
let schedules = {};

const lines = (text) => text.split("\n").map((line) => line.trim()).filter(Boolean);

function describeWhen(when) {
  if (when.kind === "once") return t("scheduleWhenOnce", new Date(when.at).toLocaleString());
  if (when.kind === "daily") return t("scheduleWhenDaily", when.time);
  return when.minutes % 60 === 0 ? t("scheduleWhenHours", when.minutes / 60) : t("scheduleWhenMinutes", when.minutes);
}

function describeWhat(what) {
  return what.kind === "prompt" ? t("scheduleRunsPrompt", shownWithin(what.text, 300))
    : t("scheduleRunsTool", what.name, shownWithin(JSON.stringify(what.args), 300));
}

// What a schedule may do, in the user's words.
export function mayDo({ url, sites }) {
  const opens = url ? t("scheduleMayOpen", url) : t("scheduleMayOpenBlank");
  const acts = sites.length ? t("scheduleMayAct", sites.join(", ")) : t("scheduleMayActNowhere");
  return `${opens}\n${acts}\n${t("scheduleMayAsk")}`;
}

function readWhen() {
  const kind = $("schedule-when").value;
  const every = Number($("schedule-every").value);
  if (kind === "once") return { kind, at: new Date($("schedule-at").value).getTime() };
  if (kind === "daily") return { kind, time: $("schedule-time").value };
  return { kind: "every", minutes: kind === "hours" ? every * 60 : every };
}

function readWhat() {
  if ($("schedule-what").value === "prompt") return { kind: "prompt", text: $("schedule-prompt").value };
  let args = {};
  try {
    args = $("schedule-args").value.trim() ? JSON.parse($("schedule-args").value) : {};
  } catch {
    throw new Error(t("scheduleArgsNotJson"));
  }
  return { kind: "tool", name: $("schedule-tool").value.trim(), args };
}

function readForm() {
  return {
    id: $("schedule-id").value || undefined, name: $("schedule-name").value, what: readWhat(), when: readWhen(),
    url: $("schedule-url").value.trim(), sites: lines($("schedule-sites").value), enabled: $("schedule-enabled").checked,
  };
}

function showFields() {
  const what = $("schedule-what").value;
  $("schedule-prompt-fields").hidden = what !== "prompt";
  $("schedule-tool-fields").hidden = what !== "tool";
  const when = $("schedule-when").value;
  $("schedule-at").hidden = when !== "once";
  $("schedule-every").hidden = when !== "minutes" && when !== "hours";
  $("schedule-time").hidden = when !== "daily";
  $("schedule-may").textContent = mayDo({ url: $("schedule-url").value.trim(), sites: lines($("schedule-sites").value) });
}

const localTime = (ms) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

function fillForm(schedule) {
  $("schedule-id").value = schedule?.id ?? "";
  $("schedule-name").value = schedule?.name ?? "";
  $("schedule-what").value = schedule?.what.kind ?? "prompt";
  $("schedule-prompt").value = schedule?.what.text ?? "";
  $("schedule-tool").value = schedule?.what.name ?? "";
  $("schedule-args").value = schedule?.what.kind === "tool" ? JSON.stringify(schedule.what.args) : "";
  const when = schedule?.when ?? { kind: "daily", time: "08:00" };
  const hours = when.kind === "every" && when.minutes % 60 === 0;
  $("schedule-when").value = when.kind === "every" ? (hours ? "hours" : "minutes") : when.kind;
  $("schedule-every").value = when.kind === "every" ? (hours ? when.minutes / 60 : when.minutes) : 60;
  $("schedule-time").value = when.time ?? "08:00";
  $("schedule-at").value = localTime(when.at ?? Date.now() + 3_600_000);
  $("schedule-url").value = schedule?.url ?? "";
  $("schedule-sites").value = (schedule?.sites ?? []).join("\n");
  $("schedule-enabled").checked = schedule?.enabled ?? true;
  showFields();
}

function item(schedule) {
  const next = schedule.enabled && schedule.dueAt ? t("scheduleNext", new Date(schedule.dueAt).toLocaleString()) : t("scheduleOff");
  return h("li", { class: "schedule", "data-id": schedule.id },
    h("strong", {}, shownWithin(schedule.name, 200)),
    h("p", {}, `${describeWhen(schedule.when)} · ${next}`),
    h("p", {}, describeWhat(schedule.what)),
    h("p", { class: "schedule-may" }, mayDo(schedule)),
    h("div", { class: "row" },
      h("button", { type: "button", class: "edit", onclick: () => fillForm(schedule) }, t("scheduleEdit")),
      h("button", { type: "button", class: "delete", onclick: () => remove(schedule.id) }, t("delete"))));
}

async function render() {
  ({ [SCHEDULES_KEY]: schedules = {} } = await chrome.storage.local.get(SCHEDULES_KEY));
  const all = Object.values(schedules).sort((a, b) => a.name.localeCompare(b.name));
  $("schedule-list").replaceChildren(...(all.length ? all.map(item) : [h("li", { class: "hint" }, t("noSchedules"))]));
}

async function remove(scheduleId) {
  await askBackground(MessageType.deleteSchedule, { scheduleId });
  if ($("schedule-id").value === scheduleId) fillForm(null);
  await render();
}

async function submit(event) {
  event.preventDefault();
  const result = $("schedule-result");
  try {
    const { schedule } = await askBackground(MessageType.saveSchedule, { schedule: readForm() });
    result.dataset.ok = "true";
    result.textContent = t("scheduleSaved", schedule.name);
    fillForm(schedule);
  } catch (error) {
    result.dataset.ok = "false";
    result.textContent = error.message;
  }
  await render();
}

export function initSchedules() {
  fillForm(null);
  for (const id of ["schedule-what", "schedule-when", "schedule-url", "schedule-sites"]) {
    for (const kind of ["input", "change"]) $(id).addEventListener(kind, showFields);
  }
  $("schedule-form").addEventListener("submit", submit);
  $("schedule-new").addEventListener("click", () => fillForm(null));
  chrome.storage.onChanged.addListener((changes, area) => area === "local" && changes[SCHEDULES_KEY] && render());
  return render();
}
