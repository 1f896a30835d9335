// Saved workflows (Save as workflow: py/tabagent/app/workflow_source.py writes each as a Python
// user tool), kept in chrome.storage.local under "workflows": { [name]: { name, source, sites,
// allowedSites, parameters } }. `sites` are where the recorded turn acted; `allowedSites` the
// ones the user allowed it to act on without asking each time, set only by the user's own
// checkbox in the Tools view: an imported file never brings any.

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

export async function deleteWorkflow(name) {
  const workflows = await loadWorkflows();
  delete workflows[name];
  await chrome.storage.local.set({ [KEY]: workflows });
}

// What every turn is handed: each workflow's name and code, loaded as the agent's tools.
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
