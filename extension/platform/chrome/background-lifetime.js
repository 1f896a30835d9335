// How long the background lives while a turn runs (Chrome's version; Firefox's event page needs
// more: extension/platform/firefox/background-lifetime.js). Chrome runs the turn in the offscreen
// document, which lives on when Chrome stops this worker, and the worker starts again for the
// turn's next message: nothing to hold here.
export function keepBackgroundWhile(_turnsRunning) {}
