// Whether a tab that refused TabAgent's probe shows the browser's PDF viewer (Firefox's version
// of extension/browser/pdf-viewer.js). Firefox shows a PDF at its own address in pdf.js, a
// document of Firefox's own into which no extension may inject a script, so the probe that
// would see the PDF's type is refused ("Missing host permission for the tab") although TabAgent
// may read that address. Such a tab is taken for a PDF: the event page then downloads the file
// and reads it with pdf.js, which says so in words when the file is not a PDF after all.
export async function refusedByPdfViewer(tab) {
  if (!/^(https?|file):/.test(tab.url ?? "")) return false;
  return browser.permissions.contains({ origins: [tab.url] }).catch(() => false);
}
