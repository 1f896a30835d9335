// Whether a tab that refused TabAgent's probe shows the browser's PDF viewer (Firefox's version
// of extension/platform/chrome/pdf-viewer.js). Firefox shows a PDF at its own address in pdf.js, a
// document of Firefox's own into which no extension may inject a script, so the probe that
// would see the PDF's type is refused ("Missing host permission for the tab") although TabAgent
// may read that address. Firefox keeps extensions out of other pages the same way, with the
// same words: its JSON viewer (a .json address served as JSON), its error pages, and the sites
// it protects (addons.mozilla.org and the rest of `extensions.webextensions.restrictedDomains`). Taking
// those for PDFs would download them with the user's cookies for nothing, so the viewer is
// recognised by what only it gives its tab: the PDF icon its own page links to (viewer.html's
// <link rel="icon">, seen in Firefox ESR 153). A page of a site that links that icon itself
// only gets its own address downloaded, which pdf-download.js drops unless it is a PDF.
//
// The icon is one wall; a web page may link that icon too (Firefox shows it), and a page
// Firefox keeps extensions out of refuses like the viewer. So a second: a tab is taken for a
// PDF only when the document it shows arrived as one. Firefox tells the event page the type of
// each document a tab loads (webRequest, for the sites TabAgent may read); the address of the
// last one that was a PDF is kept per tab. The download, with the site's cookies, follows only
// from both. A file: tab is read without cookies, and needs the icon alone.
const PDF_VIEWER_ICON = "chrome://global/skin/icons/pdf.svg";
// The types Firefox opens in its viewer (a PDF's own, or bytes it finds a PDF in).
const PDF_TYPES = new Set(["", "application/pdf", "application/x-pdf", "application/octet-stream", "binary/octet-stream"]);
const arrivedKey = (tabId) => `pdfArrived:${tabId}`; // storage.session, which content scripts cannot read

const withoutFragment = (url) => (url ?? "").replace(/#.*$/, "");
const typeOf = (headers) => (headers?.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "").split(";")[0].trim().toLowerCase();

function noteDocument({ tabId, url, responseHeaders }) {
  if (tabId < 0) return;
  const key = arrivedKey(tabId);
  if (PDF_TYPES.has(typeOf(responseHeaders))) browser.storage.session.set({ [key]: withoutFragment(url) });
  else browser.storage.session.remove(key);
}

browser.webRequest.onResponseStarted.addListener(noteDocument, { urls: ["<all_urls>"], types: ["main_frame"] }, ["responseHeaders"]);
browser.tabs.onRemoved.addListener((tabId) => browser.storage.session.remove(arrivedKey(tabId)));

async function arrivedAsPdf(tab) {
  if (tab.url.startsWith("file:")) return true;
  const { [arrivedKey(tab.id)]: url } = await browser.storage.session.get(arrivedKey(tab.id));
  return url === withoutFragment(tab.url);
}

const readable = (tab) => /^(https?|file):/.test(tab.url ?? "") &&
  browser.permissions.contains({ origins: [tab.url] }).catch(() => false);

const wearsViewerIcon = (tab) => tab.favIconUrl === PDF_VIEWER_ICON;

export async function refusedByPdfViewer(tab) {
  return wearsViewerIcon(tab) && (await readable(tab)) && arrivedAsPdf(tab);
}

// Why a tab that is not a PDF refused the probe, in the user's words: null when the browser's
// own reason says it (TabAgent may not read that address).
export async function keptOutInWords(tab) {
  if (!(await readable(tab))) return null;
  if (wearsViewerIcon(tab)) {
    return "This page can't be read: it looks like Firefox's PDF viewer, but TabAgent did not see a PDF arrive in this tab, " +
      "so it does not download it with the site's cookies. If it is a PDF that was open before TabAgent could see it, " +
      "reloading the tab lets TabAgent read it.";
  }
  return "This page can't be read: Firefox keeps every extension out of it. It is one of Firefox's own pages " +
    "at a web address: a viewer (of a JSON file, for one), an error page (the address could not be loaded), " +
    "or a site Firefox protects (addons.mozilla.org and a few others).";
}
