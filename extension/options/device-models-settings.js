// Settings, "Models on this device": the models the user keeps (size, Use, Delete), the short
// list (each with its size on its Download button: nothing is fetched before that click), a GGUF
// by its address (with its SHA-256 if the user has it), a file from disk (copied into the
// extension's storage, checked to be a GGUF first). A download's progress comes from the Python
// page as broadcasts. Every name shown is text (textContent), whatever a file or address says.

import { Broadcast, MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { SHORT_LIST, loadDeviceModels, newModelId, sizeInWords } from "../shared/on-device/device-models.js";
import { copyIn, removeModelFile } from "../shared/on-device/model-files.js";
import { readHeader } from "../shared/on-device/gguf-header.js";
import { t } from "../shared/ui/i18n.js";

const $ = (id) => document.getElementById(id);
const progress = new Map(); // id -> the last progress heard

function item(...children) {
  const li = document.createElement("li");
  li.append(...children);
  return li;
}

function text(words, className = "") {
  const span = document.createElement("span");
  span.textContent = words;
  if (className) span.className = className;
  return span;
}

function button(words, onClick, disabled = false) {
  const b = document.createElement("button");
  Object.assign(b, { type: "button", textContent: words, disabled });
  b.addEventListener("click", onClick);
  return b;
}

function progressText(id) {
  const p = progress.get(id);
  if (!p || p.status === "done") return "";
  if (p.status === "failed" || p.status === "paused") return p.error ?? p.status;
  const share = p.total ? ` ${Math.floor((100 * p.received) / p.total)} %` : "";
  return `${p.status}${share} (${sizeInWords(p.received)})`;
}

export class DeviceModelsSettings {
  constructor({ chosen, choose }) {
    this.chosen = chosen; // () -> the model id in the settings
    this.choose = choose; // (id) -> saves it as the model
  }

  async show() {
    const kept = await loadDeviceModels();
    const chosen = this.chosen() || Object.keys(kept)[0];
    $("device-models-kept").replaceChildren(...(Object.keys(kept).length ? Object.values(kept).map((record) => item(
      text(record.name, "name"),
      text(` ${sizeInWords(record.size)}${record.window ? ` · ${t("deviceModelWindow", record.window.toLocaleString())}` : ""}${record.stored ? "" : ` · ${t("deviceModelServedHere")}`} `, "size"),
      record.id === chosen ? text(t("deviceModelInUse"), "in-use") : button(t("deviceModelUse"), () => this.#use(record.id)),
      button(t("deviceModelDelete"), () => this.#delete(record.id)),
    )) : [item(text(t("deviceModelsNone")))]));
    $("device-models-offered").replaceChildren(...SHORT_LIST.filter((model) => !kept[model.id]).map((model) => item(
      text(model.name, "name"),
      progress.has(model.id) && !["failed", "done"].includes(progress.get(model.id).status)
        ? button(t("deviceModelStop"), () => askBackground(MessageType.stopDeviceModelDownload, { id: model.id }))
        : button(t("deviceModelDownload", sizeInWords(model.size)), () => this.#download(model)),
      text(progressText(model.id), "progress"),
    )));
  }

  // Test connection, for the model on this device: which one a turn will load, or that there is none.
  async describe() {
    const kept = await loadDeviceModels();
    const record = kept[this.chosen()] ?? Object.values(kept)[0];
    return record ? { ok: true, message: t("deviceModelReady", record.name) } : { ok: false, message: t("missingDeviceModel") };
  }

  async #use(id) {
    await this.choose(id);
    this.show();
  }

  async #delete(id) {
    await askBackground(MessageType.deleteDeviceModel, { id });
    this.show();
  }

  async #download({ id, name, url, sha256 = "", size = 0 }) {
    progress.set(id, { id, status: "downloading", received: 0, total: size });
    this.show();
    try {
      await askBackground(MessageType.downloadDeviceModel, { request: { id, name, url, sha256, size } });
    } catch (error) {
      progress.set(id, { id, status: "failed", error: error.message });
      this.show();
    }
  }

  async #fromAddress() {
    const url = $("device-model-url").value.trim();
    if (!url) return;
    const kept = await loadDeviceModels();
    const name = decodeURIComponent(new URL(url).pathname.split("/").at(-1) || "model");
    const id = newModelId(name, { ...kept, ...Object.fromEntries(SHORT_LIST.map((m) => [m.id, m])) });
    this.#download({ id, name, url, sha256: $("device-model-sha256").value.trim() });
  }

  async #fromDisk(file) {
    const result = $("device-model-result");
    try {
      const header = await readHeader(file); // refused before anything is copied when it is not a GGUF
      const id = newModelId(file.name, await loadDeviceModels());
      await copyIn(id, file, (done, all) => (result.textContent = `${Math.floor((100 * done) / all)} %`));
      const record = { id, name: header.name || file.name, size: file.size, stored: true, window: header.window, architecture: header.architecture, added: Date.now() };
      await askBackground(MessageType.addDeviceModel, { record }).catch(async (error) => {
        await removeModelFile(id);
        throw error;
      });
      result.textContent = "";
    } catch (error) {
      result.textContent = error.message;
    }
    this.show();
  }

  listen() {
    chrome.runtime.onMessage.addListener((message) => {
      if (message?.type !== Broadcast.deviceModelDownload) return;
      progress.set(message.id, message);
      if (message.status === "failed" || message.status === "paused") $("device-model-result").textContent = message.error ?? "";
      // The service worker keeps the record as it hears "done": the list is read again after it.
      setTimeout(() => this.show(), message.status === "done" ? 300 : 0);
    });
    $("device-model-add-url").addEventListener("click", () => this.#fromAddress().catch((error) => ($("device-model-result").textContent = error.message)));
    $("device-model-file").addEventListener("change", (event) => event.target.files[0] && this.#fromDisk(event.target.files[0]));
    askBackground(MessageType.deviceModelStatus, {}).then(({ downloads }) => {
      for (const download of downloads ?? []) progress.set(download.id, download);
      this.show();
    }, () => {});
  }
}
