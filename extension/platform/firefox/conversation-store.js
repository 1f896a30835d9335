// Where conversations are kept (Firefox's version of extension/platform/chrome/conversation-store.js).
// Firefox's content scripts can read storage.local (it has no setAccessLevel), and they live
// inside web pages. The storage API is removed from TabAgent's content-script world
// (no-storage-in-pages.js); should a page get past that wall, the conversations are not in
// storage.local for it to read. They are in the extension's own IndexedDB, which belongs to its
// moz-extension origin: only the extension's pages share it, and a content script, with its
// page's origin, cannot open it (as secrets.js keeps the API key).

import { keyValueDatabase } from "../../shared/storage/key-value-database.js";

const database = keyValueDatabase("tabagent-conversations");
const INDEX = "conversations"; // conversations.js's index, listing the records
const isConversationKey = (key) => key === INDEX || key.startsWith("conversation:");

export const conversationStore = {
  get: (keys) => database.get(typeof keys === "string" ? [keys] : keys),
  set: (items) => database.set(items),
  remove: (keys) => database.remove(typeof keys === "string" ? [keys] : keys),
};

// Conversations an earlier version kept in storage.local come here, and leave storage.local.
// Run by the service worker at its start; what is already here is never overwritten (the
// index gains the old entries it lacks).
export async function moveConversationsIn() {
  const old = Object.fromEntries(Object.entries(await chrome.storage.local.get(null)).filter(([key]) => isConversationKey(key)));
  if (Object.keys(old).length === 0) return;
  const { [INDEX]: oldIndex = {}, ...records } = old;
  const { [INDEX]: index = {} } = await database.get([INDEX]);
  await database.add(records);
  await database.set({ [INDEX]: { ...oldIndex, ...index } });
  await chrome.storage.local.remove(Object.keys(old));
}
