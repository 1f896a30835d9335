// The user's model settings. The API key is kept apart from the rest (its own key in
// chrome.storage.local) so that nothing that reads or exports settings carries it along.

export const PROVIDERS = Object.freeze({
  // Chrome's own model (the Prompt API): on this device, no key, offered where available.
  builtin: { label: "Chrome built-in model (on this device, no key)", baseUrl: "", needsKey: false, builtin: true },
  openai: { label: "OpenAI", baseUrl: "https://api.openai.com/v1", needsKey: true },
  openrouter: { label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", needsKey: true },
  groq: { label: "Groq", baseUrl: "https://api.groq.com/openai/v1", needsKey: true },
  ollama: { label: "Ollama", baseUrl: "http://localhost:11434/v1", needsKey: false, local: true },
  lmstudio: { label: "LM Studio", baseUrl: "http://localhost:1234/v1", needsKey: false, local: true },
  llamacpp: { label: "llama.cpp server", baseUrl: "http://localhost:8080/v1", needsKey: false, local: true },
  custom: { label: "Custom (OpenAI-compatible)", baseUrl: "", needsKey: false },
});

export const AGENTS = Object.freeze({
  code: "CodeAgent: writes Python (works with most models)",
  tool_calling: "ToolCallingAgent: uses the model's tool calls",
});

export const DEFAULT_SETTINGS = Object.freeze({
  provider: "",
  baseUrl: "",
  model: "",
  agent: "code",
  maxSteps: 10,
  codeTimeout: 30, // seconds one step's code may run in the sandbox
  idleCloseMinutes: 10, // Python (the offscreen document) closes after this long unused
  // Tokens one request may hold, used when the endpoint and the model's name do not say.
  contextWindow: 8192,
  // Managed agents the main agent can delegate to: [{ name, description, agent, max_steps, team }].
  team: [],
  showSteps: false, // keep a turn's steps open after it finished (the panel folds them)
  // Added to the agent's own instructions, never replacing them; "" for none.
  systemPrompt: "",
  temperature: "", // "" leaves the endpoint's default
  maxOutputTokens: "", // "" leaves the endpoint's default
  // The user's own prompts, "name: prompt" per line, with {{selection}} and {{page}} slots
  // (shared/quick-actions.js): in the context menu and as /name in the composer.
  customPrompts: "",
});

const SETTINGS_KEY = "settings";
const API_KEY = "apiKey";

export async function loadSettings() {
  const stored = await chrome.storage.local.get([SETTINGS_KEY, API_KEY]);
  return { settings: { ...DEFAULT_SETTINGS, ...stored[SETTINGS_KEY] }, apiKey: stored[API_KEY] ?? "" };
}

// Only the service worker writes settings (see MessageType.saveSettings), so the Ollama
// rule always follows the saved base URL.
export async function storeSettings(settings, apiKey) {
  const values = { [SETTINGS_KEY]: { ...DEFAULT_SETTINGS, ...settings } };
  if (apiKey !== undefined) values[API_KEY] = apiKey;
  await chrome.storage.local.set(values);
}

// What is missing before a turn can run, as one sentence a person can act on; or "".
export function whatIsMissing(settings, apiKey) {
  if (PROVIDERS[settings.provider]?.builtin) return "";
  if (!settings.baseUrl) return "Choose a model to talk to in TabAgent's settings.";
  if (!settings.model) return "Choose a model name in TabAgent's settings.";
  if (PROVIDERS[settings.provider]?.needsKey && !apiKey) {
    return `Add your ${PROVIDERS[settings.provider].label} API key in TabAgent's settings.`;
  }
  return "";
}

// What a conversation may set for itself, over the settings (conversation.overrides).
export const CONVERSATION_OVERRIDES = Object.freeze(["systemPrompt", "temperature", "maxOutputTokens"]);

export function withOverrides(settings, overrides) {
  const chosen = Object.entries(overrides ?? {}).filter(([name, value]) => CONVERSATION_OVERRIDES.includes(name) && value !== "" && value != null);
  return { ...settings, ...Object.fromEntries(chosen) };
}

// The settings as the Python agent reads them (py/tabagent/app/turns.py, through json_entry_points.py).
export function forPython(settings) {
  return {
    provider: settings.provider,
    base_url: settings.baseUrl,
    model: settings.model,
    agent: settings.agent,
    max_steps: Number(settings.maxSteps) || 10,
    code_timeout: Number(settings.codeTimeout) || 30,
    context_window: Number(settings.contextWindow) || 8192,
    team: Array.isArray(settings.team) ? settings.team : [],
    system_prompt: String(settings.systemPrompt ?? ""),
    temperature: settings.temperature === "" || settings.temperature == null ? null : Number(settings.temperature),
    max_output_tokens: Number(settings.maxOutputTokens) || null,
  };
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
