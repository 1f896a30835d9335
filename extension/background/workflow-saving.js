// Save as workflow: the service worker reads the finished turn from storage, Python writes it as
// a Python user tool (workflow_from_turn_json), and it is kept with the user's workflows. It is
// not allowed on any site yet: the user reads its code in the Tools view, and allows there.

import * as conversations from "../shared/storage/conversations.js";
import { MessageType } from "../shared/protocol/messages.js";
import { storeWorkflow } from "../shared/storage/workflows.js";
import { askOffscreen } from "./offscreen-document.js";

export async function saveWorkflowOf({ conversationId, turnId, name }) {
  const record = await conversations.loadConversation(conversationId);
  const turn = record?.turns.find((one) => one.id === turnId);
  if (!turn) throw new Error("That turn no longer exists.");
  const made = await askOffscreen({ type: MessageType.saveWorkflow, events: turn.events ?? [], task: turn.text ?? "", name: name ?? "" });
  if (!made.ok) throw new Error(made.error);
  return storeWorkflow({ name: made.name, source: made.source, sites: made.sites, allowedSites: [], parameters: made.parameters });
}
