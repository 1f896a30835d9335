// Settings' MCP servers section: add a server (name, address, one header), turn it on or off,
// Test connection (what the server is, its protocol version, its tools as the model sees
// them), and a policy per tool. A tool whose definition changed since its policy was chosen
// is shown as changed and asked every time until the user accepts the new definition. Where
// "always" is chosen, the user sees all the model reads of a tool: its description and each
// parameter's, and the whole schema; what the server wrote is shown with every character that
// draws nothing written out (unseen-text.js), as the model reads it.
//
// A tool's hints (its annotations: read-only, destructive, idempotent, open world) are the
// server's word: shown, and used only to ask more. "Always" for a tool that may destroy (not
// said to be read-only nor harmless) takes a second look before it is saved
// (`second_look`); without it the turn asks every call (mcp_servers.policy_for).

import { MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { DEFAULT_POLICY, loadMcpServers, serverName } from "../shared/settings/mcp-servers.js";
import { signInsShown } from "../shared/settings/mcp-sign-ins.js";
import { MCP_POLICIES } from "../shared/wire.js";
import { t, tn } from "../shared/ui/i18n.js";
import { h as el } from "../shared/ui/dom.js";
import { shown, shownWithin } from "../shared/import-checks/unseen-text.js";

const $ = (id) => document.getElementById(id);
const POLICY_LABELS = { ask: "mcpPolicyAsk", conversation: "mcpPolicyConversation", always: "mcpPolicyAlways", off: "mcpPolicyOff" };
let state = { servers: [], secrets: {}, signIns: {} };
const checked = new Map(); // server id -> the last Test connection's result

async function save(secrets) {
  const { servers } = await askBackground(MessageType.saveMcpServers, { servers: state.servers, secrets });
  state.servers = servers;
  if (secrets !== undefined) state.secrets = secrets;
  render();
}

function policySelect(server, tool) {
  const chosen = server.tools?.[tool.name]?.policy ?? DEFAULT_POLICY;
  const select = el("select", { "aria-label": t("mcpPolicyFor", shownWithin(tool.name, 120)), "data-tool": tool.name },
    ...MCP_POLICIES.map((policy) => el("option", { value: policy, selected: policy === chosen }, t(POLICY_LABELS[policy]))));
  select.addEventListener("change", () => {
    if (select.value === "always" && tool.annotations?.destructive) return secondLook(server, tool, select);
    return choose(server, tool, select.value);
  });
  return select;
}

// "Always" for a tool that may destroy: said plainly, and saved only once the user says so again.
function secondLook(server, tool, select) {
  select.after(secondLookBox(server, tool));
}

function secondLookBox(server, tool) {
  return el("p", { class: "mcp-second-look", role: "alert" }, t("mcpDestructiveAlways"),
    el("button", { type: "button", class: "mcp-always-anyway", onclick: () => choose(server, tool, "always", true) }, t("mcpAlwaysAnyway")),
    el("button", { type: "button", onclick: () => choose(server, tool, DEFAULT_POLICY) }, t("mcpKeepAsking")));
}

// The policy goes with the definition the user saw when choosing it (and, for "always" on a
// tool that may destroy, with the second look they took).
function choose(server, tool, policy, secondLookTaken = false) {
  const chosen = { policy, fingerprint: tool.fingerprint, ...(secondLookTaken ? { second_look: true } : {}) };
  server.tools = { ...(server.tools ?? {}), [tool.name]: chosen };
  return save();
}

const HINTS = [["read_only", "mcpHintReadOnly"], ["destructive", "mcpHintDestructive"], ["idempotent", "mcpHintIdempotent"], ["open_world", "mcpHintOpenWorld"]];

// The server's hints about a tool, as it gave them (the spec's defaults where it gave none).
function hintList(annotations) {
  if (!annotations) return null;
  const said = HINTS.filter(([key]) => annotations[key]).map(([key, label]) => el("li", { "data-hint": key }, t(label)));
  return el("ul", { class: "mcp-hints", "aria-label": t("mcpHints") }, ...said);
}

function outputSchema(schema) {
  if (!schema) return null;
  return el("details", { class: "mcp-tool-output" }, el("summary", {}, t("mcpOutputSchema")),
    el("pre", {}, shown(JSON.stringify(schema, null, 2))));
}

function toolItem(server, tool) {
  const stored = server.tools?.[tool.name];
  const changed = stored?.fingerprint && stored.fingerprint !== tool.fingerprint;
  // "Always" chosen before the server said the tool may destroy (or before this was asked):
  // the turn asks every call until the user takes the second look.
  const unlooked = stored?.policy === "always" && tool.annotations?.destructive && stored.second_look !== true;
  return el("li", { class: "mcp-tool", "data-tool": tool.name, "data-changed": changed ? "true" : "false" },
    el("code", {}, shownWithin(tool.name, 120)),
    el("p", { class: "mcp-tool-description" }, shown(tool.description)),
    hintList(tool.annotations),
    parameterList(tool.parameters),
    outputSchema(tool.output_schema),
    policySelect(server, tool),
    unlooked && !changed ? secondLookBox(server, tool) : null,
    changed ? el("p", { class: "mcp-changed", role: "alert" }, t("mcpToolChanged"),
      el("button", { type: "button", onclick: () => choose(server, tool, stored.policy, stored.second_look === true) }, t("mcpAcceptChange"))) : null);
}

// Each parameter as the model reads it (name, type, whether required, description), then the
// whole schema, nested descriptions and all.
function parameterList(schema) {
  const properties = Object.entries(schema?.properties ?? {});
  const required = new Set(schema?.required ?? []);
  const rows = properties.flatMap(([name, property]) => [
    el("dt", {}, el("code", {}, shownWithin(name, 120)), ` (${shown(property?.type ?? "any")}${required.has(name) ? `, ${t("mcpRequired")}` : ""})`),
    el("dd", { "data-parameter": name }, shown(property?.description ?? "")),
  ]);
  return el("details", { class: "mcp-tool-parameters" },
    el("summary", {}, properties.length ? t("mcpParameters", String(properties.length)) : t("mcpNoParameters")),
    el("dl", {}, ...rows),
    el("pre", { class: "mcp-tool-schema" }, shown(JSON.stringify(schema ?? {}, null, 2))));
}

function resultLine(result) {
  if (!result) return "";
  if (!result.ok) return shown(result.error);
  return t("mcpConnected", shown(result.server), result.protocol, tn("mcpTools", result.tools.length));
}

function serverItem(server) {
  const result = checked.get(server.id);
  const enabled = el("input", { type: "checkbox", checked: server.enabled !== false, "aria-label": t("mcpEnabled", server.name) });
  enabled.addEventListener("change", () => {
    server.enabled = enabled.checked;
    save();
  });
  return el("li", { class: "mcp-server", "data-server-id": server.id },
    el("div", { class: "row" }, enabled, el("strong", {}, server.name), el("span", { class: "mcp-url" }, server.url)),
    el("div", { class: "row" },
      el("button", { type: "button", class: "mcp-test", onclick: () => check(server) }, t("testConnection")),
      el("button", { type: "button", class: "mcp-remove", onclick: () => remove(server) }, t("mcpRemove")),
      el("output", { class: "mcp-status", role: "status", "data-ok": result ? String(result.ok) : null }, resultLine(result))),
    signInRow(server),
    result?.ok ? el("ul", { class: "mcp-tools" }, ...result.tools.map((tool) => toolItem(server, tool))) : null);
}

// OAuth: who the user is signed in as (what the server's id token says, else its issuer), or a
// Sign in button that opens the browser's own sign-in window (background/mcp-sign-in.js).
function signInRow(server) {
  const signedIn = state.signIns[server.id];
  if (signedIn) {
    return el("div", { class: "row mcp-sign-in" },
      el("span", { class: "mcp-signed-in" }, signedIn.who ? t("mcpSignedInAs", shown(signedIn.who)) : t("mcpSignedInWith", shown(signedIn.issuer))),
      el("button", { type: "button", class: "mcp-sign-out", onclick: () => signOut(server) }, t("mcpSignOut")));
  }
  const clientId = el("input", { type: "text", class: "mcp-client-id", placeholder: t("mcpClientId"), "aria-label": t("mcpClientId") });
  // A secret the authorization server gave with the client id: kept with the sign-in like the API
  // key (never exported, never shown again), sent to its token endpoint only.
  const clientSecret = el("input", { type: "password", class: "mcp-client-secret", autocomplete: "off", placeholder: t("mcpClientSecret"), "aria-label": t("mcpClientSecret") });
  const said = el("output", { class: "mcp-sign-in-status", role: "status" });
  return el("div", { class: "row mcp-sign-in" },
    el("button", { type: "button", class: "mcp-sign-in-button", onclick: () => signIn(server, clientId.value, clientSecret, said) }, t("mcpSignIn")),
    clientId, clientSecret, said);
}

async function signIn(server, clientId, secretInput, said) {
  said.textContent = t("mcpSigningIn");
  const clientSecret = secretInput.value;
  secretInput.value = ""; // never shown again
  try {
    const answer = await askBackground(MessageType.signInMcpServer, { serverId: server.id, clientId, clientSecret });
    if (!answer.ok) {
      said.textContent = shown(answer.error);
      return;
    }
  } catch (error) {
    said.textContent = shown(error.message);
    return;
  }
  state.signIns = await signInsShown();
  render();
  await check(server);
}

async function signOut(server) {
  await askBackground(MessageType.signOutMcpServer, { serverId: server.id });
  state.signIns = await signInsShown();
  checked.delete(server.id);
  render();
}

function render() {
  $("mcp-list").replaceChildren(...state.servers.map(serverItem));
}

async function check(server) {
  checked.set(server.id, { ok: false, error: t("testing") });
  render();
  try {
    checked.set(server.id, await askBackground(MessageType.checkMcpServer, { serverId: server.id }));
  } catch (error) {
    checked.set(server.id, { ok: false, error: error.message });
  }
  render();
}

function remove(server) {
  state.servers = state.servers.filter((one) => one.id !== server.id);
  checked.delete(server.id);
  const { [server.id]: _gone, ...secrets } = state.secrets;
  return save(secrets);
}

async function add(event) {
  event.preventDefault();
  const id = crypto.randomUUID();
  const name = serverName($("mcp-name").value);
  if (state.servers.some((server) => server.name === name)) {
    $("mcp-result").textContent = t("mcpNameTaken", name);
    return;
  }
  const header = $("mcp-header-name").value.trim();
  const secrets = header ? { ...state.secrets, [id]: { [header]: $("mcp-header-value").value } } : state.secrets;
  state.servers = [...state.servers, { id, name, url: $("mcp-url").value.trim(), enabled: true, tools: {} }];
  await save(secrets);
  $("mcp-add").reset();
  $("mcp-result").textContent = "";
  await check(state.servers.find((server) => server.id === id));
}

export async function initMcpSettings() {
  state = { ...(await loadMcpServers()), signIns: await signInsShown() };
  render();
  $("mcp-add").addEventListener("submit", (event) => add(event).catch((error) => {
    $("mcp-result").textContent = t("notSaved", error.message);
  }));
}
