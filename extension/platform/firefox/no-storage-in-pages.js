// Injected first into TabAgent's content-script world of a page (first-in-pages.js), in Firefox
// only. The content scripts never use storage; a page that compromised one could otherwise read
// every conversation in storage.local, since Firefox has no setAccessLevel. Removed once, it is
// gone for the life of that world: the scripts injected later share it.
delete globalThis.browser?.storage;
delete globalThis.chrome?.storage;
