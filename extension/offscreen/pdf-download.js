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
//
// Errors are sentences for the model that quote nothing from the site (not even its address:
// read_page gives that inside the page-content marking).

export class PdfError extends Error {}

const MAX_BYTES = 100 * 1024 * 1024;

const TOO_LARGE = `This PDF is larger than ${MAX_BYTES / 1024 / 1024} MB; TabAgent does not read files that big.`;
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

export async function download(url) {
  if (url.startsWith("file:")) return readFile(url);
  const response = await fetchFromTheTabsSite(url);
  // "manual": the redirect comes back unfollowed, as an opaque answer with no address in it.
  if (response.type === "opaqueredirect") throw new PdfError(REDIRECTED);
  if (!response.ok) throw new PdfError(`TabAgent could not download this PDF: the server answered ${response.status}.`);
  if (Number(response.headers.get("content-length")) > MAX_BYTES) throw new PdfError(TOO_LARGE);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw new PdfError(TOO_LARGE);
  return bytes;
}
