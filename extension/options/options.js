// The settings page: provider presets, base URL, key, model, agent kind, and storage.
// Every change is saved at once through the service worker (which also keeps the local
// endpoint's Origin rule in step with the saved base URL).

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { AGENTS, DEFAULT_SETTINGS, PROVIDERS, builtinModelAvailability, loadSettings } from "../shared/settings/settings.js";
import { SETTINGS_LIMITS } from "../shared/wire.js";
import { fetchModels } from "../shared/settings/connection.js";
import { localizePage, t, tn } from "../shared/ui/i18n.js";
import { initMcpSettings } from "./mcp-settings.js";
import { initSchedules } from "./schedules-settings.js";
import { readSiteRules } from "../shared/settings/site-rules.js";
import { DeviceModelsSettings } from "./device-models-settings.js";

const $ = (id) => document.getElementById(id);
localizePage();
const form = $("settings");
// Every setting (wire.js) is the form element of that name in options.html;
// numbers take their bounds from wire.js too. Two have widgets of their own: the team (JSON)
// and the checkboxes.
const FIELDS = Object.keys(DEFAULT_SETTINGS).filter((name) => name !== "team" && typeof DEFAULT_SETTINGS[name] !== "boolean");
const CHECKBOXES = Object.keys(DEFAULT_SETTINGS).filter((name) => typeof DEFAULT_SETTINGS[name] === "boolean");
const BOUNDS = SETTINGS_LIMITS;

function setBounds() {
  for (const [name, [lowest, highest]] of Object.entries(BOUNDS)) Object.assign(form.elements[name], { min: lowest, max: highest });
}

// A number as typed; empty or unreadable is the default (null: the endpoint's, kept as "").
function numberIn(name, text) {
  if (DEFAULT_SETTINGS[name] === null) return text;
  return text === "" || !Number.isFinite(Number(text)) ? DEFAULT_SETTINGS[name] : Number(text);
}

function fillChoices(builtinAvailable) {
  $("provider").append(new Option(t("choose"), ""));
  for (const [id, provider] of Object.entries(PROVIDERS)) {
    if (provider.builtin && !builtinAvailable) continue; // offered only where Chrome has it
    $("provider").append(new Option(provider.label, id));
  }
  for (const [id, label] of Object.entries(AGENTS)) $("agent").append(new Option(label, id));
  for (const [id, key] of [["auto", "modelSeesImagesAuto"], ["yes", "modelSeesImagesYes"], ["no", "modelSeesImagesNo"]]) {
    $("model_sees_images").append(new Option(t(key), id));
  }
  for (const [id, key] of [["auto", "toolSetAuto"], ["full", "toolSetFull"], ["compact", "toolSetCompact"]]) {
    $("tool_set").append(new Option(t(key), id));
  }
  for (const [id, key] of [["every_reply", "holdRepliesEveryReply"], ["after_misreads", "holdRepliesAfterMisreads"],
    ["never", "holdRepliesNever"]]) {
    $("hold_replies").append(new Option(t(key), id));
  }
}

// The team field is JSON; a team that does not parse is reported and not saved.
class TeamError extends Error {}

function readTeam() {
  const text = $("team").value.trim();
  if (!text) return [];
  const team = JSON.parse(text);
  if (!Array.isArray(team) || !team.every((member) => member?.name && member?.description)) {
    throw new TeamError(t("teamShape"));
  }
  return team;
}

function readForm() {
  const value = (name) => form.elements[name].value.trim();
  const settings = Object.fromEntries(FIELDS.map((name) => [name, name in BOUNDS ? numberIn(name, value(name)) : value(name)]));
  for (const name of CHECKBOXES) settings[name] = form.elements[name].checked;
  settings.team = readTeam();
  return settings;
}

let saving = Promise.resolve();
function save() {
  // One save at a time, in order; a failed save is reported and does not block the next.
  saving = saving.then(async () => {
    $("team-error").textContent = "";
    try {
      await askBackground(MessageType.saveSettings, { settings: readForm(), apiKey: $("apiKey").value.trim() });
      $("saved").textContent = t("savedAt", new Date().toLocaleTimeString());
    } catch (error) {
      const target = error instanceof SyntaxError || error instanceof TeamError ? $("team-error") : $("saved");
      target.textContent = t("notSaved", error.message);
    }
  });
  return saving;
}

function show(output, { ok, message }) {
  output.dataset.ok = String(ok);
  output.textContent = message;
}

// How each line of the site rules was read, under them: what a rule covers is what it says.
const RULE_WORDS = { allow: "siteRuleAllow", never: "siteRuleNever", ask: "siteRuleAsk" };

