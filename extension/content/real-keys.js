// A key press as a keyboard gives it (real input: real-input.js): each modifier of a chord goes
// down as a key of its own before the key and comes up after it, as a person's fingers do, and
// the key can be held for a while. In the DevTools protocol's words (Input.dispatchKeyEvent).

// The modifiers' keys, in the order a person presses them, and their bit in `modifiers`.
const MODIFIER_KEYS = [
  { held: "ctrlKey", key: "Control", code: "ControlLeft", keyCode: 17, bit: 2 },
  { held: "altKey", key: "Alt", code: "AltLeft", keyCode: 18, bit: 1 },
  { held: "shiftKey", key: "Shift", code: "ShiftLeft", keyCode: 16, bit: 8 },
  { held: "metaKey", key: "Meta", code: "MetaLeft", keyCode: 91, bit: 4 },
];
const NAMED = { Enter: [13, "Enter", "\r"], Escape: [27, "Escape"], Tab: [9, "Tab"], Backspace: [8, "Backspace"],
  Delete: [46, "Delete"], " ": [32, "Space", " "], ArrowUp: [38, "ArrowUp"], ArrowDown: [40, "ArrowDown"],
  ArrowLeft: [37, "ArrowLeft"], ArrowRight: [39, "ArrowRight"], Home: [36, "Home"], End: [35, "End"],
  PageUp: [33, "PageUp"], PageDown: [34, "PageDown"], Control: [17, "ControlLeft"], Shift: [16, "ShiftLeft"],
  Alt: [18, "AltLeft"], Meta: [91, "MetaLeft"] };
// The editing command a chord runs in a text field (Chrome runs them for the keyboard, not for
// the protocol's key events unless named).
const COMMANDS = { a: "selectAll", c: "copy", x: "cut", v: "paste", z: "undo", y: "redo" };

function keyParams(key) {
  if (Object.hasOwn(NAMED, key)) {
    const [keyCode, code, text] = NAMED[key];
    return { key, code, windowsVirtualKeyCode: keyCode, ...(text && { text, unmodifiedText: text }) };
  }
  const upper = key.toUpperCase();
  const code = /^[A-Z]$/.test(upper) ? `Key${upper}` : /^[0-9]$/.test(key) ? `Digit${key}` : "";
  return { key, code, windowsVirtualKeyCode: key.length === 1 ? upper.charCodeAt(0) : 0, ...(key.length === 1 && { text: key, unmodifiedText: key }) };
}

// The steps of a key press: modifiers down, the key down (held `heldMs`), up, modifiers up.
function keyInput(plan, heldMs) {
  const { key, held } = plan.keys;
  const pressed = MODIFIER_KEYS.filter((m) => held[m.held]);
  let modifiers = 0;
  const steps = [];
  for (const m of pressed) {
    modifiers |= m.bit;
    steps.push({ key_down: { key: m.key, code: m.code, windowsVirtualKeyCode: m.keyCode, modifiers } });
  }
  const params = keyParams(key);
  const typing = params.text && !(modifiers & (2 | 4)); // Control or Meta: a shortcut, no character
  if (!typing) [params.text, params.unmodifiedText] = [undefined, undefined];
  const command = modifiers & (2 | 4) ? COMMANDS[key.toLowerCase()] : null;
  steps.push({ check: 0 }, { key_down: { ...params, modifiers, ...(command && { commands: [command] }) } });
  if (heldMs) steps.push({ hold: heldMs, check: 0 });
  steps.push({ key_up: { ...params, text: undefined, unmodifiedText: undefined, modifiers } });
  for (const m of pressed.reverse()) {
    modifiers &= ~m.bit;
    steps.push({ key_up: { key: m.key, code: m.code, windowsVirtualKeyCode: m.keyCode, modifiers } });
  }
  return steps;
}

export { keyInput };
