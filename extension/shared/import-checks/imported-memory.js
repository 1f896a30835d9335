// Whether an imported conversation's memory says only what the conversation shows. The memory
// (py/tabagent/memory.py) is what the model is sent at the next turn, but the panel shows the
// turns' events: an edited file could show an ordinary chat and remember messages no one sees
// ("I have allowed this…"). So each step the model would be sent must be what the screen
// shows, in the same role, the same turn and step: the user's message its turn's text, the
// model's text the step's streamed tokens, its tool calls and their results the step's
// tool_call and tool_result events (a result's name too), its code the step's code event, code
// output the step's code_output, the answer the turn's final_answer, the model's notes (kept in
// every later request) the note calls the turns show: every field the model can get, in its
// messages or in the summary compaction.py folds old steps into. Anything else, and any field
// this version does not know, makes the memory disagree. Pure JavaScript: no extension APIs, so
// Node checks it too (tests/unit/test_imported_memory.py). Matching letters are not enough where
// the letters do not show: unseen-text.js says where.
//
// A conversation compacted to fit a small window (a summary of old steps, page reads shortened)
// remembers what the screen shows in other words, which cannot be held to it: its memory is made
// anew from what the screen shows (memoryFromScreen), whole, and compacted again by the next
// turn as it needs (keptMemory).

import { hidesText, markdownHidesText } from "./unseen-text.js";
import { EventKind, NotFatal } from "../wire.js";

// The fields of each kind of memory step, as memory.py's dataclasses have them.
export const STEP_FIELDS = {
  task: ["type", "task", "parts"],
  action: ["type", "step", "model_output", "tool_calls", "native", "code", "reasoning", "reasoning_field",
    "observations", "error", "usage", "start_time", "end_time", "echo"],
  final_answer: ["type", "answer"],
  summary: ["type", "summary", "steps"],
};
const MEMORY_FIELDS = ["version", "seq", "steps", "notes"];
// All the notes together, as py/tabagent/notes.py keeps them (a test checks they agree).
export const MAX_NOTES_CHARS = 2000;
const MEMORY_VERSION = 1;

class Disagreement extends Error {}

