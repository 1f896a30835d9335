// The background page's address, as runtime messages report their sender (Chrome's
// version: the service worker's script, extension/background/service-worker.js bundled by
// scripts/build.py; Firefox's event page: extension/platform/firefox/background-page.js).
export const BACKGROUND_PATH = "extension/vendor/service-worker.js";
