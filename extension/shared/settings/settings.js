// The user's model settings. The API key is kept apart from the rest (its own key, where
// platform/chrome/secrets.js keeps secrets) so that nothing that reads or exports settings carries it along.
// Which settings there are, and their defaults, is declared once, in Python
// (py/tabagent/app/wire.py, mirrored as wire.js); here they are spelled in camelCase.

import { WHY_NO_CODE_SANDBOX } from "../../platform/chrome/code-sandbox.js";
import { readSecrets, writeSecrets } from "../../platform/chrome/secrets.js";
import { SETTINGS } from "../wire.js";
import { t } from "../ui/i18n.js";

export const camelCase = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());

export const PROVIDERS = Object.freeze({
  // Chrome's own model (the Prompt API): on this device, no key, offered where available.
  // Labels in words (not names) are read when shown, in the UI's language.
  builtin: { get label() { return t("providerBuiltin"); }, baseUrl: "", needsKey: false, builtin: true },
  openai: { label: "OpenAI", baseUrl: "https://api.openai.com/v1", needsKey: true },
  openrouter: { label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", needsKey: true },
  groq: { label: "Groq", baseUrl: "https://api.groq.com/openai/v1", needsKey: true },
  ollama: { label: "Ollama", baseUrl: "http://localhost:11434/v1", needsKey: false, local: true },
  lmstudio: { label: "LM Studio", baseUrl: "http://localhost:1234/v1", needsKey: false, local: true },
  llamacpp: { label: "llama.cpp server", baseUrl: "http://localhost:8080/v1", needsKey: false, local: true },
  custom: { get label() { return t("providerCustom"); }, baseUrl: "", needsKey: false },
});

// The agent kinds offered: the CodeAgent only where the browser can sandbox its code.
const AGENT_LABELS = {
  get code() { return t("agentCode"); },
  get tool_calling() { return t("agentToolCalling"); },
};
export const AGENTS = Object.freeze(WHY_NO_CODE_SANDBOX ? { get tool_calling() { return AGENT_LABELS.tool_calling; } } : AGENT_LABELS);
const usableAgent = (agent) => (WHY_NO_CODE_SANDBOX && agent === "code" ? "tool_calling" : agent);

// { provider, baseUrl, model, agent, maxSteps, codeTimeout, idleCloseMinutes, team, ... }
export const DEFAULT_SETTINGS = Object.freeze(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, value]) => [camelCase(name), name === "agent" ? usableAgent(value) : value])),
);

const SETTINGS_KEY = "settings";
const API_KEY = "apiKey";

export async function loadSettings() {
  const [stored, secrets] = await Promise.all([chrome.storage.local.get(SETTINGS_KEY), readSecrets([API_KEY])]);
  const settings = { ...DEFAULT_SETTINGS, ...stored[SETTINGS_KEY] };
  return { settings: { ...settings, agent: usableAgent(settings.agent) }, apiKey: secrets[API_KEY] ?? "" };
}

// Only the service worker writes settings (see MessageType.saveSettings), so the Ollama
// rule always follows the saved base URL.
export async function storeSettings(settings, apiKey) {
  await Promise.all([
    chrome.storage.local.set({ [SETTINGS_KEY]: { ...DEFAULT_SETTINGS, ...settings } }),
    apiKey !== undefined && writeSecrets({ [API_KEY]: apiKey }),
  ]);
}

// What is missing before a turn can run, as one sentence a person can act on; or "".
export function whatIsMissing(settings, apiKey) {
  if (PROVIDERS[settings.provider]?.builtin) return "";
  if (!settings.baseUrl) return t("missingBaseUrl");
  if (!settings.model) return t("missingModel");
  if (PROVIDERS[settings.provider]?.needsKey && !apiKey) return t("missingKey", PROVIDERS[settings.provider].label);
  return "";
}

// What a conversation may set for itself, over the settings (conversation.overrides).
export const CONVERSATION_OVERRIDES = Object.freeze(["systemPrompt", "temperature", "maxOutputTokens"]);

export function withOverrides(settings, overrides) {
  const chosen = Object.entries(overrides ?? {}).filter(([name, value]) => CONVERSATION_OVERRIDES.includes(name) && value !== "" && value != null);
  return { ...settings, ...Object.fromEntries(chosen) };
}

// The settings as they cross to Python: snake_case, as wire.js declares them. Python checks
// the values and puts its defaults in place of missing or unusable ones (wire.py).
export function forPython(settings) {
  return Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, settings[camelCase(name)] ?? null]));
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
