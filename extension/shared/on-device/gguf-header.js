// What TabAgent reads of a model file before it is loaded: that it is a GGUF file at all (its
// magic, "GGUF", and a version llama.cpp reads), and the few keys of its header it needs: its
// architecture, its name (shown as text, never as markup or instructions) and its context window
// (`<architecture>.context_length`). Read from a Blob (an OPFS file, a file from disk, the
// first bytes of a download) a slice at a time, stopping once those keys are found: the
// tokenizer's long arrays come later in the header. Nothing in the file is ever run.

const MAGIC = "GGUF";
const VERSIONS = new Set([2, 3]);
const SLICE = 1 << 20;
const LONGEST_HEADER = 64 << 20; // a header longer than this is not a model file we read
const SIZES = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 }; // fixed-size value types
const STRING = 8;
const ARRAY = 9;

export class NotAModelFile extends Error {}

export function looksLikeGguf(bytes) {
  return bytes.length >= 8 && new TextDecoder().decode(bytes.subarray(0, 4)) === MAGIC &&
    VERSIONS.has(new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true));
}

// A reader of little-endian values from a Blob, fetching the next slice as it needs it.
class BlobReader {
  constructor(blob) {
    this.blob = blob;
    this.offset = 0;
    this.bytes = new Uint8Array(0);
    this.start = 0; // where this.bytes begins in the blob
  }

  async need(count) {
    const end = this.offset + count;
    if (end > LONGEST_HEADER || end > this.blob.size) throw new NotAModelFile("its header runs past the end of the file");
    if (end <= this.start + this.bytes.length) return;
    this.start = this.offset;
    this.bytes = new Uint8Array(await this.blob.slice(this.offset, Math.max(end, this.offset + SLICE)).arrayBuffer());
  }

  async view(count) {
    await this.need(count);
    const at = this.offset - this.start;
    this.offset += count;
    return new DataView(this.bytes.buffer, at, count);
  }

  async u32() { return (await this.view(4)).getUint32(0, true); }
  async u64() { return Number((await this.view(8)).getBigUint64(0, true)); }

  async string() {
    const length = await this.u64();
    const view = await this.view(length);
    return new TextDecoder().decode(new Uint8Array(view.buffer, view.byteOffset, length));
  }

  async value(type) {
    if (type === STRING) return this.string();
    if (type === ARRAY) {
      const [itemType, count] = [await this.u32(), await this.u64()];
      for (let i = 0; i < count; i++) await this.skip(itemType);
      return null; // arrays (the tokenizer's) are not kept
    }
    const size = SIZES[type];
    if (!size) throw new NotAModelFile(`its header has a value of unknown type ${type}`);
    const view = await this.view(size);
    if (type === 4) return view.getUint32(0, true);
    if (type === 5) return view.getInt32(0, true);
    if (type === 10) return Number(view.getBigUint64(0, true));
    return null; // other numbers are not needed
  }

  async skip(type) {
    if (type === ARRAY) return void (await this.value(ARRAY));
    if (!SIZES[type] && type !== STRING) throw new NotAModelFile(`its header has a value of unknown type ${type}`);
    // A string's length is read first: `offset += await ...` would add to the offset as it was before the read.
    const length = type === STRING ? await this.u64() : SIZES[type];
    this.offset += length;
  }
}

// { architecture, name, window } of a GGUF file; throws NotAModelFile for anything else.
export async function readHeader(blob) {
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  if (!looksLikeGguf(head)) throw new NotAModelFile("it is not a GGUF model file (it does not begin with GGUF)");
  const reader = new BlobReader(blob);
  reader.offset = 8;
  await reader.u64(); // tensors
  const keys = await reader.u64();
  const found = {};
  for (let i = 0; i < keys; i++) {
    const key = await reader.string();
    const type = await reader.u32();
    const wanted = key === "general.architecture" || key === "general.name" || key.endsWith(".context_length");
    if (wanted) found[key] = await reader.value(type);
    else await reader.skip(type);
    const architecture = found["general.architecture"];
    if (architecture && found[`${architecture}.context_length`] && "general.name" in found) break;
  }
  const architecture = typeof found["general.architecture"] === "string" ? found["general.architecture"] : "";
  const window = Number(found[`${architecture}.context_length`]) || 0;
  return { architecture, name: typeof found["general.name"] === "string" ? found["general.name"].slice(0, 200) : "", window };
}
