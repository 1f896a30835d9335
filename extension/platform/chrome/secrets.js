// Where the API key and the MCP servers' headers are kept (Chrome's version: storage.local,
// which storage-access.js keeps from content scripts; Firefox's is extension/platform/firefox/secrets.js).

// { name: value } for the names that are stored.
export function readSecrets(names) {
  return chrome.storage.local.get(names);
}

export function writeSecrets(values) {
  return chrome.storage.local.set(values);
}
