// One turn as it crosses to Python (the run_turn_json entry point): the fields wire.js
// TURN_REQUEST declares, each taken from the service worker's run-turn message, where it is
// spelled in camelCase. A field wire.py adds crosses as soon as the service worker sends it.

import { TURN_REQUEST } from "../../shared/wire.js";

const inMessage = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase()); // attached_tabs -> attachedTabs

// What a field is when the message leaves it out: context is a selection and its page (marked
// as page content by Python); attached_* are what the user attached in the composer, read at
// the turn's start with no question while each tab shows the site it showed (attachments.py).
const LEFT_OUT = Object.freeze({ attached_tabs: [], mcp_servers: [], mcp_headers: {}, attached_images: [] });

export function turnRequest(message) {
  return Object.fromEntries(TURN_REQUEST.map((name) => [name, message[inMessage(name)] ?? LEFT_OUT[name] ?? null]));
}
