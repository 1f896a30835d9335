// Real input in Chrome: a gesture the user confirmed (content/real-input.js makes it) given to the
// tab through the DevTools protocol (chrome.debugger: Input.dispatchMouseEvent, dispatchKeyEvent,
// dispatchDragEvent), so the page gets what a person's hand gives: trusted events, :hover, user
// activation, a press held as long as it is held, the right button, keys that go down one by one.
//
// Fenced (docs/security.md, "Real input"): attached to the one tab the action is on, only while
// the gesture runs, detached on every path (done, refused, thrown, the page silent); before each
// press and release and all through a hold the content script checks the element the user saw
// is still the one under the pointer; the tab leaving its page, or the user pressing Cancel on
// Chrome's banner, stops the gesture there.

export const REAL_INPUT = true;

const PROTOCOL = "1.3";
const CHECK_EVERY_MS = 50;
const STEP_PX = 25; // a move is given in steps this long at most, as a hand passes every point
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// A tab the browser does not show (the agent's own tab behind the user's) draws no frames, and a
// pointer move given to it waits for one: about 1 s each. While a gesture runs, the tab is made to
// draw by a screencast of a few pixels, whose frames are acknowledged and thrown away unseen. A
// tab that is shown draws anyway: the screencast (and Page.enable for its frames) is left out there,
// 6 to 30 ms of an action on a page of 10,000 elements (bench/bench_controls.py).
const KEEP_DRAWING = { format: "jpeg", quality: 1, maxWidth: 8, maxHeight: 8 };

export class InputStopped extends Error {}

// The tabs TabAgent is giving input to now: one gesture at a time in a tab (two turns acting in
// the same tab would mix their presses), and what the red-team tests watch (on the worker's heap,
// by name: giveInput asks it too, which keeps it there in the bundled worker, scripts/build.py).
const underInput = new Set();
export const tabsUnderInput = () => [...underInput];

// check(end): null while the end's element is still the one on top, else why not (in words).
export async function giveInput(tabId, gesture, check) {
  const target = { tabId };
  if (tabsUnderInput().includes(tabId)) throw new Error("Nothing was done: another action is giving input to this tab now; try again once it is done.");
  const run = new GestureRun(target, check);
  chrome.tabs.onUpdated.addListener(run.onTabChange);
  chrome.debugger.onDetach.addListener(run.onDetach);
  chrome.debugger.onEvent.addListener(run.onEvent);
  try {
    await chrome.debugger.attach(target, PROTOCOL).catch((error) => {
      throw new Error(`Nothing was done: the browser would not let TabAgent give input in this tab (${error.message}).`);
    });
    run.attached = true;
    underInput.add(tabId);
    // A tab the user is not looking at has no focus, and the browser would drop its keys: while
    // the gesture runs it is given as focused (no window or tab is brought forward).
    await run.send("Emulation.setFocusEmulationEnabled", { enabled: true });
    if (!gesture.shown) {
      await run.send("Page.enable");
      await run.send("Page.startScreencast", KEEP_DRAWING);
    }
    for (const step of gesture.steps) await run.step(step);
    return run.dropped ? { events: "HTML drag and drop, as the browser's own" } : run.dragged ? { events: "pointer and mouse (down, moves, up), as the browser's own" } : {};
  } catch (error) {
    if (error instanceof InputStopped) error.partway = run.touched;
    throw error;
  } finally {
    chrome.tabs.onUpdated.removeListener(run.onTabChange);
    chrome.debugger.onDetach.removeListener(run.onDetach);
    chrome.debugger.onEvent.removeListener(run.onEvent);
    if (run.attached) await chrome.debugger.detach(target).catch(() => {}); // gone with its tab: nothing to detach
    underInput.delete(tabId);
  }
}

