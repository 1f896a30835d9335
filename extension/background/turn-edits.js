// Changing a conversation's past: regenerate or edit a turn (it and every turn after it are
// replaced by a new turn; the agent continues from what came before), or delete one turn.

import * as conversations from "../shared/storage/conversations.js";
import { startTurn } from "./turn-records.js";

// The turns go in the same change that adds the new one (conversations.addTurn), so an edit
// refused (settings missing, another panel's turn running) loses nothing.
export async function editTurn({ conversationId, turnId, text, overrides, windowId }) {
  const record = await conversations.loadConversation(conversationId);
  const turn = record?.turns.find((t) => t.id === turnId);
  if (!turn) throw new Error("That message is no longer in the conversation.");
  return startTurn({ conversationId, text: text ?? turn.text, context: turn.context, overrides, replacing: turnId, windowId });
}

export function deleteTurn({ conversationId, turnId }) {
  return conversations.deleteTurn(conversationId, turnId);
}
