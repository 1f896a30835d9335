// Whether a tab that refused TabAgent's probe shows the browser's PDF viewer (Firefox's version
// of extension/browser/pdf-viewer.js). Firefox shows a PDF at its own address in pdf.js, a
// document of Firefox's own into which no extension may inject a script, so the probe that
// would see the PDF's type is refused ("Missing host permission for the tab") although TabAgent
// may read that address. Firefox keeps extensions out of other pages the same way, with the
// same words: its JSON viewer (a .json address served as JSON), its error pages, and the sites
// it protects (addons.mozilla.org and the rest of `extensions.webextensions.restrictedDomains`). Taking
// those for PDFs would download them with the user's cookies for nothing, so the viewer is
// recognised by what only it gives its tab: the PDF icon its own page links to (viewer.html's
// <link rel="icon">, seen in Firefox ESR 153). A page of a site that links that icon itself
// only gets its own address downloaded, which pdf-download.js drops unless it is a PDF.
const PDF_VIEWER_ICON = "chrome://global/skin/icons/pdf.svg";

const readable = (tab) => /^(https?|file):/.test(tab.url ?? "") &&
  browser.permissions.contains({ origins: [tab.url] }).catch(() => false);

export async function refusedByPdfViewer(tab) {
  return tab.favIconUrl === PDF_VIEWER_ICON && readable(tab);
}

// Why a tab that is not a PDF refused the probe, in the user's words: null when the browser's
// own reason says it (TabAgent may not read that address).
export async function keptOutInWords(tab) {
  if (!(await readable(tab))) return null;
  return "This page can't be read: Firefox keeps every extension out of it. It is one of Firefox's own pages " +
    "at a web address: a viewer (of a JSON file, for one), an error page (the address could not be loaded), " +
    "or a site Firefox protects (addons.mozilla.org and a few others).";
}