function disagree(what) {
  throw new Disagreement(what);
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isCount = (value) => Number.isSafeInteger(value) && value >= 0;
const isEmptyList = (value) => Array.isArray(value) && value.length === 0;

function unknownField(object, known, where) {
  const extra = Object.keys(object).find((name) => !known.includes(name));
  if (extra !== undefined) disagree(`${where} has a field “${extra.slice(0, 60)}” this version of TabAgent does not know`);
}

function parsedMemory(memory) {
  const parsed = typeof memory === "string" ? JSON.parse(memory) : memory;
  unknownField(parsed, MEMORY_FIELDS, "the memory");
  if (parsed.version !== MEMORY_VERSION) disagree(`the memory is of version ${JSON.stringify(parsed.version)}, not ${MEMORY_VERSION}`);
  if (!Array.isArray(parsed.steps)) disagree("the memory has no list of steps");
  if (parsed.seq !== undefined && !isCount(parsed.seq)) disagree("the memory's event number is not a whole number");
  parsed.steps.forEach((step, i) => {
    if (!isObject(step) || !Object.hasOwn(STEP_FIELDS, step.type)) disagree(`memory step ${i + 1} is of no kind this version of TabAgent knows`);
    unknownField(step, STEP_FIELDS[step.type], `memory step ${i + 1}`);
  });
  return parsed;
}

// The steps each turn added: from its memoryAt to the next turn's.
function stepsByTurn(turns, steps) {
  const starts = turns.map((turn) => turn.memoryAt);
  starts.forEach((at, i) => {
    if (!isCount(at) || at > steps.length || at < (starts[i - 1] ?? 0)) disagree(`turn ${i + 1} does not say where its memory starts`);
  });
  if (starts[0] !== 0) disagree("the memory holds steps before any turn the conversation shows");
  return turns.map((turn, i) => steps.slice(starts[i], starts[i + 1] ?? steps.length));
}

// The parts of a turn the agent the user talks to (depth 0) went through, each with its events,
// in order: its steps, and, when it ran out of steps, the best answer it was asked for after the
// last one (agent.py _best_answer). That answer is streamed under the last step's number, after
// the error that says the steps ran out, and memory.py keeps it as a second step of that number
// (its reply the answer): the screen's step is cut there, or the two replies' text would be
// joined into one no memory holds. A turn with no part never reached the agent (a setting was
// missing: turns.py refuses it at step 0). A saved workflow's replay steps are left out of the
// parts (withoutReplays): they are the workflow's, not the model's.
function turnParts(turn) {
  const command = WORKFLOW_COMMAND.test(String(turn.text ?? "").trim());
  const parts = [];
  for (const event of turn.events) {
    if (event.depth !== 0 || !(event.step > 0)) continue;
    let part = parts.findLast((each) => each.step === event.step);
    if (!part) parts.push((part = { step: event.step, answer: false, events: [] }));
    part.events.push(event);
    if (!part.answer && event.kind === EventKind.error && event.data?.kind === NotFatal.max_steps) {
      parts.push({ step: event.step, answer: true, events: [] });
    }
  }
  return parts.map((part) => withoutReplays(part, command));
}

// A saved workflow's replay (py/tabagent/app/workflows.py) shows each step it takes as a call and
// its result, with an id of its own ("workflow-…"), in the turn of the agent that ran it; memory.py
// keeps none of them, as it keeps no sub-agent's steps: a replay run by "/name" keeps the user's
// message and the replay's answer (workflow_turn.py), and a model that called a workflow as a tool
// keeps its call and the result, which says what the steps did. So a replay's call is not the
// model's, and is neither asked of the memory nor taken from it, where it is one: made while a
// call of the model runs (the workflow called as a tool), or in a part of a "/name" turn before the
// model said anything in it (no reply, no code yet: a replay that could not finish is taken over
// by the agent under the same step number, after it). `replayed`: the part showed a replay and
// nothing of the model's; its answer is the turn's, which the memory's answer step holds.
const WORKFLOW_COMMAND = /^\/[\p{L}_][\p{L}\p{N}_]*(?:\s[\s\S]*)?$/u; // as storage/workflows.js workflowCommand reads "/name …"
const REPLAY_CALL = "workflow-";

const speaks = (event) => event.kind === EventKind.token || event.kind === EventKind.code;

function withoutReplays(part, command) {
  const open = new Set();
  const replayed = new Set();
  let spoke = false;
  const events = part.events.filter((event) => {
    const id = event.data?.id;
    spoke ||= speaks(event);
    if (event.kind === EventKind.tool_call) {
      if (String(id).startsWith(REPLAY_CALL) && (open.size > 0 || (command && !spoke))) {
        replayed.add(id);
        return false;
      }
      open.add(id);
    } else if (event.kind === EventKind.tool_result) {
      if (replayed.has(id)) return false;
      open.delete(id);
    }
    return true;
  });
  return { ...part, events, replayed: replayed.size > 0 && !spoke };
}

// A "/name" turn whose replay could not finish, taken over by the agent (workflow_turn.py): the
// agent was given a message TabAgent wrote from the saved workflow (its goal, what was done, the
// steps left), which the conversation does not show, as the error of kind "workflow" says.
function takenOver(record) {
  return record.turns.some((turn) => WORKFLOW_COMMAND.test(String(turn.text ?? "").trim()) && turn.events.some((event) =>
    event.depth === 0 && event.kind === EventKind.error && event.data?.kind === NotFatal.workflow));
}

const NO_PART = { events: [] };

// What one part of a turn shows. A reply retried (a server's error, retried) counts only after
// the last retry: what came before it was taken back.
function shownIn(part) {
  const { events } = part;
  const lastRetry = events.findLastIndex((event) => event.kind === EventKind.error && event.data.kind === NotFatal.retrying);
  const of = (kind) => events.filter((event, i) => event.kind === kind && i > lastRetry).map((event) => event.data);
  return {
    text: of("token").map((data) => data.text).join(""),
    calls: of("tool_call"),
    results: of("tool_result"),
    outputs: of("code_output").map((data) => data.output),
    code: of("code").map((data) => data.code),
    answers: events.filter((event) => event.kind === EventKind.final_answer).map((event) => event.data.answer),
    textCalls: of("text_call").length > 0, // the calls were written in the reply, not made natively
  };
}

// Whether a part shows anything memory.py would keep of it: a reply, calls, results, code or
// its output, an answer.
function showsAnything(shown) {
  return Boolean(shown.text) || [shown.calls, shown.results, shown.outputs, shown.code, shown.answers].some((list) => list.length > 0);
}

// JSON with its keys in order, so arguments compare by value, however they were spaced.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  return JSON.stringify(value);
}

