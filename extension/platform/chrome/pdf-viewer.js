// Whether a tab that refused TabAgent's probe shows the browser's PDF viewer (Chrome's version;
// Firefox's viewer refuses every extension script: extension/platform/firefox/pdf-viewer.js). Chrome's
// viewer lets the probe in, which then sees the PDF's type, so a refusal is never a PDF here.
export async function refusedByPdfViewer(_tab) {
  return false;
}

// Chrome's own reason for a refusal says it in words already ("Cannot access contents of ...").
export async function keptOutInWords(_tab) {
  return null;
}
