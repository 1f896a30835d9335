// The user's MCP servers (py/tabagent/app/mcp_servers.py runs them in a turn). Two storage
// keys, like the model settings: `mcpServers`, what each server is and the user's policy for
// each of its tools; `mcpSecrets`, the headers each server gets (a bearer token...), kept
// apart (where platform/chrome/secrets.js keeps secrets) so that nothing that reads or exports settings carries them. Only the service worker
// writes them (MessageType.saveMcpServers), so the local servers' Origin rule follows them.

import { readSecrets, writeSecrets } from "../../platform/chrome/secrets.js";
import { MCP_POLICIES, MCP_SERVER } from "../wire.js";

const SERVERS_KEY = "mcpServers";
const SECRETS_KEY = "mcpSecrets";
export const DEFAULT_POLICY = MCP_POLICIES[0];

// [{ id, name, url, enabled, tools: { [tool]: { policy, fingerprint } } }], { [id]: { header: value } }
export async function loadMcpServers() {
  const [stored, secrets] = await Promise.all([chrome.storage.local.get(SERVERS_KEY), readSecrets([SECRETS_KEY])]);
  const servers = Array.isArray(stored[SERVERS_KEY]) ? stored[SERVERS_KEY] : [];
  return { servers, secrets: secrets[SECRETS_KEY] ?? {} };
}

export async function storeMcpServers(servers, secrets) {
  const kept = servers.filter(isServer).map((server) => ({ ...server, name: serverName(server.name) }));
  const ids = new Set(kept.map((server) => server.id));
  const keptSecrets = secrets === undefined ? null : Object.fromEntries(Object.entries(secrets ?? {}).filter(([id]) => ids.has(id)));
  await Promise.all([chrome.storage.local.set({ [SERVERS_KEY]: kept }), keptSecrets && writeSecrets({ [SECRETS_KEY]: keptSecrets })]);
  return kept;
}

function isServer(server) {
  try {
    return typeof server?.id === "string" && ["http:", "https:"].includes(new URL(server.url).protocol);
  } catch {
    return false;
  }
}

// A server's name prefixes its tools' names for the model (name__tool): letters, digits, - and _.
export const serverName = (name) => String(name ?? "").trim().replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 30) || "server";

// The servers as a turn receives them (wire.js MCP_SERVER), and their headers apart.
export function mcpForPython(servers, secrets) {
  const list = servers.map((server) => Object.fromEntries(MCP_SERVER.map((field) => [field, server[field] ?? null])));
  return { mcpServers: list, mcpHeaders: secrets ?? {} };
}