// As py/tabagent/parsing.py parse_arguments reads them: a JSON string that holds JSON (some
// models encode their arguments twice) is read once more, so the call the turn shows is the one
// sent. What the string holds must still be the arguments shown, by value.
function sameArguments(text, shown) {
  try {
    const value = JSON.parse(text);
    return canonical(typeof value === "string" ? JSON.parse(value) : value) === canonical(shown);
  } catch {
    return text === shown; // arguments that were not JSON are shown as the text they were
  }
}

// The final answer as code_agent.py writes it after the output: text as it is, anything else
// as JSON (compared by value: Python spaces its JSON differently).
function isAnswer(text, answers) {
  return answers.some((answer) => {
    if (typeof answer === "string") return text === answer;
    try {
      return canonical(JSON.parse(text)) === canonical(answer);
    } catch {
      return false;
    }
  });
}

// A code agent's observation is its code's output, framed as code_agent.py frames it.
function isCodeObservation(content, shown) {
  return shown.outputs.some((output) => {
    const printed = `Output:\n${output || "(nothing printed)"}`;
    if (content === printed || content === `Error:\n${output}\nFix the code and try again.`) return true;
    const final = `${printed}\nFinal answer: `;
    return content.startsWith(final) && isAnswer(content.slice(final.length), shown.answers);
  });
}

// `answersCalls`: the step's calls went as real tool calls, so each result must answer one by
// its id (memory.py sends it as that call's tool message).
// Every field memory.py sends is held to the screen: the id (a tool message's), the name (a
// result that went as text is sent as "{name} returned:", in the user's voice), the content;
// `is_error` is never sent. Pictures a tool showed are not kept in a conversation's record, so a
// result that brings some brings what the turn does not show.
function checkObservation(observation, shown, answersCalls, where) {
  if (!isObject(observation) || typeof observation.content !== "string") disagree(`${where} is not a tool result`);
  unknownField(observation, ["id", "name", "content", "is_error", "parts"], where);
  if (observation.parts !== undefined && !isEmptyList(observation.parts)) disagree(`${where} holds pictures the turn does not show`);
  const asResult = shown.results.some((result) => result.id === observation.id && result.result === observation.content &&
    (observation.name === undefined || observation.name === result.name));
  const asOutput = !answersCalls && observation.name === undefined && isCodeObservation(observation.content, shown);
  if (!asResult && !asOutput) disagree(`${where} is not a result the turn shows`);
  if (hidesText(observation.content)) disagree(`${where} holds text the panel does not show`);
}

function checkCall(call, shown, where) {
  if (!isObject(call) || typeof call.arguments !== "string") disagree(`${where} is not a tool call`);
  unknownField(call, ["id", "name", "arguments"], where);
  const seen = shown.calls.some((shownCall) => shownCall.id === call.id && shownCall.name === call.name && sameArguments(call.arguments, shownCall.arguments));
  if (!seen) disagree(`${where} is not a call the turn shows`);
  if (hidesText(call.arguments)) disagree(`${where} holds text the panel does not show`);
}