function reading({ line, rule }) {
  if (!rule) return t("siteRuleNotRead", line);
  const what = t(RULE_WORDS[rule.rule]);
  if (!rule.scheme) return rule.port === null ? t("siteRuleHost", rule.host, what) : t("siteRuleHostPort", rule.host, rule.port, what);
  if (!rule.subdomains) return t("siteRuleOrigin", `${rule.scheme}://${rule.host}:${rule.port}`, what);
  return t("siteRuleOriginSubdomains", rule.host, rule.scheme, rule.port, what);
}

function showSiteRules() {
  const lines = readSiteRules($("site_rules").value);
  $("site-rules-read").replaceChildren(...lines.map((read) => {
    const item = document.createElement("li");
    item.textContent = reading(read);
    item.dataset.read = String(Boolean(read.rule));
    return item;
  }));
}

async function loadModels() {
  const result = await fetchModels($("base_url").value.trim(), $("apiKey").value.trim());
  $("models").replaceChildren(...result.models.map((id) => new Option(id, id)));
  if (!$("model").value && result.models.length) {
    $("model").value = result.models[0];
    await save();
  }
  return result;
}

async function describeBuiltin() {
  const availability = await builtinModelAvailability();
  const messages = {
    available: t("builtinAvailable"),
    downloadable: t("builtinDownloadable"),
    downloading: t("builtinDownloading"),
  };
  return { ok: availability !== "unavailable", message: messages[availability] ?? t("builtinUnavailable") };
}

async function showStorageSize() {
  const bytes = await chrome.storage.local.getBytesInUse(null);
  $("storage-size").textContent = bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

// The on-device models: the one in use is the `model` setting.
const deviceModels = new DeviceModelsSettings({
  chosen: () => form.elements.model.value,
  choose: async (id) => {
    form.elements.model.value = id;
    await save();
  },
});

// The fields a provider does not use are hidden (the built-in model and the on-device one have
// no URL, key or model name); the on-device models show for their provider.
function showFieldsFor(provider) {
  const { builtin, on_device: onDevice } = PROVIDERS[provider] ?? {};
  $("endpoint-fields").hidden = Boolean(builtin || onDevice);
  $("device-models").hidden = !onDevice;
  if (onDevice) deviceModels.show();
}

async function init() {
  const builtinAvailable = (await builtinModelAvailability()) !== "unavailable";
  fillChoices(builtinAvailable);
  setBounds();
  const { settings, apiKey } = await loadSettings(); // nothing configured: the model on this device
  for (const name of FIELDS) form.elements[name].value = settings[name] ?? "";
  for (const name of CHECKBOXES) form.elements[name].checked = Boolean(settings[name]);
  showFieldsFor(settings.provider);
  $("team").value = settings.team?.length ? JSON.stringify(settings.team, null, 2) : "";
  $("apiKey").value = apiKey;
  showStorageSize();
  showSiteRules();
  $("site_rules").addEventListener("input", showSiteRules);

  deviceModels.listen();
  $("provider").addEventListener("change", () => {
    const preset = PROVIDERS[$("provider").value];
    if (preset?.base_url) $("base_url").value = preset.base_url;
    showFieldsFor($("provider").value);
    save();
  });
  form.addEventListener("change", (event) => event.target.id !== "provider" && save());
  form.addEventListener("submit", (event) => event.preventDefault());
  $("toggle-key").addEventListener("click", (event) => {
    const showing = $("apiKey").type === "text";
    $("apiKey").type = showing ? "password" : "text";
    event.currentTarget.textContent = showing ? t("show") : t("hide");
    event.currentTarget.setAttribute("aria-pressed", String(!showing));
  });
  $("load-models").addEventListener("click", async () => show($("connection-result"), await loadModels()));
  $("test-connection").addEventListener("click", async () => {
    $("connection-result").textContent = t("testing");
    await save();
    if (PROVIDERS[$("provider").value]?.builtin) return show($("connection-result"), await describeBuiltin());
    if (PROVIDERS[$("provider").value]?.on_device) return show($("connection-result"), await deviceModels.describe());
    show($("connection-result"), await loadModels());
  });
  $("delete-older").addEventListener("click", async () => {
    const { deleted } = await askBackground(MessageType.deleteOlderThan, { days: Number($("older-than").value) });
    show($("delete-result"), { ok: true, message: tn("deleted", deleted) });
    showStorageSize();
  });
}

init();
initMcpSettings();
initSchedules();
