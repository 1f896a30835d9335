// Where the API key and the MCP servers' headers are kept (Firefox's version of
// extension/platform/chrome/secrets.js). Firefox's content scripts can read storage.local (it has no
// setAccessLevel), and they live inside web pages. The extension's own IndexedDB belongs to
// its moz-extension origin, which only the extension's pages share: a content script, with
// its page's origin, cannot open it.

import { keyValueDatabase } from "../../shared/storage/key-value-database.js";

const database = keyValueDatabase("tabagent-secrets", "secrets");

// { name: value } for the names that are stored.
export function readSecrets(names) {
  return database.get(names);
}

export function writeSecrets(values) {
  return database.set(values);
}
