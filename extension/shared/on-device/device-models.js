// The models the "On this device" provider offers: a short list of small models that call
// tools (their sizes shown before anything is fetched), and the user's own (a GGUF by its
// address, a file from disk). What the user has is kept as records in storage.local under
// DEVICE_MODELS ({ id: record }); the files are in the extension's OPFS (model-files.js).
// A record: { id, name, size, sha256?, url?, stored (the file is in OPFS; else it is read
// from `url` on this machine, as `make run` serves it), window (from the file's header),
// architecture, added }. A model's name is text from a file or an address: shown as text only.

export const DEVICE_MODELS = "deviceModels";

// Sizes are the files' as their hosts list them (approximate until the download says exactly);
// a SHA-256 is checked where one is given.
export const SHORT_LIST = Object.freeze([
  { id: "qwen3-0.6b", name: "Qwen3 0.6B (Q8_0)", approxSize: 639e6, url: "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf" },
  { id: "qwen2.5-coder-0.5b", name: "Qwen2.5-Coder 0.5B Instruct (Q4_K_M)", approxSize: 491_400_064, url: "https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF/resolve/main/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf" },
  { id: "gemma-3-1b", name: "Gemma 3 1B (Q4_K_M)", approxSize: 806e6, url: "https://huggingface.co/ggml-org/gemma-3-1b-it-GGUF/resolve/main/gemma-3-1b-it-Q4_K_M.gguf" },
  { id: "llama-3.2-1b", name: "Llama 3.2 1B Instruct (Q4_K_M)", approxSize: 808e6, url: "https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf" },
  { id: "qwen3-1.7b", name: "Qwen3 1.7B (Q8_0)", approxSize: 1.83e9, url: "https://huggingface.co/Qwen/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q8_0.gguf" },
  { id: "llama-3.2-3b", name: "Llama 3.2 3B Instruct (Q4_K_M)", approxSize: 2.02e9, url: "https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/main/Llama-3.2-3B-Instruct-Q4_K_M.gguf" },
  { id: "smollm3-3b", name: "SmolLM3 3B (Q4_K_M)", approxSize: 1.92e9, url: "https://huggingface.co/ggml-org/SmolLM3-3B-GGUF/resolve/main/SmolLM3-Q4_K_M.gguf" },
  { id: "qwen3-4b", name: "Qwen3 4B (Q4_K_M)", approxSize: 2.5e9, url: "https://huggingface.co/Qwen/Qwen3-4B-GGUF/resolve/main/Qwen3-4B-Q4_K_M.gguf" },
]);

export async function loadDeviceModels() {
  return (await chrome.storage.local.get(DEVICE_MODELS))[DEVICE_MODELS] ?? {};
}

// An id for a model the user adds (an address, a file): from its name, made safe and unique.
export function newModelId(name, taken) {
  const base = String(name).toLowerCase().replace(/\.gguf$/, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "model";
  let id = base;
  for (let n = 2; taken[id]; n++) id = `${base}-${n}`;
  return id;
}

// "491 MB", "1.8 GB": a size as a person reads it.
export function sizeInWords(bytes) {
  if (!(bytes > 0)) return "";
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
}
