// What runs first in TabAgent's content-script world of a page, before the content scripts of
// extension/content/ (Chrome's version: nothing; storage-access.js keeps Chrome's storage from
// content scripts already. Firefox's is extension/platform/firefox/first-in-pages.js).
export const FIRST_IN_EVERY_PAGE = [];
