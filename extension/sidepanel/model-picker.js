// The model at hand: provider, model (from the endpoint's list) and agent kind, picked in the
// panel and saved as the settings; and this conversation's own system prompt, temperature
// and longest reply (sent with each of its turns, kept in the conversation).

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { AGENTS, CONVERSATION_OVERRIDES, PROVIDERS, builtinModelAvailability, loadSettings } from "../shared/settings/settings.js";
import { fetchModels } from "../shared/settings/connection.js";
import { t } from "../shared/ui/i18n.js";
import { inOneSpelling } from "../shared/settings/settings-migration.js";
import { loadDeviceModels } from "../shared/on-device/device-models.js";

const $ = (id) => document.getElementById(id);

function fill(select, entries, value) {
  select.replaceChildren(...entries.map(([id, label]) => new Option(label, id)));
  select.value = value;
}

export class ModelPicker {
  constructor({ onError }) {
    this.onError = onError;
    this.provider = $("pick-provider");
    this.model = $("pick-model");
    this.agent = $("pick-agent");
    this.listed = undefined; // the base URL whose model list the picker holds
    this.provider.addEventListener("change", () => this.changeProvider());
    this.model.addEventListener("change", () => this.save({ model: this.model.value }));
    this.agent.addEventListener("change", () => this.save({ agent: this.agent.value }));
    // The endpoint's list is asked for when the user goes to pick, not at every panel start.
    for (const event of ["focus", "pointerdown"]) this.model.addEventListener(event, () => this.loadList());
  }

  async loadList() {
    const { settings, apiKey } = await loadSettings();
    if (this.listed === settings.base_url) return;
    this.listed = settings.base_url;
    await this.listModels(settings, apiKey, { fetch: true });
  }

  async show() {
    const { settings, apiKey } = await loadSettings();
    const builtin = (await builtinModelAvailability()) !== "unavailable";
    const providers = Object.entries(PROVIDERS).filter(([, p]) => builtin || !p.builtin).map(([id, p]) => [id, p.label.split(" (")[0]]);
    fill(this.provider, [["", t("chooseProvider")], ...providers], settings.provider);
    fill(this.agent, Object.entries(AGENTS).map(([id, label]) => [id, label.split(":")[0]]), settings.agent);
    await this.listModels(settings, apiKey, { fetch: this.listed === settings.base_url });
  }

  async listModels(settings, apiKey, { fetch = false } = {}) {
    if (PROVIDERS[settings.provider]?.on_device) return this.listDeviceModels(settings);
    const builtin = Boolean(PROVIDERS[settings.provider]?.builtin);
    this.model.hidden = builtin;
    const current = settings.model ? [settings.model] : [];
    fill(this.model, [...current, ""].map((id) => [id, id || t("chooseModel")]), settings.model);
    if (builtin || !settings.base_url || !fetch) return;
    const { models } = await fetchModels(settings.base_url, apiKey);
    const names = [...new Set([...current, ...models])];
    fill(this.model, [...(settings.model ? [] : [["", t("chooseModel")]]), ...names.map((id) => [id, id])], settings.model);
  }

  // The models kept on this device (settings download them): their names, as text.
  async listDeviceModels(settings) {
    const kept = Object.values(await loadDeviceModels());
    this.model.hidden = false;
    const chosen = kept.some((record) => record.id === settings.model) ? settings.model : kept[0]?.id ?? "";
    fill(this.model, kept.length ? kept.map((record) => [record.id, record.name]) : [["", t("deviceModelsNone")]], chosen);
  }

  async changeProvider() {
    const preset = PROVIDERS[this.provider.value];
    const { settings, apiKey } = await loadSettings();
    const address = preset?.base_url || settings.base_url; // a custom endpoint keeps the address typed in settings
    await this.save({ provider: this.provider.value, base_url: address, model: "" });
    this.listed = address;
    await this.listModels({ ...settings, provider: this.provider.value, base_url: address, model: "" }, apiKey, { fetch: true });
  }

  async save(change) {
    try {
      const { settings } = await loadSettings();
      await askBackground(MessageType.saveSettings, { settings: { ...settings, ...change } });
    } catch (error) {
      this.onError(error.message);
    }
  }
}

// This conversation's overrides: the fields show them, empty means "as in the settings".
export class ConversationSettings {
  constructor() {
    this.fields = Object.fromEntries(CONVERSATION_OVERRIDES.map((name) => [name, $(`conversation-${name}`)]));
  }

  async show(record) {
    const { settings } = await loadSettings();
    for (const [name, field] of Object.entries(this.fields)) {
      field.value = inOneSpelling(record?.overrides)[name] ?? "";
      field.placeholder = settings[name] === "" || settings[name] == null ? t("asInSettingsDefault") : t("asInSettings", settings[name]);
    }
  }

  // What this conversation sets ({} when nothing: the settings apply).
  read() {
    const chosen = Object.entries(this.fields).map(([name, field]) => [name, field.value.trim()]).filter(([, value]) => value !== "");
    return Object.fromEntries(chosen);
  }
}