// An action step sends the model's reply, its calls and what they returned; its reasoning goes
// back only within the task it was thought in, which an imported turn never is.
function checkAction(step, part, where) {
  if (!isCount(step.step)) disagree(`${where} has no step number`);
  for (const list of ["tool_calls", "observations"]) if (step[list] !== undefined && !Array.isArray(step[list])) disagree(`${where} has no list of ${list}`);
  const shown = shownIn(part);
  if ((step.model_output ?? "") !== shown.text) disagree(`${where} (the model's reply) is not what the turn shows`);
  if (markdownHidesText(shown.text)) disagree(`${where} (the model's reply) holds text the panel does not show`);
  if (step.error) disagree(`${where} tells the model something the turn does not show`);
  // The code goes back in a summary when the conversation outgrows the model's window (compaction.py)
  if (step.code !== undefined && step.code !== null && !shown.code.includes(step.code)) disagree(`${where} (the model's code) is not the code the turn shows`);
  if (shown.code.length > 0 && (step.code === undefined || step.code === null)) disagree(`${where} leaves out the code the turn shows`);
  (step.tool_calls ?? []).forEach((call, i) => checkCall(call, shown, `${where}, call ${i + 1},`));
  // How the calls went back to the model: as its own tool calls, or (written in its reply) as the
  // reply's text with each result in the user's voice; without a reply, calls made natively but
  // called written would not go back at all. As the turn shows them, a boolean as Python reads it.
  if (step.native !== undefined && typeof step.native !== "boolean") disagree(`${where} does not say how its calls were made`);
  if ((step.tool_calls ?? []).length > 0 && (step.native !== false) === shown.textCalls) disagree(`${where} (how the model made its calls) is not what the turn shows`);
  const answersCalls = step.native !== false && (step.tool_calls ?? []).length > 0;
  (step.observations ?? []).forEach((observation, i) => checkObservation(observation, shown, answersCalls, `${where}, result ${i + 1},`));
}

// A reply that was the answer (no call, no code, the answer right after it) shows as the answer,
// and its step folds away: the answer drawn must be all of that reply.
function checkAnswer(step, part, where) {
  const plainReply = (step.tool_calls ?? []).length === 0 && !step.code;
  if (plainReply && !shownIn(part).answers.includes(step.model_output ?? "")) {
    disagree(`${where} (the model's answer) is not the answer the turn shows`);
  }
}

// The best answer a turn out of steps was asked for (agent.py _best_answer) is kept as a reply
// alone, the answer the turn shows: the model's, or, when it gave none, TabAgent's words that say
// the steps ran out and what they did (out_of_steps), shown as the answer too. Nothing ran then.
function checkBestAnswer(step, part, where) {
  if (!isCount(step.step)) disagree(`${where} has no step number`);
  const acted = [step.tool_calls, step.observations].some((list) => list !== undefined && !isEmptyList(list));
  if (acted || (step.code !== undefined && step.code !== null)) disagree(`${where} (the best answer asked for out of steps) holds calls or code the turn does not show with it`);
  if (step.error) disagree(`${where} tells the model something the turn does not show`);
  if (step.native !== undefined && typeof step.native !== "boolean") disagree(`${where} does not say how its calls were made`);
  const text = step.model_output ?? "";
  if (typeof text !== "string" || !shownIn(part).answers.includes(text)) disagree(`${where} (the model's answer) is not the answer the turn shows`);
  if (markdownHidesText(text)) disagree(`${where} (the model's answer) holds text the panel does not show`);
}

