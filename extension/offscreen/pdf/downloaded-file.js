// read_download's reading (py/tabagent/app/downloads.py): the bytes of a file the tab downloaded
// in the turn, fetched again by the service worker (background/downloads.js), made text here,
// where pdf.js is. A PDF is read with pdf.js, page by page; text (UTF-8, or what decodes as it)
// as it is; anything else (pictures, archives, office documents, programs) is not read, and
// the sentence says what it is. Answers are a page tool's: { ok: true, result } or { ok: false, error }.

import { parse } from "./pdf-reader.js";
import { DOWNLOADS } from "../../shared/wire.js";

const PDF_MAGIC = "%PDF-";
// The first bytes of what is not text, as the sentence names it.
const NOT_TEXT = [
  ["PK\u0003\u0004", "a ZIP archive or an office document (Word, Excel, OpenDocument)"],
  ["\u0089PNG", "a picture"], ["\u00ff\u00d8\u00ff", "a picture"], ["GIF8", "a picture"], ["RIFF", "a picture or a sound"],
  ["\u001f\u008b", "a compressed (gzip) file"], ["MZ", "a Windows program"], ["\u007fELF", "a program"],
  ["\u00d0\u00cf\u0011\u00e0", "an old office document (Word, Excel)"], ["Rar!", "a RAR archive"], ["7z\u00bc\u00af", "a 7-Zip archive"],
];
const SNIFF = 4096;

function bytesOf(base64) {
  const text = atob(base64 ?? "");
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

// What the file is not, in words, or "" when it reads as text.
function notText(bytes) {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, SNIFF));
  const known = NOT_TEXT.find(([magic]) => head.startsWith(magic));
  if (known) return known[1];
  return head.includes("\u0000") ? "a binary file" : "";
}

async function asPdf(download, bytes) {
  if (download.cut) {
    return { ok: false, error: `This PDF is larger than ${DOWNLOADS.max_mb} MB; TabAgent does not read downloads that big.` };
  }
  const { pages } = await parse("download", bytes);
  const text = pages.map((page, i) => `--- PDF page ${i + 1} ---\n${page}`).join("\n\n");
  return { ok: true, result: { ...described(download), kind: `PDF, ${pages.length} pages`, text } };
}

const described = ({ download_id, file_name, mime, size, from_site, site, cut }) =>
  ({ download_id, file_name, mime, size, from_site, site, cut: cut ? DOWNLOADS.max_mb : 0 });

export async function readDownloadedFile(download) {
  const bytes = bytesOf(download.base64);
  try {
    if (new TextDecoder("latin1").decode(bytes.subarray(0, 1024)).includes(PDF_MAGIC)) return await asPdf(download, bytes);
  } catch (error) {
    return { ok: false, error: error?.message?.startsWith("This") ? error.message : "TabAgent could not read this PDF." };
  }
  const what = notText(bytes);
  if (what) {
    return { ok: false, error: `TabAgent reads text and PDF downloads only; this file is ${what}, so nothing was read. ` +
      "The user can open it from the browser's downloads." };
  }
  return { ok: true, result: { ...described(download), kind: "text", text: new TextDecoder("utf-8").decode(bytes) } };
}
