// The user's model settings. The API key is kept apart from the rest (its own key, where
// platform/chrome/secrets.js keeps secrets) so that nothing that reads or exports settings carries it along.
// Which settings there are, and their defaults, is declared once, in Python
// (py/tabagent/app/wire.py, mirrored as wire.js), and they are stored and read under those
// names, as they cross to Python (an older stored shape is respelled: settings-migration.js).

import { WHY_NO_CODE_SANDBOX } from "../../platform/chrome/code-sandbox.js";
import { readSecrets, writeSecrets } from "../../platform/chrome/secrets.js";
import { asCurrent, inOneSpelling, readStoredSettings, storedAsCurrent } from "./settings-migration.js";
import { PROVIDERS as PROVIDER_PRESETS, SETTINGS } from "../wire.js";
import { t } from "../ui/i18n.js";

// The providers offered, in order, with their presets (wire.js, from tabagent/providers.py);
// a label in words (not a name) is read when shown, in the UI's language.
const labelled = (preset) => ({ ...preset, get label() { return preset.message ? t(preset.message) : preset.label; } });
export const PROVIDERS = Object.freeze(Object.fromEntries(Object.entries(PROVIDER_PRESETS).map(([id, preset]) => [id, labelled(preset)])));

// The agent kinds offered: the CodeAgent only where the browser can sandbox its code.
const AGENT_LABELS = {
  get code() { return t("agentCode"); },
  get tool_calling() { return t("agentToolCalling"); },
};
export const AGENTS = Object.freeze(WHY_NO_CODE_SANDBOX ? { get tool_calling() { return AGENT_LABELS.tool_calling; } } : AGENT_LABELS);
const usableAgent = (agent) => (WHY_NO_CODE_SANDBOX && agent === "code" ? "tool_calling" : agent);

// Nothing configured (no provider, no endpoint): the first provider, the model on this device.
const FIRST_PROVIDER = Object.keys(PROVIDER_PRESETS)[0];
const withProvider = (settings) => (settings.provider || settings.base_url ? settings : { ...settings, provider: FIRST_PROVIDER });

// { provider, base_url, model, agent, max_steps, code_timeout, idle_close_minutes, team, ... }
export const DEFAULT_SETTINGS = Object.freeze(withProvider({ ...SETTINGS, agent: usableAgent(SETTINGS.agent) }));

const API_KEY = "apiKey";

export async function loadSettings() {
  const [{ stored, version }, secrets] = await Promise.all([readStoredSettings(), readSecrets([API_KEY])]);
  const settings = withProvider({ ...DEFAULT_SETTINGS, ...asCurrent(stored, version) });
  return { settings: { ...settings, agent: usableAgent(settings.agent) }, apiKey: secrets[API_KEY] ?? "" };
}

// Only the service worker writes settings (see MessageType.saveSettings), so the Ollama
// rule always follows the saved base URL.
export async function storeSettings(settings, apiKey) {
  await Promise.all([
    chrome.storage.local.set(storedAsCurrent({ ...DEFAULT_SETTINGS, ...settings })),
    apiKey !== undefined && writeSecrets({ [API_KEY]: apiKey }),
  ]);
}

// What is missing before a turn can run, as one sentence a person can act on; or "".
export function whatIsMissing(settings, apiKey) {
  if (PROVIDERS[settings.provider]?.builtin || PROVIDERS[settings.provider]?.on_device) return ""; // no URL, no key
  if (!settings.base_url) return t("missingBaseUrl");
  if (!settings.model) return t("missingModel");
  if (PROVIDERS[settings.provider]?.needs_key && !apiKey) return t("missingKey", PROVIDERS[settings.provider].label);
  return "";
}

// What a conversation may set for itself, over the settings (conversation.overrides).
export const CONVERSATION_OVERRIDES = Object.freeze(["system_prompt", "temperature", "max_output_tokens"]);

export function withOverrides(settings, overrides) {
  const chosen = Object.entries(inOneSpelling(overrides)).filter(([name, value]) => CONVERSATION_OVERRIDES.includes(name) && value !== "" && value != null);
  return { ...settings, ...Object.fromEntries(chosen) };
}

// The settings as they cross to Python: those wire.js declares, and nothing else. Python checks
// the values and puts its defaults in place of missing or unusable ones (wire.py).
export function forPython(settings) {
  return Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, settings[name] ?? null]));
}

// Whether Chrome's built-in model can run here ("available", "downloadable", ...), or "unavailable".
export async function builtinModelAvailability() {
  if (!globalThis.LanguageModel) return "unavailable";
  try {
    return await globalThis.LanguageModel.availability();
  } catch {
    return "unavailable";
  }
}