// An answer step is sent only in a summary, when the conversation outgrows the model's window
// (compaction.py): it too must be the answer the turn shows.
function checkFinalAnswer(step, turn, where) {
  const shown = turn.events.filter((event) => event.depth === 0 && event.kind === EventKind.final_answer).map((event) => event.data.answer);
  if (!shown.some((answer) => canonical(answer) === canonical(step.answer))) disagree(`${where} (the answer) is not the answer the turn shows`);
  const hides = typeof step.answer === "string" ? markdownHidesText(step.answer) : hidesText(JSON.stringify(step.answer) ?? "");
  if (hides) disagree(`${where} (the answer) holds text the panel does not show`);
}

// Which part of the turn's screen each of its memory's action steps is: the step of its number,
// or, for a second step of the number of a step that ran out of steps, the best answer asked for
// after it. A step the screen does not show is held to nothing shown.
function partsOfSteps(parts, steps) {
  const seen = new Set();
  return steps.map((step) => {
    if (step?.type !== "action") return null;
    const answer = seen.has(step.step);
    seen.add(step.step);
    return parts.find((part) => part.step === step.step && part.answer === answer) ?? (answer ? null : NO_PART);
  });
}

// The message a turn's agent was given, as memory.py's TaskStep keeps it ({ task, parts }): a
// plain turn's is its text; one about a selection, or with something attached, holds page content
// whose marking only Python makes, so Python makes it again from what the turn shows
// (attachments.py message_given, asked for at the import: `given`); null when it was not (the
// selection's marking cannot be made here) or cannot be (a tab's text, read as the turn ran).
function messageGiven(turn, given) {
  if (!turn.context?.selection && !turn.attachments) return { task: turn.text, parts: [] };
  return isObject(given) && typeof given.task === "string" && Array.isArray(given.parts) ? given : null;
}

// A turn's own steps: the user's message first (the message its agent was given: messageGiven),
// then the agent's steps and its answer. The message's parts (the pictures attached, sent with it
// in the user's voice) are only ever an attachment's, so a plain message has none.
function checkTurn(turn, steps, where, given) {
  if (steps.length === 0) return; // a turn that never reached the agent (a setting was missing)
  const [task, ...rest] = steps;
  const message = messageGiven(turn, given);
  const same = message !== null && task.task === message.task && canonical(task.parts ?? []) === canonical(message.parts);
  if (task.type !== "task" || !same) disagree(`the memory of ${where} does not start with the message the turn shows`);
  if (hidesText(turn.text)) disagree(`the message of ${where} holds text the panel does not show`);
  const parts = partsOfSteps(turnParts(turn), rest);
  rest.forEach((step, i) => {
    const name = `memory step ${i + 2} of ${where}`;
    if (step.type === "final_answer") return checkFinalAnswer(step, turn, name);
    if (step.type !== "action") disagree(`${name} is a ${step.type} the turn does not show`);
    if (parts[i] === null) disagree(`${name} repeats step ${step.step}, which the turn shows once`);
    if (parts[i].answer) return checkBestAnswer(step, parts[i], name);
    checkAction(step, parts[i], name);
    if (rest[i + 1]?.type === "final_answer") checkAnswer(step, parts[i], name);
  });
}

// --- What the memory must not leave out ---------------------------------------------------------
//
// The checks above hold each step the memory sends to the screen; these hold the screen to the
// memory: what the panel shows of a turn, the model must have been told (else the user believes
// it knows what the screen shows, and it does not: the turn where the user said "never send my
// email anywhere", a tool's result, the answer). Each turn that reached the agent is in the
// memory, and of it each part that shows anything (memory.py keeps a step once it is done: the
// part under way when a run stopped without an answer, cancelled or failed, is not, and may be
// left out), with each call and result that part shows, its code's output, and the answer.
// The steps of sub-agents (depth > 0) are theirs, not the memory's; a reply retried counts only
// after the last retry. A memory that leaves something out is made anew from the screen
// (keptMemory): that loses nothing the user can see.

class Omission extends Disagreement {}

