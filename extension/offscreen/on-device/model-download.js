// Downloading a model the user asked for (settings: a model of the short list, or a GGUF by
// its address), into the extension's OPFS (model-files.js). Only the service worker asks for
// one, and only on a person's click on the settings page: nothing here starts by itself.
// - Progress is told as it comes (Broadcast.deviceModelDownload), a few times a second.
// - A break (the network, the browser) keeps what arrived: the download goes on from there with
//   an HTTP Range request, by itself a few times, then when the user clicks Download again.
// - It is checked: the first bytes must be a GGUF file's (else it stops at once and nothing is
//   kept), the length the server's own (and the expected size, where known), the SHA-256 where
//   one is given, and its header readable (gguf-header.js). A file that fails is deleted.
// - A redirect is followed only to the address's own site, or to the download hosts of the
//   model host (Hugging Face's), or when a SHA-256 checks the bytes anyway: an address does not
//   get to hand the download to anyone else. No cookies are sent.

import { fileHandle, removeModelFile, storedBytes } from "../../shared/on-device/model-files.js";
import { looksLikeGguf, readHeader } from "../../shared/on-device/gguf-header.js";

const RETRIES = 3;
const PROGRESS_MS = 250;
const HASH_SLICE = 16 << 20;
// Where Hugging Face hands its files' bytes out from (its resolve/ addresses redirect there).
const MODEL_HOST_DOWNLOADS = [/(^|\.)huggingface\.co$/, /(^|\.)hf\.co$/];

class Refused extends Error {} // not worth trying again: the file is deleted

const siteOf = (hostname) => hostname.split(".").slice(-2).join(".");

export function redirectAllowed(from, to, checkedByHash) {
  const [a, b] = [new URL(from), new URL(to)];
  if (a.origin === b.origin || checkedByHash) return true;
  if (a.protocol !== "https:" || b.protocol !== "https:") return false;
  if (siteOf(a.hostname) === siteOf(b.hostname) && !/^\d+$/.test(a.hostname.split(".").at(-1))) return true;
  return MODEL_HOST_DOWNLOADS.some((host) => host.test(a.hostname)) && MODEL_HOST_DOWNLOADS.some((host) => host.test(b.hostname));
}

// hash-wasm (216 KB) is imported when a download is first checked, not at every start of the
// offscreen document (tests/unit/test_offscreen_start_graph.py).
async function hashWasm() {
  try {
    return await import("../../vendor/hash-wasm/hash-wasm.mjs");
  } catch (error) {
    throw new Error(`the SHA-256 check's code (hash-wasm) could not be loaded: ${error?.message ?? error}`);
  }
}

// The file's SHA-256, read back a slice at a time: never more than one slice in memory.
async function sha256Of(file) {
  const hash = await (await hashWasm()).createSHA256();
  hash.init();
  for (let at = 0; at < file.size; at += HASH_SLICE) hash.update(new Uint8Array(await file.slice(at, at + HASH_SLICE).arrayBuffer()));
  return hash.digest("hex");
}

export class ModelDownloads {
  constructor(tell, busy) {
    this.tell = tell; // (progress) -> void: { id, status, received, total, error?, record? }
    this.busy = busy; // { turnStarted, turnEnded }: Python's page stays while a download runs
    this.running = new Map(); // id -> { controller, progress }
  }

  list() {
    return [...this.running.values()].map((download) => download.progress);
  }

