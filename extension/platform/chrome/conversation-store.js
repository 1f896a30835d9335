// Where conversations are kept (Chrome's version; Firefox's is
// extension/platform/firefox/conversation-store.js): chrome.storage.local, which the service worker keeps
// from content scripts (storage-access.js, setAccessLevel). The same three calls as
// storage.local: get(keys) gives { key: value } for the keys stored, set({ key: value }),
// remove(keys).
export const conversationStore = {
  get: (keys) => chrome.storage.local.get(keys),
  set: (items) => chrome.storage.local.set(items),
  remove: (keys) => chrome.storage.local.remove(keys),
};

// Conversations an earlier version kept elsewhere, moved here: nothing, in Chrome.
export async function moveConversationsIn() {}
