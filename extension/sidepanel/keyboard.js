// The panel's keys: Enter sends, Shift+Enter adds a line, Esc stops a running turn, Up in
// an empty box edits the last message. (The shortcut that opens and closes the panel is
// the service worker's: platform/chrome/side-panel-shortcut.js; Firefox's is its own.)

export function handleKeys({ prompt, running, stop, editLast }) {
  prompt.addEventListener("keydown", (event) => {
    if (event.isComposing) return;
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      prompt.form.requestSubmit();
    } else if (event.key === "ArrowUp" && prompt.value === "" && editLast()) {
      event.preventDefault();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && running() && !event.defaultPrevented && !document.querySelector("dialog[open]")) {
      event.preventDefault();
      stop();
    }
  });
}