function omit(what) {
  throw new Omission(what);
}

// Each turn that reached the agent has steps in the memory (a memoryAt past them would leave
// the turn out, its message too): checked before any step, so that such a memory is told as
// one that leaves a turn out.
function checkTurnsHeld(turns, byTurn) {
  turns.forEach((turn, i) => {
    if (turnParts(turn).length > 0 && byTurn[i].length === 0) omit(`the memory leaves out turn ${i + 1}, which the conversation shows`);
  });
}

function checkNothingLeftOut(turn, steps, where) {
  const parts = turnParts(turn);
  if (parts.length === 0) return;
  const answered = turn.events.some((event) => event.depth === 0 && event.kind === EventKind.final_answer);
  const rest = steps.slice(1);
  const held = partsOfSteps(parts, rest);
  parts.forEach((part, i) => {
    if (!answered && i === parts.length - 1) return; // under way when the run stopped
    const shown = shownIn(part);
    const at = held.indexOf(part);
    const name = part.answer ? `the best answer of ${where} (asked for out of steps)` : `step ${part.step} of ${where}`;
    if (at < 0) {
      if (showsAnything(part.replayed ? { ...shown, answers: [] } : shown)) omit(`the memory leaves out ${name}, which the turn shows`);
      return;
    }
    const step = rest[at];
    const own = `memory step ${at + 2} of ${where}`;
    const calls = Array.isArray(step.tool_calls) ? step.tool_calls : [];
    const observations = Array.isArray(step.observations) ? step.observations : [];
    if (shown.code.length > 0) { // the calls its code made show; the model is sent the code and its output
      if (shown.outputs.length > 0 && observations.length === 0) omit(`${own} leaves out the output of the code the turn shows`);
      return;
    }
    shown.calls.forEach((call) => {
      if (!calls.some((held) => held?.id === call.id)) omit(`${own} leaves out the call to ${String(call.name).slice(0, 60)} the turn shows`);
    });
    shown.results.forEach((result) => {
      if (!observations.some((held) => held?.id === result.id)) omit(`${own} leaves out the result of ${String(result.name).slice(0, 60)} the turn shows`);
    });
  });
  if (answered && !rest.some((step) => step?.type === "final_answer")) omit(`the memory leaves out the answer of ${where}, which the turn shows`);
}

// The notes the turns show: each note call of the agent the user talks to that ran, as notes.py
// keeps them (its words in one line, the oldest dropped past MAX_NOTES_CHARS in all).
export function notesShown(turns) {
  const notes = [];
  const length = (list) => list.reduce((sum, note) => sum + [...note].length, 0);
  for (const turn of turns) {
    const own = turn.events.filter((event) => event.depth === 0);
    const ran = new Set(own.filter((event) => event.kind === EventKind.tool_result && !event.data.is_error).map((event) => event.data.id));
    for (const event of own) {
      if (event.kind !== EventKind.tool_call || event.data.name !== "note" || !ran.has(event.data.id)) continue;
      const text = String(event.data.arguments?.text ?? "").split(/\s+/).filter(Boolean).join(" ");
      while (notes.length && length(notes) + [...text].length > MAX_NOTES_CHARS) notes.shift();
      notes.push([...text].slice(0, MAX_NOTES_CHARS).join(""));
    }
  }
  return notes;
}

function checkNotes(notes, turns) {
  if (notes === undefined) return;
  const shown = notesShown(turns);
  if (!Array.isArray(notes) || notes.length !== shown.length || notes.some((note, i) => note !== shown[i])) {
    disagree("the memory's notes are not the notes the turns show");
  }
  if (notes.some(hidesText)) disagree("the memory's notes hold text the panel does not show");
}

