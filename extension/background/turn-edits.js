// Changing a conversation's past: regenerate or edit a turn (it and every turn after it are
// replaced by a new turn; the agent continues from what came before), or delete one turn.

import * as conversations from "../shared/conversations.js";
import { loadSettings, whatIsMissing } from "../shared/settings.js";
import { startTurn } from "./turns.js";

export async function editTurn({ conversationId, turnId, text, overrides }) {
  const record = await conversations.loadConversation(conversationId);
  const turn = record?.turns.find((t) => t.id === turnId);
  if (!turn) throw new Error("That message is no longer in the conversation.");
  const { settings, apiKey } = await loadSettings();
  const missing = whatIsMissing(settings, apiKey); // checked first: a refused edit loses nothing
  if (missing) throw new Error(missing);
  await conversations.dropTurnsFrom(conversationId, turnId);
  return startTurn({ conversationId, text: text ?? turn.text, context: turn.context, overrides });
}

export function deleteTurn({ conversationId, turnId }) {
  return conversations.deleteTurn(conversationId, turnId);
}
