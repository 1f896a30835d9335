// Importing a JSON export, whatever its size: the panel sends the file's text in parts
// (one runtime message may not exceed 64 MiB; an export of a long history does), and the
// last message applies them. The parts wait here, in memory: if the worker stops meanwhile
// they are gone and the import says so, having stored nothing.

import { checkConversations } from "../shared/import-checks/conversation-schema.js";
import { importConversations } from "../shared/storage/conversations.js";
import { fromJson } from "../shared/storage/export.js";
import { onlyWhatIsShown } from "./imported-records.js";
import { MessageType } from "../shared/protocol/messages.js";
import { askOffscreen } from "./offscreen-document.js";

const partsOf = new Map(); // import id -> the file's text so far, in parts
const OWN_PAGES = chrome.runtime.getURL("");

// Only the extension's own pages import (the history view); never a content script.
function fromOwnPage(sender) {
  if (sender?.id !== chrome.runtime.id || !String(sender.url ?? "").startsWith(OWN_PAGES)) {
    throw new Error("conversations are imported only from TabAgent's own pages");
  }
}

export function receiveImportPart({ importId, text }, sender) {
  fromOwnPage(sender);
  if (typeof importId !== "string" || typeof text !== "string") throw new Error("an import part needs an importId and text");
  const parts = partsOf.get(importId) ?? [];
  parts.push(text);
  partsOf.set(importId, parts);
  return { received: parts.length };
}

// { importId } applies the parts received; { conversations } the records themselves. Resolves
// to how many were imported and the notes saying what of them was left out.
export async function applyImport({ importId, conversations }, sender) {
  fromOwnPage(sender);
  let records = conversations;
  if (importId !== undefined) {
    const parts = partsOf.get(importId);
    partsOf.delete(importId);
    if (!parts) throw new Error("The import was interrupted (the extension restarted): nothing was imported. Please try again.");
    records = fromJson(parts.join(""));
  }
  const checked = checkConversations(records);
  const { records: safe, notes } = onlyWhatIsShown(checked, await messagesGiven(checked));
  return { imported: await importConversations(safe), notes };
}

// The message each turn's agent was given, where it holds page content (a selection, what was
// attached): Python makes it again from what the turn shows, with the marking only it makes, and
// the memory is held to it (import-checks/imported-memory.js messageGiven). Asked only when a turn
// needs it; when Python cannot answer, such a turn's memory is not kept, as before.
async function messagesGiven(records) {
  const needs = (turn) => Boolean(turn?.context?.selection) || Boolean(turn?.attachments);
  if (!records.some((record) => record.turns.some(needs))) return [];
  const turns = records.flatMap((record) => record.turns.map((turn) => (needs(turn)
    ? { text: turn.text, context: turn.context ?? null, attachments: turn.attachments ?? null } : null)));
  try {
    const { messages } = await askOffscreen({ type: MessageType.messagesGiven, turns });
    let at = 0;
    return records.map((record) => record.turns.map(() => messages[at++] ?? null));
  } catch (error) {
    console.warn("TabAgent: Python could not make the imported turns' messages again:", error.message);
    return [];
  }
}