// Why the record's memory does not agree with its turns, in a few words, and whether it is that
// the memory leaves out what they show (an omission); or { reason: null } when it agrees.
// The record has passed conversation-schema.js. `given`: the message each turn's agent was given,
// as Python makes it again from the turn (messageGiven), one per turn; none are, when absent.
function judged(record, given = []) {
  try {
    if (record.memory === null || record.memory === undefined) { // the agent would start afresh
      checkTurnsHeld(record.turns, record.turns.map(() => []));
      return { reason: null, omission: false };
    }
    const { steps, notes } = parsedMemory(record.memory);
    checkNotes(notes, record.turns);
    if (steps.length === 0) {
      checkTurnsHeld(record.turns, record.turns.map(() => []));
      return { reason: null, omission: false };
    }
    const byTurn = stepsByTurn(record.turns, steps);
    checkTurnsHeld(record.turns, byTurn);
    byTurn.forEach((own, i) => checkTurn(record.turns[i], own, `turn ${i + 1}`, given[i]));
    byTurn.forEach((own, i) => checkNothingLeftOut(record.turns[i], own, `turn ${i + 1}`));
    return { reason: null, omission: false };
  } catch (error) {
    // Anything this check did not foresee is a memory it cannot vouch for, not a failed import.
    if (error instanceof Disagreement) return { reason: error.message, omission: error instanceof Omission };
    return { reason: `the memory cannot be read (${error.message})`, omission: false };
  }
}

// Why the record's memory does not agree with its turns, in a few words; or null when it does:
// it says something they do not show, or leaves out something they show.
export function memoryDisagreement(record, given = []) {
  return judged(record, given).reason;
}

// --- A memory made anew from what the screen shows ---------------------------------------------

const FORMAT_VERSION = 1;
const answerText = (answer) => (typeof answer === "string" ? answer : JSON.stringify(answer));

// What code_agent.py tells the model of its code's run.
function codeObservation({ output, is_error: isError }, answers) {
  if (isError) return { content: `Error:\n${output}\nFix the code and try again.`, is_error: true };
  const printed = `Output:\n${output || "(nothing printed)"}`;
  return { content: answers.length ? `${printed}\nFinal answer: ${answerText(answers.at(-1))}` : printed, is_error: false };
}

// One step of the agent the user talks to, as memory.py keeps it, from a part of the screen;
// null when it shows nothing of it to send. A call shows without a result only in the step a run
// stopped in: such a call is left out (a model's server refuses a call no result answers), as
// memory.py leaves out that whole step.
function actionStep(part) {
  const shown = shownIn(part);
  if (part.answer) {
    return shown.answers.length ? { type: "action", step: part.step, model_output: answerText(shown.answers.at(-1)) } : null;
  }
  const outputs = part.events.filter((event) => event.kind === EventKind.code_output).map((event) => event.data);
  if (!shown.text && !shown.calls.length && !shown.code.length) return null;
  const step = { type: "action", step: part.step, model_output: shown.text };
  if (shown.code.length) {
    return { ...step, code: shown.code.at(-1), tool_calls: [], observations: outputs.slice(-1).map((out) => codeObservation(out, shown.answers)) };
  }
  const answered = shown.calls.filter((call) => shown.results.some((result) => result.id === call.id));
  const calls = answered.map(({ id, name, arguments: args }) => ({ id, name, arguments: typeof args === "string" ? args : JSON.stringify(args) }));
  const observations = shown.results.map(({ id, name, result, is_error: isError }) => ({ id, name, content: result, is_error: Boolean(isError) }));
  return { ...step, tool_calls: calls, native: !shown.textCalls, observations };
}

// A turn's steps, as memory.py keeps them, from the screen: its message (messageGiven: none when
// Python did not make it), its steps (and the best answer of a turn out of steps), its answer.
function turnSteps(turn, given) {
  const parts = turnParts(turn);
  const message = messageGiven(turn, given);
  if (message === null || parts.length === 0) return [];
  const answers = turn.events.filter((event) => event.depth === 0 && event.kind === EventKind.final_answer).map((event) => event.data.answer);
  const task = { type: "task", task: message.task, ...(message.parts.length && { parts: message.parts }) };
  const steps = [task, ...parts.map(actionStep).filter(Boolean)];
  return answers.length ? [...steps, { type: "final_answer", answer: answers.at(-1) }] : steps;
}

