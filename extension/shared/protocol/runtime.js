// Asks the service worker something and returns its answer, or throws its error.
import { Target } from "./messages.js";

export async function askBackground(type, payload = {}) {
  const reply = await chrome.runtime.sendMessage({ ...payload, type, target: Target.background });
  if (!reply) throw new Error("the extension's service worker did not answer");
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}
