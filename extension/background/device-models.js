// The service worker's side of the on-device models (shared/on-device/device-models.js): it keeps
// their records in storage.local (the Python page cannot reach storage in Chrome), hands the
// chosen one to each turn, and relays what the settings page asks (a download the user clicked,
// Delete) to the Python page, which holds the files and the loaded model.

import { DEVICE_MODELS, loadDeviceModels, pinnedRequest } from "../shared/on-device/device-models.js";
import { checkedId } from "../shared/on-device/model-files.js";
import { MessageType } from "../shared/protocol/messages.js";
import { PROVIDERS } from "../shared/settings/settings.js";
import { askOffscreen, askOffscreenIfRunning } from "./offscreen-document.js";
import { keepBackgroundWhile } from "../platform/chrome/background-lifetime.js";

// Downloads and the loaded model live in the Python page: when it is not running, none runs and
// none is loaded, and the settings page asking as it opens must not start it (Python only when
// asked for: it is 150 MB and more at rest).
const NOT_RUNNING = { downloads: [], runner: { loaded: null, lastLoaded: null, loads: 0, replies: 0 } };
const status = async () => (await askOffscreenIfRunning({ type: MessageType.deviceModelStatus })) ?? NOT_RUNNING;

// Firefox stops an idle event page (and the Python page in it) even mid-fetch: it is kept while
// a download runs, as while a turn does (Chrome's offscreen document outlives this worker).
const downloading = async () => ((await status()).downloads ?? [])
  .some((download) => !["done", "failed", "paused"].includes(download.status));

const RECORD_FIELDS = ["id", "name", "size", "sha256", "url", "stored", "window", "architecture", "added"];

function cleanRecord(record) {
  const clean = Object.fromEntries(RECORD_FIELDS.filter((name) => record?.[name] != null).map((name) => [name, record[name]]));
  return { ...clean, id: checkedId(clean.id), name: String(clean.name ?? clean.id).slice(0, 200), size: Number(clean.size) || 0,
    window: Number(clean.window) || 0, stored: clean.stored !== false };
}

async function keep(record) {
  const records = await loadDeviceModels();
  await chrome.storage.local.set({ [DEVICE_MODELS]: { ...records, [record.id]: record } });
  return record;
}

// The record of the on-device model a turn uses: the one the settings name, else the first kept.
export async function chosenDeviceModel(settings) {
  if (!PROVIDERS[settings.provider]?.on_device) return null;
  const records = await loadDeviceModels();
  return records[settings.model] ?? Object.values(records)[0] ?? null;
}

export const deviceModelHandlers = {
  [MessageType.downloadDeviceModel]: async ({ request }) => {
    const started = await askOffscreen({ type: MessageType.downloadDeviceModel, request: pinnedRequest(
      { ...cleanRecord(request), size: Number(request?.size) || 0, sha256: String(request?.sha256 ?? ""), url: String(request?.url ?? "") }) });
    keepBackgroundWhile(downloading);
    return started;
  },
  [MessageType.stopDeviceModelDownload]: ({ id }) => askOffscreen({ type: MessageType.stopDeviceModelDownload, id: checkedId(id) }),
  [MessageType.deviceModelStatus]: () => status(),
  [MessageType.addDeviceModel]: async ({ record }) => ({ record: await keep(cleanRecord({ ...record, stored: true })) }),
  [MessageType.deleteDeviceModel]: async ({ id }) => {
    const { [checkedId(id)]: gone, ...rest } = await loadDeviceModels();
    await chrome.storage.local.set({ [DEVICE_MODELS]: rest });
    if (gone?.stored !== false) await askOffscreen({ type: MessageType.deleteDeviceModel, id });
    return { deleted: Boolean(gone) };
  },
};

// The Python page's word that a download is done and checked: its record is kept.
export async function downloadProgress(message) {
  if (message.status === "done" && message.record) await keep(cleanRecord(message.record));
}
