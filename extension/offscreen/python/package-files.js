// The files of the build's tabagent.zip, read here in JavaScript and written into Pyodide's
// file system directly. Pyodide's unpackArchive runs Python's shutil and zipfile to do it,
// which took 42 to 63 ms of every cold start on a quiet machine (80 to 160 on a busy one),
// after Pyodide had loaded; here the files are views into the archive, which the build stores
// uncompressed (a few hundred KB read from the extension's own files: nothing to inflate),
// and writing them takes 7 to 10 ms.

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const STORED = 0;

function endOfDirectory(view) {
  for (let at = view.byteLength - 22; at >= 0; at -= 1) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw new Error("tabagent.zip is not a zip archive: run make build");
}

// One entry of the central directory at `at`: its path, where its data is and how it is kept.
function entryAt(bytes, view, at) {
  if (view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error("tabagent.zip is damaged: run make build");
  const nameLength = view.getUint16(at + 28, true);
  const local = view.getUint32(at + 42, true);
  const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  return {
    path: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    method: view.getUint16(at + 10, true),
    data: bytes.subarray(dataAt, dataAt + view.getUint32(at + 20, true)),
    next: at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true),
  };
}

// [{ path, bytes }] of every file of the archive (an ArrayBuffer), directories left out.
export function packageFiles(archive) {
  const bytes = new Uint8Array(archive);
  const view = new DataView(archive);
  const end = endOfDirectory(view);
  const entries = [];
  for (let n = 0, at = view.getUint32(end + 16, true); n < view.getUint16(end + 10, true); n += 1) {
    const entry = entryAt(bytes, view, at);
    if (entry.path.split("/").includes("..")) throw new Error(`tabagent.zip names ${entry.path}: run make build`);
    if (entry.method !== STORED) throw new Error(`tabagent.zip is compressed (${entry.method}): run make build`);
    if (!entry.path.endsWith("/")) entries.push({ path: entry.path, bytes: entry.data });
    at = entry.next;
  }
  return entries;
}

// Writes them under `directory` of Pyodide's file system.
export function writePackageFiles(pyodide, directory, files) {
  for (const { path, bytes } of files) {
    const file = `${directory}/${path}`;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    pyodide.FS.writeFile(file, bytes);
  }
}
