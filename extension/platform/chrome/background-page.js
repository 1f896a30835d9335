// The background page's address, as runtime messages report their sender (Chrome's
// version: the service worker's script; Firefox's event page: extension/platform/firefox/background-page.js).
export const BACKGROUND_PATH = "extension/background/service-worker.js";
