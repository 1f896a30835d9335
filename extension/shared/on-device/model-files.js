// Where the on-device models' files are kept: the extension's own origin-private file system
// (OPFS), one file per model, named by the model's id (never by anything the file or its
// address says). Both browsers keep a 0.5-2 GB file there (docs/on-device.md has the figures);
// the extension's unlimitedStorage permission lifts the quota. The settings page and the Python
// page (offscreen document / Firefox's background frame) share it: they are the same origin.

const FOLDER = "on-device-models";
const SAFE_ID = /^[a-z0-9][a-z0-9-]{0,80}$/;

export function checkedId(id) {
  if (!SAFE_ID.test(String(id))) throw new Error(`not a model id: ${String(id).slice(0, 40)}`);
  return String(id);
}

async function folder() {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(FOLDER, { create: true });
}

export async function fileHandle(id, { create = false } = {}) {
  return (await folder()).getFileHandle(`${checkedId(id)}.gguf`, { create });
}

// The model's file (a Blob on disk), or null when there is none.
export async function modelFile(id) {
  try {
    return await (await fileHandle(id)).getFile();
  } catch (error) {
    if (error.name === "NotFoundError") return null;
    throw error;
  }
}

export async function storedBytes(id) {
  return (await modelFile(id))?.size ?? 0;
}

export async function removeModelFile(id) {
  await (await folder()).removeEntry(`${checkedId(id)}.gguf`).catch((error) => {
    if (error.name !== "NotFoundError") throw error;
  });
}

// A file from the user's disk, copied in a piece at a time: the copy is the extension's own,
// whatever happens to the original.
export async function copyIn(id, file, onProgress = () => {}) {
  const writable = await (await fileHandle(id, { create: true })).createWritable();
  let copied = 0;
  try {
    const reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await writable.write(value);
      copied += value.byteLength;
      onProgress(copied, file.size);
    }
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => {});
    await removeModelFile(id);
    throw error;
  }
}