  start(request) {
    if (this.running.has(request.id)) return { started: false, already: true };
    const url = new URL(request.url);
    if (!/^https?:$/.test(url.protocol)) throw new Error("a model is downloaded only from an http or https address");
    const download = { request, controller: new AbortController(), progress: { id: request.id, status: "downloading", received: 0, total: request.size || 0 } };
    this.running.set(request.id, download);
    this.busy.turnStarted();
    this.#run(download).finally(() => {
      this.running.delete(request.id);
      this.busy.turnEnded();
    });
    return { started: true };
  }

  stop(id) {
    this.running.get(id)?.controller.abort();
    return { stopped: this.running.has(id) };
  }

  #report(download, change, now = false) {
    Object.assign(download.progress, change);
    if (!now && performance.now() - (download.toldAt ?? 0) < PROGRESS_MS) return;
    download.toldAt = performance.now();
    this.tell({ ...download.progress });
  }

  async #run(download) {
    const { request } = download;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#fetchRest(download);
        break;
      } catch (error) {
        if (error instanceof Refused) return this.#fail(download, error.message);
        if (download.controller.signal.aborted) return this.#report(download, { status: "paused", error: "stopped" }, true);
        if (attempt >= RETRIES) return this.#report(download, { status: "paused", error: `the download broke off (${error.message}): Download again goes on from where it stopped.` }, true);
        this.#report(download, { status: "resuming", error: error.message }, true);
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
    try {
      this.#report(download, { status: "checking" }, true);
      const record = await this.#checked(request);
      this.#report(download, { status: "done", record, error: undefined }, true);
    } catch (error) {
      this.#fail(download, error.message);
    }
  }

  async #fail(download, message) {
    await removeModelFile(download.request.id).catch(() => {});
    this.#report(download, { status: "failed", error: message }, true);
  }

  async #fetchRest(download) {
    const { request, controller } = download;
    let have = await storedBytes(request.id);
    if (request.size && have >= request.size) return; // all there: only the checks are left
    const response = await fetch(request.url, {
      headers: have ? { range: `bytes=${have}-` } : {},
      credentials: "omit", cache: "no-store", redirect: "follow", signal: controller.signal,
    });
    if (response.redirected && !redirectAllowed(request.url, response.url, Boolean(request.sha256))) {
      controller.abort();
      throw new Refused(`${new URL(request.url).host} sent the download on to ${new URL(response.url).host}, another site: it was not followed. If you trust that address, add it yourself (with its SHA-256 if you have it).`);
    }
    if (response.status >= 400) throw new (response.status < 500 ? Refused : Error)(`the server answered ${response.status} for ${request.url}`);
    const resumed = response.status === 206 && Number(/bytes (\d+)-/.exec(response.headers.get("content-range") ?? "")?.[1]) === have;
    if (!resumed) have = 0; // the server sends the whole file: start again
    const total = resumed ? Number(/\/(\d+)$/.exec(response.headers.get("content-range"))?.[1]) || 0 : Number(response.headers.get("content-length")) || 0;
    if (request.size && total && total !== request.size) throw new Refused(`the file at that address is ${total.toLocaleString("en")} bytes, not the ${request.size.toLocaleString("en")} expected: it was not kept.`);
    this.#report(download, { status: "downloading", received: have, total: total || request.size || 0 }, true);
    await this.#write(download, response.body, have);
    if (total && (await storedBytes(request.id)) < total) throw new Error("the connection closed before the end of the file");
  }

  async #write(download, body, have) {
    const writable = await (await fileHandle(download.request.id, { create: true })).createWritable({ keepExistingData: have > 0 });
    let received = have;
    let head = have > 0 ? null : new Uint8Array(0); // the first bytes, until they show a GGUF file
    try {
      if (have > 0) await writable.seek(have);
      else await writable.truncate(0);
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (head) {
          head = new Uint8Array([...head, ...value.subarray(0, 8)]);
          if (head.length >= 8 && !looksLikeGguf(head)) throw new Refused("the file at that address is not a GGUF model file (it does not begin with GGUF): nothing was kept.");
          if (head.length >= 8) head = null;
        }
        await writable.write(value);
        received += value.byteLength;
        this.#report(download, { received });
      }
    } finally {
      await writable.close().catch(() => {}); // what arrived is kept for the next try (a refusal deletes it)
    }
  }

  async #checked(request) {
    const handle = await fileHandle(request.id);
    const file = await handle.getFile();
    if (request.size && file.size !== request.size) throw new Error(`the file is ${file.size.toLocaleString("en")} bytes, not the ${request.size.toLocaleString("en")} expected: it was deleted.`);
    const expected = String(request.sha256 ?? "").toLowerCase();
    const found = expected ? await sha256Of(file) : "";
    if (found !== expected) {
      throw new Error(`the file from ${new URL(request.url).host} is not the one expected: its SHA-256 is ${found}, not ${expected} `
        + "(a damaged or different file). It was deleted, and your other models and settings are as they were: Download again fetches it anew.");
    }
    const header = await readHeader(file);
    return { id: request.id, name: request.name || header.name || request.id, size: file.size, sha256: request.sha256 || "", url: request.url,
      stored: true, window: header.window, architecture: header.architecture, added: Date.now() };
  }
}