class GestureRun {
  constructor(target, check) {
    Object.assign(this, { target, check, attached: false, touched: false, dragged: false, dropped: false, stopped: null, at: null, pressed: null, dragData: null, dragging: false });
    // A stop answers a check still waiting on the page (a page that is leaving never answers).
    this.stopping = new Promise((resolve) => {
      this.stop = (why) => resolve((this.stopped ??= why));
    });
    this.onTabChange = (tabId, change) => {
      if (tabId === target.tabId && (change.url || change.status === "loading")) this.stop("the tab started loading another page");
    };
    this.onDetach = (source) => {
      if (source.tabId !== target.tabId) return;
      this.attached = false;
      this.stop("the input was cancelled from the browser's banner");
    };
    this.onEvent = (source, method, params) => {
      if (source.tabId !== target.tabId) return;
      if (method === "Input.dragIntercepted") this.dragData = params.data;
      if (method === "Page.screencastFrame") chrome.debugger.sendCommand(target, "Page.screencastFrameAck", { sessionId: params.sessionId }).catch(() => {});
    };
  }

  send(method, params) {
    if (this.stopped) throw new InputStopped(this.stopped);
    return chrome.debugger.sendCommand(this.target, method, params);
  }

  async checked(end) {
    const refused = this.stopped ?? (await Promise.race([this.check(end).catch((error) => error.message), this.stopping]));
    if (refused) throw new InputStopped(refused);
  }

  async step(step) {
    if (step.move) return this.moveTo(step.move, step.pressed);
    if (step.press) return this.press(step);
    if (step.release) return this.release(step);
    if (step.hold) return this.hold(step);
    if (step.key_down) this.touched = true;
    if (step.key_down) return this.send("Input.dispatchKeyEvent", { type: step.key_down.text ? "keyDown" : "rawKeyDown", ...step.key_down });
    if (step.key_up) return this.send("Input.dispatchKeyEvent", { type: "keyUp", ...step.key_up });
    if (step.check != null) return this.checked(step.check);
    return undefined;
  }

  async moveTo(to, pressed) {
    const from = this.at ?? to;
    const steps = Math.max(1, Math.min(40, Math.ceil(Math.hypot(to.x - from.x, to.y - from.y) / STEP_PX)));
    for (let i = 1; i <= steps; i++) {
      const point = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
      if (this.dragData) await this.dragTo(point);
      else await this.mouse("mouseMoved", point, pressed ? this.pressed : null);
      this.dragged ||= Boolean(pressed);
      this.at = point;
    }
  }

  async press({ press, button, count }) {
    if (button === "left" && count === 1) await this.send("Input.setInterceptDrags", { enabled: true });
    this.touched = true;
    await this.mouse("mousePressed", press, button, count);
    this.pressed = button;
  }

  async release({ release, button, count }) {
    if (this.dragData) {
      await this.send("Input.dispatchDragEvent", { type: "drop", ...release, data: this.dragData });
      [this.dragData, this.dropped] = [null, true];
    }
    await this.mouse("mouseReleased", release, button, count);
    this.pressed = null;
  }

  async hold({ hold, check }) {
    const until = Date.now() + hold;
    while (Date.now() < until) {
      await this.checked(check);
      await pause(Math.min(CHECK_EVERY_MS, until - Date.now()));
    }
  }

  // HTML drag and drop, once the browser started one (Input.dragIntercepted): the drag goes on as
  // drag events, as the browser's own drag does while a person's pointer moves.
  async dragTo(point) {
    if (!this.dragging) await this.send("Input.dispatchDragEvent", { type: "dragEnter", ...point, data: this.dragData });
    this.dragging = true;
    await this.send("Input.dispatchDragEvent", { type: "dragOver", ...point, data: this.dragData });
  }

  mouse(type, { x, y }, button, clickCount = 1) {
    const buttons = { left: 1, right: 2 }[button] ?? 0;
    return this.send("Input.dispatchMouseEvent", { type, x, y, button: button ?? "none", buttons, clickCount, pointerType: "mouse" });
  }
}
