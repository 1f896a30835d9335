// Chrome's built-in model (the Prompt API's LanguageModel), as the bridge the Python
// BrowserModel expects (py/tabagent/app/builtin_model.py). LanguageModel is looked up on each
// call: it can appear once Chrome has downloaded the model.

const requests = new Map(); // request id -> AbortController
const WITH_IMAGES = { expectedInputs: [{ type: "text" }, { type: "image" }] };

// The Prompt API takes a picture as a Blob (or an image element), not a data URL.
async function withBlobs(content) {
  if (!Array.isArray(content)) return content;
  return Promise.all(content.map(async (part) => (part.type === "image" ? { type: "image", value: await (await fetch(part.value)).blob() } : part)));
}

const promptsWithBlobs = (prompts) => Promise.all(prompts.map(async (p) => ({ ...p, content: await withBlobs(p.content) })));

export const builtinModel = {
  async availability() {
    return globalThis.LanguageModel ? globalThis.LanguageModel.availability() : "unavailable";
  },

  // Whether this Chrome's model takes images (Python then sends it screenshots).
  async seesImages() {
    if (!globalThis.LanguageModel) return false;
    return (await globalThis.LanguageModel.availability(WITH_IMAGES).catch(() => "unavailable")) !== "unavailable";
  },

  // A stream of text pieces answering `prompt` after the conversation in `initialJson`; with
  // pictures (withImages), `prompt` is the JSON of the last message's parts.
  async stream(requestId, initialJson, prompt, withImages = false) {
    if (!globalThis.LanguageModel || (await this.availability()) === "unavailable") {
      throw new Error("Chrome's built-in model is not available in this browser: choose another provider in settings.");
    }
    const controller = new AbortController();
    requests.set(requestId, controller);
    const initialPrompts = withImages ? await promptsWithBlobs(JSON.parse(initialJson)) : JSON.parse(initialJson);
    const input = withImages ? [{ role: "user", content: await withBlobs(JSON.parse(prompt)) }] : prompt;
    const session = await globalThis.LanguageModel.create({ initialPrompts, signal: controller.signal, ...(withImages && WITH_IMAGES) });
    const done = () => {
      session.destroy();
      requests.delete(requestId);
    };
    return session
      .promptStreaming(input, { signal: controller.signal })
      .pipeThrough(new TransformStream({ flush: done, cancel: done }));
  },

  abort(requestId) {
    requests.get(requestId)?.abort();
    requests.delete(requestId);
  },
};
