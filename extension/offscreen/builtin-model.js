// Chrome's built-in model (the Prompt API's LanguageModel), as the bridge the Python
// BrowserModel expects (py/tabagent/app/builtin_model.py). LanguageModel is looked up on each
// call: it can appear once Chrome has downloaded the model.

const requests = new Map(); // request id -> AbortController

export const builtinModel = {
  async availability() {
    return globalThis.LanguageModel ? globalThis.LanguageModel.availability() : "unavailable";
  },

  // A stream of text pieces answering `prompt` after the conversation in `initialJson`.
  async stream(requestId, initialJson, prompt) {
    if (!globalThis.LanguageModel || (await this.availability()) === "unavailable") {
      throw new Error("Chrome's built-in model is not available in this browser: choose another provider in settings.");
    }
    const controller = new AbortController();
    requests.set(requestId, controller);
    const session = await globalThis.LanguageModel.create({ initialPrompts: JSON.parse(initialJson), signal: controller.signal });
    const done = () => {
      session.destroy();
      requests.delete(requestId);
    };
    return session
      .promptStreaming(prompt, { signal: controller.signal })
      .pipeThrough(new TransformStream({ flush: done, cancel: done }));
  },

  abort(requestId) {
    requests.get(requestId)?.abort();
    requests.delete(requestId);
  },
};
