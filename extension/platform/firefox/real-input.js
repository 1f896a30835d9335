// Real input in Firefox: there is none. Firefox gives extensions no way to send the page the
// input a person's hand gives (no DevTools protocol for extensions), so every action is done
// with events a script sends (content/pointer-gestures.js), and the model is told so in each
// result where it matters (docs/firefox.md says which inputs cannot be given).

export const REAL_INPUT = false;

export class InputStopped extends Error {}

export const tabsUnderInput = () => [];

export async function giveInput(_tabId, _gesture, _check) {
  throw new InputStopped("this browser gives extensions no real input");
}
