// The actions given as real input (platform/chrome/real-input.js), between the content script's
// two calls: it checks the plan the user confirmed and answers the gesture; the gesture is given
// to the tab (the content script checking, before each press and through each hold, that the
// element the user saw is still under the pointer); then it says what came of it (and makes the
// gesture's last check there, when it ends with one: a hover's). Where the
// browser has no real input (Firefox), the content script does the action itself.

import { REAL_INPUT, giveInput, InputStopped } from "../platform/chrome/real-input.js";

export { REAL_INPUT };

// inPage(name, args): runs a content-script tool in the same tab ({ ok, result | error }).
export async function withRealInput(tab, reply, inPage) {
  const { gesture, ...described } = reply.result ?? {};
  if (!reply.ok || !gesture) return reply;
  const check = async (end) => {
    const answer = await inPage("input_check", { id: gesture.id, end });
    return answer.ok ? answer.result.refused : answer.error;
  };
  let given;
  try {
    given = await giveInput(tab.id, gesture, check);
  } catch (error) {
    return { ok: false, error: stoppedInWords(error, described.summary), from_page: error instanceof InputStopped };
  }
  // (with the gesture's last check, when it ends with one: a hover's, once the pointer is there)
  const done = await inPage("input_done", { id: gesture.id, check: gesture.check_when_done ?? null }).catch(() => null);
  if (done?.ok && done.result.refused) {
    const stopped = Object.assign(new InputStopped(done.result.refused), { partway: gesture.steps.some(pressing) });
    return { ok: false, error: stoppedInWords(stopped, described.summary), from_page: true };
  }
  const after = done?.ok ? done.result : { page: "replaced: it navigated after the input" };
  return { ...reply, result: { ...described, ...given, ...after } };
}

const pressing = (step) => Boolean(step.press || step.key_down);

function stoppedInWords(error, summary) {
  if (!(error instanceof InputStopped)) return error.message; // attaching refused, or the page went silent
  const what = error.partway ? "TabAgent stopped the input partway (what it pressed before that was pressed)" : "nothing was pressed";
  return `The user allowed “${summary}”, but ${error.message}: ${what}. Look at the page before trying again.`;
}
