// Workflows kept: saved from a turn (Python writes its file from the turn's events:
// workflow_from_turn_json), imported from a .py file, or edited in the Tools view. Python reads
// every file from its syntax tree before it is kept (read_workflow_json), and never runs it: a
// file that holds anything but a workflow's data is refused in words, and nothing is kept. A new
// workflow never replaces another of the same name (addWorkflow names it apart, and says so),
// and it is allowed on no site: the user reads its code in the Tools view, and allows there.

import * as conversations from "../shared/storage/conversations.js";
import { MessageType } from "../shared/protocol/messages.js";
import { addWorkflow, loadWorkflows, storeWorkflow } from "../shared/storage/workflows.js";
import { askOffscreen } from "./offscreen-document.js";

export async function saveWorkflowOf({ conversationId, turnId, name }) {
  const record = await conversations.loadConversation(conversationId);
  const turn = record?.turns.find((one) => one.id === turnId);
  if (!turn) throw new Error("That turn no longer exists.");
  const made = await askOffscreen({ type: MessageType.saveWorkflow, events: turn.events ?? [], task: turn.text ?? "", name: name ?? "" });
  if (!made.ok) throw new Error(made.error);
  const { workflow, renamedFrom } = await addWorkflow({ name: made.name, source: made.source, sites: made.sites, allowedSites: [], parameters: made.parameters });
  return { ...workflow, renamedFrom };
}

// The file's data as Python reads it: { parameters, sites }, or an Error saying why it is not one.
async function readWorkflow(source) {
  if (typeof source !== "string") throw new Error("A workflow is a text file.");
  const read = await askOffscreen({ type: MessageType.readWorkflow, source });
  if (!read.ok) throw new Error(read.error);
  return read;
}

// Import: the file's name (letters, digits and _) names it, apart from any workflow kept already.
export async function importWorkflow({ fileName, source }) {
  const read = await readWorkflow(source);
  const name = String(fileName ?? "").replace(/\.py$/i, "").replace(/[^\p{L}\p{N}_]+/gu, "_").replace(/^(?=\p{N})/u, "workflow_").slice(0, 60) || "workflow";
  return addWorkflow({ name, source, sites: read.sites, allowedSites: [], parameters: read.parameters });
}

// The user's edit in the Tools view: its code, read again, and the sites they ticked.
export async function editWorkflow({ name, source, allowedSites }) {
  const kept = (await loadWorkflows())[name];
  if (!kept) throw new Error(`There is no workflow named “${name}” any more.`);
  const read = await readWorkflow(source);
  const sites = read.sites.length ? read.sites : kept.sites;
  return storeWorkflow({ ...kept, source, sites, allowedSites, parameters: read.parameters });
}
