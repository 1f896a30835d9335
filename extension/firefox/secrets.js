// Where the API key and the MCP servers' headers are kept (Firefox's version of
// extension/browser/secrets.js). Firefox's content scripts can read storage.local (it has no
// setAccessLevel), and they live inside web pages. The extension's own IndexedDB belongs to
// its moz-extension origin, which only the extension's pages share: a content script, with
// its page's origin, cannot open it.

const DATABASE = "tabagent-secrets";
const STORE = "secrets";

function openDatabase() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// Runs `use(store)` in one transaction; resolves with what it gives once the transaction is done.
async function inStore(mode, use) {
  const database = await openDatabase();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const result = use(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

// { name: value } for the names that are stored.
export async function readSecrets(names) {
  const requests = await inStore("readonly", (store) => names.map((name) => [name, store.get(name)]));
  return Object.fromEntries(requests.filter(([, request]) => request.result !== undefined).map(([name, request]) => [name, request.result]));
}

export function writeSecrets(values) {
  return inStore("readwrite", (store) => {
    for (const [name, value] of Object.entries(values)) store.put(value, name);
  });
}
