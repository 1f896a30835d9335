// Who may read the extension's storage (Chrome's version; Firefox's is in extension/platform/firefox/).
// The API key and the conversations are for the extension's own pages only. Chrome lets
// content scripts (which live inside web pages) read chrome.storage.local unless told
// otherwise; the setting is kept by Chrome, and set again at every start in case it was not.
export function keepStorageFromContentScripts() {
  for (const [name, area] of [["local", chrome.storage.local], ["session", chrome.storage.session]]) {
    area.setAccessLevel({ accessLevel: "TRUSTED_CONTEXTS" })
      .catch((error) => console.error(`TabAgent: cannot keep ${name} storage from content scripts:`, error));
  }
}
