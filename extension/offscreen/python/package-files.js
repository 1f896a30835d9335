// The files of the build's tabagent.zip, read here in JavaScript and written into Pyodide's
// file system directly. Pyodide's unpackArchive runs Python's shutil and zipfile to do it,
// which took 48 ms of every cold start on a quiet machine (80 to 160 on a busy one), after
// Pyodide had loaded; this reads the archive while Pyodide loads, and writing the files then
// takes about 6 ms.
// The archive is the extension's own (the build writes it); its entries are stored or deflated.

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const STORED = 0;
const DEFLATED = 8;

function endOfDirectory(view) {
  for (let at = view.byteLength - 22; at >= 0; at -= 1) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw new Error("tabagent.zip is not a zip archive: run make build");
}

async function contents(method, data) {
  if (method === STORED) return data;
  if (method !== DEFLATED) throw new Error(`tabagent.zip uses compression ${method}: run make build`);
  const inflated = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
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
export async function packageFiles(archive) {
  const bytes = new Uint8Array(archive);
  const view = new DataView(archive);
  const end = endOfDirectory(view);
  const entries = [];
  for (let n = 0, at = view.getUint32(end + 16, true); n < view.getUint16(end + 10, true); n += 1) {
    const entry = entryAt(bytes, view, at);
    if (entry.path.split("/").includes("..")) throw new Error(`tabagent.zip names ${entry.path}: run make build`);
    if (!entry.path.endsWith("/")) entries.push(entry);
    at = entry.next;
  }
  return Promise.all(entries.map(async ({ path, method, data }) => ({ path, bytes: await contents(method, data) })));
}

// Writes them under `directory` of Pyodide's file system.
export function writePackageFiles(pyodide, directory, files) {
  for (const { path, bytes } of files) {
    const file = `${directory}/${path}`;
    pyodide.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    pyodide.FS.writeFile(file, bytes);
  }
}
