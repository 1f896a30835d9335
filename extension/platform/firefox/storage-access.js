// Who may read the extension's storage (Firefox's version of extension/platform/chrome/storage-access.js).
// Firefox has no storage.local.setAccessLevel: its content scripts can always read
// storage.local, so nothing is set here, and the API key is not kept there (README, "TabAgent
// in Firefox", says what that costs).
export function keepStorageFromContentScripts() {}
