// A key-value store in the extension's own IndexedDB (Firefox keeps secrets and conversations
// there: extension/platform/firefox/). It belongs to the extension's origin, which only its own pages
// share. get(keys) gives { key: value } for the keys stored; add() writes only keys not there.

function open(name, storeName) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// Runs `use(store)` in one transaction; resolves with what it gives once the transaction is done.
async function inStore([name, storeName], mode, use) {
  const database = await open(name, storeName);
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(storeName, mode);
      const result = use(transaction.objectStore(storeName));
      transaction.oncomplete = () => resolve(result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

export function keyValueDatabase(name, storeName = "values") {
  const where = [name, storeName];
  return {
    async get(keys) {
      const requests = await inStore(where, "readonly", (store) => keys.map((key) => [key, store.get(key)]));
      return Object.fromEntries(requests.filter(([, request]) => request.result !== undefined).map(([key, request]) => [key, request.result]));
    },
    set: (items) => inStore(where, "readwrite", (store) => {
      for (const [key, value] of Object.entries(items)) store.put(value, key);
    }),
    add: (items) => inStore(where, "readwrite", (store) => {
      for (const [key, value] of Object.entries(items)) {
        const request = store.add(value, key);
        request.onerror = (event) => { // already there: kept, and the transaction goes on
          if (request.error?.name !== "ConstraintError") return;
          event.preventDefault();
          event.stopPropagation();
        };
      }
    }),
    remove: (keys) => inStore(where, "readwrite", (store) => {
      for (const key of keys) store.delete(key);
    }),
  };
}
