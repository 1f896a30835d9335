// Settings' MCP servers section: add a server (name, address, one header), turn it on or off,
// Test connection (what the server is, its protocol version, its tools as the model sees
// them), and a policy per tool. A tool whose definition changed since its policy was chosen
// is shown as changed and asked every time until the user accepts the new definition.

import { MessageType } from "../shared/messages.js";
import { askBackground } from "../shared/runtime.js";
import { DEFAULT_POLICY, loadMcpServers, serverName } from "../shared/mcp-servers.js";
import { MCP_POLICIES } from "../shared/wire.js";
import { t, tn } from "../shared/i18n.js";
import { h as el } from "../shared/dom.js";

const $ = (id) => document.getElementById(id);
const POLICY_LABELS = { ask: "mcpPolicyAsk", conversation: "mcpPolicyConversation", always: "mcpPolicyAlways", off: "mcpPolicyOff" };
let state = { servers: [], secrets: {} };
const checked = new Map(); // server id -> the last Test connection's result

async function save(secrets) {
  const { servers } = await askBackground(MessageType.saveMcpServers, { servers: state.servers, secrets });
  state.servers = servers;
  if (secrets !== undefined) state.secrets = secrets;
  render();
}

function policySelect(server, tool) {
  const chosen = server.tools?.[tool.name]?.policy ?? DEFAULT_POLICY;
  const select = el("select", { "aria-label": t("mcpPolicyFor", tool.name), "data-tool": tool.name },
    ...MCP_POLICIES.map((policy) => el("option", { value: policy, selected: policy === chosen }, t(POLICY_LABELS[policy]))));
  select.addEventListener("change", () => choose(server, tool, select.value));
  return select;
}

// The policy goes with the definition the user saw when choosing it.
function choose(server, tool, policy) {
  server.tools = { ...(server.tools ?? {}), [tool.name]: { policy, fingerprint: tool.fingerprint } };
  return save();
}

function toolItem(server, tool) {
  const stored = server.tools?.[tool.name];
  const changed = stored?.fingerprint && stored.fingerprint !== tool.fingerprint;
  return el("li", { class: "mcp-tool", "data-tool": tool.name, "data-changed": changed ? "true" : "false" },
    el("code", {}, tool.name),
    el("p", { class: "mcp-tool-description" }, tool.description),
    policySelect(server, tool),
    changed ? el("p", { class: "mcp-changed", role: "alert" }, t("mcpToolChanged"),
      el("button", { type: "button", onclick: () => choose(server, tool, stored.policy) }, t("mcpAcceptChange"))) : null);
}

function resultLine(result) {
  if (!result) return "";
  if (!result.ok) return result.error;
  return t("mcpConnected", result.server, result.protocol, tn("mcpTools", result.tools.length));
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
    result?.ok ? el("ul", { class: "mcp-tools" }, ...result.tools.map((tool) => toolItem(server, tool))) : null);
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
  state = await loadMcpServers();
  render();
  $("mcp-add").addEventListener("submit", (event) => add(event).catch((error) => {
    $("mcp-result").textContent = t("notSaved", error.message);
  }));
}
