// The background context's address, as runtime messages report their sender (Firefox's
// version of extension/platform/chrome/contexts.js): the page Firefox makes for background.scripts.
export const BACKGROUND_PATH = "_generated_background_page.html";
