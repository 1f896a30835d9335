// Importing a JSON export, whatever its size: the panel sends the file's text in parts
// (one runtime message may not exceed 64 MiB; an export of a long history does), and the
// last message applies them. The parts wait here, in memory: if the worker stops meanwhile
// they are gone and the import says so, having stored nothing.

import { checkConversations } from "../shared/conversation-schema.js";
import { importConversations } from "../shared/conversations.js";
import { fromJson } from "../shared/export.js";

const partsOf = new Map(); // import id -> the file's text so far, in parts

export function receiveImportPart({ importId, text }) {
  if (typeof importId !== "string" || typeof text !== "string") throw new Error("an import part needs an importId and text");
  const parts = partsOf.get(importId) ?? [];
  parts.push(text);
  partsOf.set(importId, parts);
  return { received: parts.length };
}

// { importId } applies the parts received; { conversations } the records themselves.
export async function applyImport({ importId, conversations }) {
  let records = conversations;
  if (importId !== undefined) {
    const parts = partsOf.get(importId);
    partsOf.delete(importId);
    if (!parts) throw new Error("The import was interrupted (the extension restarted): nothing was imported. Please try again.");
    records = fromJson(parts.join(""));
  }
  return importConversations(checkConversations(records));
}
