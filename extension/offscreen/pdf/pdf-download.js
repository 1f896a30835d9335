// Downloads the PDF a tab shows, for pdf-reader.js. The download is made for the user, on the
// page's behalf, so it must read only what the tab shows and carry only what the page's own
// request carried:
// - The tab's address is where the browser ended up after any redirects, so the download asks
//   for exactly that address and follows no redirect. A server that answers it with one is
//   answering TabAgent differently from the browser (a site can tell the two apart), and
//   following it would send the user's cookies wherever the site points and read the answer as
//   if the tab showed it: another site's page (a bank statement) handed to the model.
// - Cookies go with it ("include"), to the tab's own site only, for the address it has just
//   served the tab with them: the request the browser made to show the tab, no cookie of any
//   other site. docs/security.md ("A fetch made for the user reads only what the tab shows")
//   has this reasoning in full, SameSite included, and every other fetch beside it.
// - Only a PDF is read: an answer that says it is something else (a web page, JSON), or whose
//   first bytes are not a PDF's, is dropped at its headers or first bytes, before the rest of
//   the body comes. Whatever took the tab for a PDF, the site's page is not read with the
//   user's cookies for nothing.
//
// Errors are sentences for the model that quote nothing from the site (not even its address:
// read_page gives that inside the page-content marking).

export class PdfError extends Error {}

const MAX_BYTES = 100 * 1024 * 1024;

const TOO_LARGE = `This PDF is larger than ${MAX_BYTES / 1024 / 1024} MB; TabAgent does not read files that big.`;
// "Not a PDF" is said in the user's words and names no type: the site chose the header.
const NOT_A_PDF = "This page can't be read: TabAgent downloaded it as a PDF, but the site's answer is not a PDF " +
  "(it is a web page or other data), so TabAgent stopped the download there.";
const REDIRECTED = "The site answered TabAgent's download of this PDF with a redirect to another address " +
  "instead of the PDF the tab shows, so TabAgent did not follow it: it reads only what the tab shows. " +
  "The user can open the PDF's own address in the tab and ask again.";

// fetch() has no file: scheme; an extension page allowed into files reads them with XHR.
function readFile(url) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("GET", url);
    request.responseType = "arraybuffer";
    request.onload = () => resolve(new Uint8Array(request.response));
    request.onerror = () => reject(new PdfError("TabAgent could not open this file."));
    request.send();
  });
}

async function fetchFromTheTabsSite(url) {
  try {
    return await fetch(url, { credentials: "include", redirect: "manual" });
  } catch (error) {
    throw new PdfError(`TabAgent could not download this PDF: ${error.message}.`);
  }
}

// The types a server gives a PDF: its own, or "some bytes" from one that does not say (the
// browser's viewer opens those too when they start as a PDF does). No type at all: the bytes decide.
const PDF_TYPES = new Set(["", "application/pdf", "application/x-pdf", "application/octet-stream", "binary/octet-stream"]);
// pdf.js finds a PDF's "%PDF-" anywhere in its first 1024 bytes, so this looks there too.
const MAGIC = "%PDF-";
const MAGIC_WITHIN = 1024;

function saysItIsAPdf(response) {
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  return PDF_TYPES.has(type);
}

const startsAsAPdf = (bytes) => new TextDecoder("latin1").decode(bytes.subarray(0, MAGIC_WITHIN)).includes(MAGIC);

// Reads the body chunk by chunk: it stops at the first bytes when they are not a PDF's, and
// at MAX_BYTES when the server did not say the size.
async function readPdfBody(body) {
  if (!body) throw new PdfError(NOT_A_PDF); // a 204: nothing at all
  const reader = body.getReader();
  const chunks = [];
  let size = 0;
  let checked = false;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    size += chunk.value.length;
    if (size > MAX_BYTES) return stop(reader, TOO_LARGE);
    if (!checked && size >= MAGIC_WITHIN) {
      if (!startsAsAPdf(joined(chunks, size))) return stop(reader, NOT_A_PDF);
      checked = true;
    }
  }
  const bytes = joined(chunks, size);
  if (!checked && !startsAsAPdf(bytes)) throw new PdfError(NOT_A_PDF);
  return bytes;
}

async function stop(reader, why) {
  await reader.cancel().catch(() => {});
  throw new PdfError(why);
}

function joined(chunks, size) {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

export async function download(url) {
  if (url.startsWith("file:")) return readFile(url);
  const response = await fetchFromTheTabsSite(url);
  // "manual": the redirect comes back unfollowed, as an opaque answer with no address in it.
  if (response.type === "opaqueredirect") throw new PdfError(REDIRECTED);
  if (!response.ok) throw new PdfError(`TabAgent could not download this PDF: the server answered ${response.status}.`);
  if (!saysItIsAPdf(response)) {
    await response.body?.cancel().catch(() => {});
    throw new PdfError(NOT_A_PDF);
  }
  if (Number(response.headers.get("content-length")) > MAX_BYTES) throw new PdfError(TOO_LARGE);
  return readPdfBody(response.body);
}
