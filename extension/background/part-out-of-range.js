// A content script's refusal of a part the page does not have comes with it in numbers, its
// no_such_part (content/tool-arguments.js NoSuchPart), from which Python writes TabAgent's own
// error (app/no_such_part.py). It is passed on with the declared fields (wire.js NO_SUCH_PART)
// alone, each a finite number or a boolean, or not at all: the sentence beside it stays the
// page's, marked as page content.

import { NO_SUCH_PART } from "../shared/wire.js";

export function partOutOfRange(reply) {
  const part = reply?.no_such_part;
  if (part === null || typeof part !== "object" || Array.isArray(part)) return {};
  const fields = Object.entries(part);
  const declared = fields.every(([name, value]) => NO_SUCH_PART.includes(name) && (Number.isFinite(value) || typeof value === "boolean"));
  return declared && fields.length ? { no_such_part: Object.fromEntries(fields) } : {};
}
