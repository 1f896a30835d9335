// The on-device model, loaded: llama.cpp in WebAssembly (wllama, vendored by the build:
// scripts/vendor_wllama.py), in workers of its own. One model is loaded at a time; it is
// loaded when a turn first needs it and unloaded after UNLOAD_AFTER_MS with no reply running
// (its memory, the file's size and more, goes back to the browser), and loaded again by the
// next message. Threads: every core the browser reports where the page is cross-origin isolated
// (Chrome, by the manifest's COOP/COEP: pthreads need SharedArrayBuffer), else one (Firefox).
// WebGPU is used only where the browser offers a real adapter (not a software fallback).

const WASM = new URL("../../vendor/wllama/wllama.wasm", import.meta.url).href;
export const LARGEST_WINDOW = 8192; // tokens: what one model's KV cache may take, whatever the file allows
const FALLBACK_WINDOW = 4096; // a file that does not say its window
// wllama's own log: its errors reach the turn as the reply's error, in words; here only a warning.
const QUIET = { debug() {}, log() {}, warn() {}, error: (...args) => console.warn("TabAgent on-device model:", ...args) };

export function threadsHere() {
  return globalThis.crossOriginIsolated ? Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 8)) : 1;
}

// wllama (276 KB) is imported when a model is first loaded, not at every start of the offscreen
// document: most users never run a model here (tests/unit/test_offscreen_start_graph.py).
async function wllamaClass() {
  try {
    return (await import("../../vendor/wllama/index.js")).Wllama;
  } catch (error) {
    throw new Error(`the on-device model's runtime (wllama) could not be loaded: ${error?.message ?? error}`);
  }
}

async function realGpu() {
  try {
    const adapter = await navigator.gpu?.requestAdapter();
    return Boolean(adapter) && !adapter.info?.isFallbackAdapter && !adapter.isFallbackAdapter;
  } catch {
    return false;
  }
}

export class ModelRunner {
  constructor({ unloadAfterMs = 5 * 60_000 } = {}) {
    this.unloadAfterMs = unloadAfterMs;
    this.wllama = null;
    this.loaded = null; // { id, window, threads, gpu, loadMs }
    this.loading = null;
    this.replies = 0;
    this.timer = null;
    this.lastUsed = Date.now(); // the quiet spell counts from the end of the last load or reply
    this.loads = 0; // how many times a model was loaded (tests: an idle unload is followed by a load)
    this.lastLoaded = null; // what `loaded` was at the last load, kept after an unload (tests read it after the idle spell)
  }

  // The model of `record` loaded, from `file` (a Blob), loading it (or another in its place) if needed.
  async ready(record, readFile) {
    clearTimeout(this.timer);
    if (this.loaded?.id === record.id) return this.loaded;
    if (this.loading?.id === record.id) return this.loading.done;
    const done = this.#load(record, readFile);
    this.loading = { id: record.id, done };
    try {
      return await done;
    } finally {
      if (this.loading?.done === done) this.loading = null;
      this.#unloadLater();
    }
  }

  async #load(record, readFile) {
    await this.unload();
    const started = performance.now();
    const file = await readFile();
    const window = Math.min(record.window || FALLBACK_WINDOW, LARGEST_WINDOW);
    const threads = threadsHere();
    const gpu = await realGpu();
    const Wllama = await wllamaClass();
    const wllama = new Wllama({ default: WASM }, { logger: QUIET, suppressNativeLog: true });
    await wllama.loadModel([file], { n_ctx: window, n_threads: threads, n_gpu_layers: gpu ? 999 : 0, jinja: true });
    this.wllama = wllama;
    this.loads += 1;
    this.loaded = { id: record.id, window, threads: wllama.getNumThreads(), gpu, loadMs: Math.round(performance.now() - started) };
    this.lastLoaded = this.loaded;
    return this.loaded;
  }

  // The reply's chunks (OpenAI's chat.completion.chunk) to an OpenAI-compatible request body.
  async *complete(body, signal) {
    if (!this.wllama) throw new Error("no model is loaded");
    clearTimeout(this.timer);
    this.replies += 1;
    try {
      const window = this.loaded.window;
      const maxTokens = Math.min(Number(body.max_tokens) || Math.floor(window / 4), Math.floor(window / 2));
      const request = { messages: body.messages, max_tokens: maxTokens, stream: true, abortSignal: signal };
      if (body.tools?.length) request.tools = body.tools;
      if (body.temperature != null) request.temperature = body.temperature;
      yield* await this.wllama.createChatCompletion(request);
    } catch (error) {
      if (!signal?.aborted) await this.unload(); // a model that failed mid-reply is loaded afresh by the next message
      throw error;
    } finally {
      this.replies -= 1;
      this.#unloadLater();
    }
  }

  // The user's idle-close setting, sent with every message: a message is not a use of the model.
  setUnloadAfter(ms) {
    if (!(Number(ms) > 0) || Number(ms) === this.unloadAfterMs) return;
    this.unloadAfterMs = Number(ms);
    this.#unloadLater({ used: false });
  }

  #unloadLater({ used = true } = {}) {
    clearTimeout(this.timer);
    if (used) this.lastUsed = Date.now();
    if (!this.wllama || this.replies > 0 || this.loading) return;
    this.timer = setTimeout(() => this.unload(), Math.max(0, this.lastUsed + this.unloadAfterMs - Date.now()));
  }

  async unload() {
    clearTimeout(this.timer);
    const wllama = this.wllama;
    this.wllama = null;
    this.loaded = null;
    await wllama?.exit().catch(() => {});
  }

  status() {
    return { loaded: this.loaded, lastLoaded: this.lastLoaded, loads: this.loads, replies: this.replies };
  }
}
