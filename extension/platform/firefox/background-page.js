// The background page's address, as runtime messages report their sender (Firefox's
// version of extension/platform/chrome/background-page.js): the page Firefox makes for background.scripts.
export const BACKGROUND_PATH = "_generated_background_page.html";
