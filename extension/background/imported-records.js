// What an imported conversation may bring with it: only what the user sees. A file is
// untrusted (design.md), and two parts of a record act on the agent without showing on the
// screen: its memory (what the model is sent at the next turn) and its own settings (the
// instructions, temperature and reply length, kept in a folded part of the panel). A memory
// that says anything the turns do not show is left out (one compacted to fit a window, or with
// the model's notes, is made anew from what the turns show: imported-memory.js keptMemory), and
// so are the file's settings; a memory that leaves out anything the turns show is made anew from
// them too (else the model would know less than the user sees). The user is told what was left
// out of which conversation, or remade: in the import's notice, and above the conversation's
// turns (record.importNotes, made here: a file's own notes never stay).

import { t } from "../shared/ui/i18n.js";
import { keptMemory } from "../shared/import-checks/imported-memory.js";
import { CONVERSATION_OVERRIDES } from "../shared/settings/settings.js";
import { inOneSpelling } from "../shared/settings/settings-migration.js";

// The words the panel labels each setting with (sidepanel.html, "This conversation").
const OVERRIDE_LABELS = { system_prompt: "conversationInstructions", temperature: "temperature", max_output_tokens: "longestReply" };

const titleOf = (record) => record.title.slice(0, 60);

// The memory kept, made anew from the screen, or left out: with none the agent starts afresh,
// and no turn has steps in it any more (turn-edits count on memoryAt to take a turn back out).
function withMemoryShown(record, notes, given) {
  const kept = keptMemory(record, given);
  if (kept.rebuilt && kept.leftOut) notes.push(t("importMemoryIncomplete", titleOf(record), kept.reason));
  else if (kept.rebuilt && kept.takenOver) notes.push(t("importMemoryTakenOver", titleOf(record)));
  else if (kept.rebuilt) notes.push(t("importMemoryRebuilt", titleOf(record)));
  else if (kept.leftOut) notes.push(t("importMemoryIncompleteLeftOut", titleOf(record), kept.reason));
  else if (kept.reason) notes.push(t("importMemoryLeftOut", titleOf(record), kept.reason));
  return kept.record;
}

// The settings a record's overrides would change (settings.js, withOverrides), in a file from
// this version or an earlier one; anything else in them never applied, and goes without a word.
function overridden(record) {
  const overrides = inOneSpelling(record.overrides);
  return CONVERSATION_OVERRIDES.filter((name) => overrides[name] !== "" && overrides[name] !== null && overrides[name] !== undefined);
}

function withoutOverrides(record, notes) {
  if (record.overrides === undefined) return record;
  const names = overridden(record);
  if (names.length) notes.push(t("importOverridesLeftOut", titleOf(record), names.map((name) => t(OVERRIDE_LABELS[name])).join(", ")));
  return { ...record, overrides: {} };
}

// A file cannot say TabAgent ran it on a schedule: only a run of the user's own schedule is
// marked so (background/scheduled-runs.js). Schedules themselves are never imported.
function withoutScheduleMark(record, notes) {
  if (record.scheduled === undefined) return record;
  notes.push(t("importScheduledLeftOut", titleOf(record)));
  const kept = { ...record };
  delete kept.scheduled;
  return kept;
}

function withNotes(record, notes) {
  const kept = { ...record };
  delete kept.importNotes; // a file's own would speak in TabAgent's name
  return notes.length ? { ...kept, importNotes: notes } : kept;
}

// The records as they may be stored, and the notes saying what was left out (checked records:
// conversation-schema.js). given[i]: the message each turn of records[i] had its agent given, as
// Python makes it again from the turn (imports.js messagesGiven); none when absent.
export function onlyWhatIsShown(records, given = []) {
  const notes = [];
  const safe = records.map((record, i) => {
    const own = [];
    const kept = withoutScheduleMark(withoutOverrides(withMemoryShown(record, own, given[i] ?? []), own), own);
    notes.push(...own);
    return withNotes(kept, own);
  });
  return { records: safe, notes };
}
