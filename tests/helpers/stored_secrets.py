"""What a compromised content script of TabAgent's could read of the extension's storage."""

from __future__ import annotations

# What a compromised content script of TabAgent's could reach: storage.local and .session,
# and an IndexedDB of the same name in its own (the page's) origin.
READ_EVERYTHING = """async () => {
  const area = async (name) => {
    try {
      return await chrome.storage[name].get(null);
    } catch (error) {
      return { error: String(error) };  // Firefox gives content scripts no storage.session
    }
  };
  const database = await new Promise((resolve) => {
    const request = indexedDB.open("tabagent-secrets");
    request.onsuccess = () => resolve([...request.result.objectStoreNames]);
    request.onerror = () => resolve(String(request.error));
  });
  return { local: await area("local"), session: await area("session"), database };
}"""
