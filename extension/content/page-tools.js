// The page tools' entry point: run(name, args), over every tool the modules beside this one
// define (each exports its `tools`). injected.js hands it to the service worker.
//
// run() never throws: it returns {ok: true, result} with a JSON-able result, or
// {ok: false, error} with a sentence a person understands (a promise of one, for wait_for), and
// for a part the page does not have, no_such_part: that in numbers (tool-arguments.js NoSuchPart).

import { tools as actionTools } from "./actions.js";
import { NoSuchPart, PageToolError, readArgs } from "./tool-arguments.js";
import { tools as controlTools } from "./controls.js";
import { tools as placeTools } from "./places.js";
import { tools as queryTools } from "./query.js";
import { tools as readingTools } from "./read-page.js";
import { tools as screenshotTools } from "./screenshot-layout.js";
import { tools as searchTools } from "./search.js";
import { tools as selectionTools } from "./selection.js";
import { tools as tableTools } from "./tables.js";
import { tools as waitingTools } from "./waiting.js";

// (In the order their names are listed to the model when it asks for one that is not there.)
const TOOLS = Object.freeze({
  ...tableTools, ...readingTools, ...selectionTools, ...searchTools, ...queryTools, ...controlTools, ...placeTools,
  ...actionTools, ...waitingTools, ...screenshotTools,
});

// options.planId: for an action, the plan describe_action held for the user's consent.
export function run(name, args, options = {}) {
  const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : null;
  if (!tool) {
    return { ok: false, error: `There is no page tool named “${name}”; the page tools are: ${Object.keys(TOOLS).join(", ")}.` };
  }
  const failed = (error) => (error instanceof PageToolError
    ? { ok: false, error: error.message, ...(error instanceof NoSuchPart && { no_such_part: error.part }) }
    : { ok: false, error: `${name} failed on this page: ${error?.message || error}` });
  try {
    const result = tool.run(readArgs(name, tool.params, args), options);
    // A tool that waits (wait_for) answers later: executeScript waits for the promise.
    if (result instanceof Promise) return result.then((value) => ({ ok: true, result: value }), failed);
    return { ok: true, result };
  } catch (error) {
    return failed(error);
  }
}