// The record's memory made from what its turns show: { memory (JSON text), memoryAt (each turn's start) }.
export function memoryFromScreen(record, given = []) {
  const steps = [];
  const memoryAt = record.turns.map((turn, i) => {
    const at = steps.length;
    steps.push(...turnSteps(turn, given[i]));
    return at;
  });
  const seq = Math.max(0, ...record.turns.flatMap((turn) => turn.events.map((event) => (isCount(event.seq) ? event.seq : 0))));
  const notes = notesShown(record.turns);
  return { memory: JSON.stringify({ version: FORMAT_VERSION, seq, steps, ...(notes.length && { notes }) }), memoryAt };
}

// Whether the memory was compacted to fit a window, or keeps notes: what it says then cannot be
// held to the screen word for word, and is made anew from it.
function compactedOrNoted(record) {
  if (record.turns.some((turn) => turn.events.some((event) => event.kind === EventKind.compaction))) return true;
  try {
    const { steps, notes } = JSON.parse(record.memory);
    return (Array.isArray(notes) && notes.length > 0) || (Array.isArray(steps) && steps.some((step) =>
      step?.type === "summary" || (step?.observations ?? []).some((o) => o?.dropped !== undefined || o?.excerpted !== undefined)));
  } catch {
    return false;
  }
}

// A step's `echo` (memory.py) keeps a reply the panel shows out of the model's requests: the
// agent set it on a reply that said back a text it was given this turn (said_back.py), judged on
// the turn's notes and results as the agent held them, which a step does not keep. A file's word
// for it is never taken, so an edited file cannot hide a shown reply from the model: the reply
// is sent as the screen shows it (a reply that really was said back is sent again, as before the
// field was kept).
function withoutEcho(record) {
  if (record.memory === null || record.memory === undefined) return record;
  const text = typeof record.memory === "string";
  const memory = text ? JSON.parse(record.memory) : structuredClone(record.memory);
  const echoing = memory.steps.filter((step) => Object.hasOwn(step, "echo"));
  if (echoing.length === 0) return record;
  echoing.forEach((step) => delete step.echo);
  return { ...record, memory: text ? JSON.stringify(memory) : memory };
}

// The record as it may be kept: { record, reason (why its own memory does not agree, or null),
// rebuilt (its memory made anew from the screen), leftOut (the reason is that the memory leaves
// out what the screen shows) }; record.memory is null when none can be kept. A memory that leaves
// out what the screen shows is made anew from it, as a compacted one is: the model is then sent
// what the user sees. So is one of a conversation where an agent took over a saved workflow
// (`takenOver`: the message it was given cannot be held to the screen). `given`: the message each
// turn's agent was given, as Python makes it again from the turn (messageGiven), one per turn.
export function keptMemory(record, given = []) {
  const { reason, omission } = judged(record, given);
  if (!reason) return { record: withoutEcho(record), reason: null, rebuilt: false, leftOut: false, takenOver: false };
  const leftOut = omission && !compactedOrNoted(record);
  const taken = !omission && !compactedOrNoted(record) && takenOver(record);
  if (omission || compactedOrNoted(record) || taken) {
    const { memory, memoryAt } = memoryFromScreen(record, given);
    const remade = { ...record, memory, turns: record.turns.map((turn, i) => ({ ...turn, memoryAt: memoryAt[i] })) };
    if (!memoryDisagreement(remade, given)) return { record: remade, reason, rebuilt: true, leftOut, takenOver: taken };
  }
  return { record: { ...record, memory: null, turns: record.turns.map((turn) => ({ ...turn, memoryAt: 0 })) }, reason, rebuilt: false, leftOut, takenOver: false };
}
