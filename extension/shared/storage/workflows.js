// Saved workflows (Save as workflow: py/tabagent/app/workflow_source.py writes each as a file of
// data, which Python reads and never runs), kept in chrome.storage.local under "workflows":
// { [name]: { name, source, sites, allowedSites, parameters } }. `sites` are where the recorded
// turn acted; `allowedSites` the ones the user allowed it to act on without asking each time,
// set only by the user's own checkbox in the Tools view: an imported file never brings any.
// A new workflow (saved from a turn, or imported) never replaces one of the same name: it gets
// a name of its own (addWorkflow), and the user is told.

const KEY = "workflows";
const NAME = /^[\p{L}_][\p{L}\p{N}_]{0,59}$/u;

export async function loadWorkflows() {
  const { [KEY]: stored } = await chrome.storage.local.get(KEY);
  return stored && typeof stored === "object" ? stored : {};
}

// Adds or replaces one workflow. Only what the user allowed stays allowed, and only among its sites.
export async function storeWorkflow({ name, source, sites = [], allowedSites = [], parameters = {} }) {
  if (!NAME.test(name ?? "")) throw new Error(`“${name}” cannot be a workflow's name: use letters, digits and _.`);
  const kept = Array.isArray(sites) ? sites.filter((site) => typeof site === "string") : [];
  const allowed = Array.isArray(allowedSites) ? allowedSites.filter((site) => kept.includes(site)) : [];
  const workflows = await loadWorkflows();
  workflows[name] = { name, source: String(source ?? ""), sites: kept, allowedSites: allowed, parameters: parameters ?? {} };
  await chrome.storage.local.set({ [KEY]: workflows });
  return workflows[name];
}

// Adds a workflow under its name, or, when that name is taken, the first free one of name_2,
// name_3...: { workflow, renamedFrom } (renamedFrom: the name asked for, when it was taken).
export async function addWorkflow(workflow) {
  const taken = await loadWorkflows();
  const base = String(workflow.name ?? "").slice(0, 56);
  let name = workflow.name;
  for (let n = 2; Object.hasOwn(taken, name); n += 1) name = `${base}_${n}`;
  const stored = await storeWorkflow({ ...workflow, name });
  return { workflow: stored, renamedFrom: name === workflow.name ? null : workflow.name };
}

// A digest of a workflow's code, which a schedule keeps to run only the workflow it was saved
// with (background/scheduled-runs.js); null when there is no workflow of that name.
export async function workflowDigest(name, workflows) {
  if (!Object.hasOwn(workflows, name)) return null;
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(workflows[name].source ?? "")));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function deleteWorkflow(name) {
  const workflows = await loadWorkflows();
  delete workflows[name];
  await chrome.storage.local.set({ [KEY]: workflows });
}

// What every turn is handed: each workflow's name and code, read (never run) as the agent's tools.
export const workflowsForPython = (workflows) => Object.values(workflows).map(({ name, source }) => ({ name, source }));

// "/name" or "/name value" (a workflow with one parameter) or "/name {json}" typed in the
// composer: the saved workflow to run without the model, or null when it names none.
export function workflowCommand(text, workflows) {
  const match = /^\/([\p{L}_][\p{L}\p{N}_]*)(?:\s+([\s\S]*))?$/u.exec(String(text ?? "").trim());
  const workflow = match && Object.hasOwn(workflows, match[1]) ? workflows[match[1]] : null;
  if (!workflow) return null;
  return { name: workflow.name, arguments: argumentsFrom(match[2]?.trim() ?? "", Object.keys(workflow.parameters ?? {})), allowed_sites: workflow.allowedSites ?? [] };
}

function argumentsFrom(rest, parameters) {
  if (!rest) return {};
  if (rest.startsWith("{")) {
    const parsed = JSON.parse(rest);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("A workflow's values are written as a JSON object.");
    return parsed;
  }
  if (parameters.length === 1) return { [parameters[0]]: rest };
  throw new Error(`This workflow takes ${parameters.join(", ") || "no values"}: write them as {"name": "value"}.`);
}
