// Keeps Pyodide's memory snapshot in IndexedDB, keyed by the exact build it was made from.
// A snapshot restores the interpreter with the standard modules and tabagent already
// imported, which turns a ~2 s start into a fraction of that. It is only valid for the
// same Pyodide runtime and the same tabagent package, so the key carries both.

const DB_NAME = "tabagent-python";
const STORE = "snapshots";
const RECORD = "current";

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore(mode, action) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = action(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

// Returns the snapshot bytes if one was made from `key`, otherwise null.
export async function loadSnapshot(key) {
  const record = await withStore("readonly", (store) => store.get(RECORD));
  return record && record.key === key ? record.bytes : null;
}

export async function saveSnapshot(key, bytes) {
  await withStore("readwrite", (store) => store.put({ key, bytes, savedAt: Date.now() }, RECORD));
}

export async function clearSnapshot() {
  await withStore("readwrite", (store) => store.delete(RECORD));
}
