// The on-device model as the bridge Python's OnDeviceHost expects (py/tabagent/app/on_device_model.py),
// lent to one turn for the model the user chose (its record, sent by the service worker):
// - complete(requestId, bodyJson): the reply as server-sent events, a ReadableStream of text
//   (what llama.cpp's server sends), loading the model first if it is not loaded;
// - window(): the context window the model is loaded with;
// - abort(requestId).
// The file is read as weights only: from the extension's OPFS, or (a model `make run` serves)
// from an address on this machine; either way it must be a GGUF file (gguf-header.js).

import { modelFile } from "../../shared/on-device/model-files.js";
import { looksLikeGguf } from "../../shared/on-device/gguf-header.js";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const requests = new Map(); // request id -> AbortController

// The record's file, as a Blob, checked to be a GGUF file.
async function readModel(record) {
  const file = record.stored ? await modelFile(record.id) : await servedHere(record.url);
  if (!file) throw new Error(`the file of ${record.name || record.id} is not in the extension's storage any more: download it again in settings.`);
  if (!looksLikeGguf(new Uint8Array(await file.slice(0, 8).arrayBuffer()))) {
    throw new Error(`${record.name || record.id} is not a GGUF model file: it was not loaded.`);
  }
  return file;
}

async function servedHere(address) {
  const url = new URL(address);
  if (!LOCAL_HOSTS.has(url.hostname) || !/^https?:$/.test(url.protocol)) throw new Error("a model that is not stored is read only from this machine");
  const response = await fetch(url, { credentials: "omit", redirect: "error", cache: "no-store" });
  if (!response.ok) throw new Error(`the model server on this machine answered ${response.status} for ${url.pathname}`);
  return response.blob();
}

function events(chunks, requestId) {
  const encode = (value) => `data: ${JSON.stringify(value)}\n\n`;
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) {
          controller.enqueue("data: [DONE]\n\n");
          controller.close();
          requests.delete(requestId);
        } else {
          controller.enqueue(encode(value));
        }
      } catch (error) {
        requests.delete(requestId);
        controller.error(error);
      }
    },
    cancel() {
      requests.get(requestId)?.abort();
      requests.delete(requestId);
      iterator.return?.();
    },
  });
}

export function deviceModel(runner, record) {
  const ready = () => {
    if (!record) throw new Error("no on-device model is chosen: pick or download one in TabAgent's settings.");
    return runner.ready(record, () => readModel(record));
  };
  return {
    async complete(requestId, bodyJson) {
      await ready();
      const controller = new AbortController();
      requests.set(requestId, controller);
      return events(runner.complete(JSON.parse(bodyJson), controller.signal), requestId);
    },
    async window() {
      return (await ready()).window;
    },
    abort(requestId) {
      requests.get(requestId)?.abort();
      requests.delete(requestId);
    },
  };
}
