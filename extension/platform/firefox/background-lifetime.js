// How long the background lives while a turn runs (Firefox's version of
// extension/platform/chrome/background-lifetime.js). Firefox stops an event page after
// extensions.background.idle.timeout (30 s) without an extension event or an API call made by
// the page itself, even while a fetch is under way; and here the page holds Python, so a stop
// would end the turn. An open runtime port does not count, nor a pending listener (that buys
// one more period, once). What does count is a call into the browser's own process from the
// background page (Firefox's "parentApiCall" reset), so while any turn runs the page makes one
// such call, cheap and without effect, every BEAT_MS: well inside Firefox's 30 s. It stops as
// soon as no turn runs, and Firefox's timer then counts from the last one as usual.

const BEAT_MS = 1000;
let beating = false;
let turnStarted = false; // since the last beat: its turn may be missing from an answer already on its way

// turnsRunning(): a promise of whether any turn still runs (asked again after every beat).
export function keepBackgroundWhile(turnsRunning) {
  turnStarted = true;
  if (beating) return;
  beating = true;
  beatWhile(turnsRunning);
}

// Ends in the same step as the last answer, so a turn that starts later beats again.
async function beatWhile(turnsRunning) {
  do {
    turnStarted = false;
    // getPlatformInfo is answered by the parent process, never by the page's own copy of the API.
    await browser.runtime.getPlatformInfo().catch(() => {}); // a failed beat must not end the next ones
    await new Promise((resolve) => setTimeout(resolve, BEAT_MS));
  } while ((await turnsRunning().catch(() => false)) || turnStarted);
  beating = false;
}
