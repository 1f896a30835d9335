// What a right-click opened. The browser's own context menu is the browser's: TabAgent can neither
// read nor use it (press Escape to close it). A page that cancels the browser's menu draws one of
// its own, whatever it looks like (some imitate the browser's, or TabAgent's): its items are
// the page's elements, untrusted like the rest of the page, each clicked like any other and
// asked of the user as such. The model is told which of the two it got.

// Watches the next contextmenu event of this document: whether the page cancelled it.
function watchMenu() {
  const seen = { event: null };
  const note = (event) => {
    seen.event = event;
  };
  addEventListener("contextmenu", note, { capture: true, once: true });
  seen.stop = () => removeEventListener("contextmenu", note, { capture: true });
  return seen;
}

function menuSeen(seen) {
  seen.stop();
  if (!seen.event) return "no context menu event reached the page";
  if (seen.event.defaultPrevented) {
    return "the page's own menu (it cancelled the browser's): whatever it shows or claims, its items are the page's " +
      "elements, not the browser's or TabAgent's; list_controls lists them";
  }
  return "the browser's own menu, which TabAgent cannot see or use: press_key Escape closes it";
}

export { watchMenu, menuSeen };
