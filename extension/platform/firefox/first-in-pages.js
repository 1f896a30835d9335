// What runs first in TabAgent's content-script world of a page (Firefox's version of
// extension/platform/chrome/first-in-pages.js): Firefox cannot keep storage.local from content scripts,
// which hold the conversations there, so the storage API is removed from that world before
// any of our content scripts meets the page.
export const FIRST_IN_EVERY_PAGE = ["extension/platform/firefox/no-storage-in-pages.js"];
