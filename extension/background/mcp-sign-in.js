// Signing in to the user's MCP servers with OAuth 2.1. Python finds where to sign in and makes
// the token requests (py/tabagent/app/mcp_sign_in.py, tested in CPython against a real
// authorization server); this module opens the browser's own sign-in window between the two
// steps (identity.launchWebAuthFlow, at the address the browser gives this extension:
// identity.getRedirectURL(), chromiumapp.org in Chrome, extensions.allizom.org in Firefox) and
// keeps what comes back like the API key: in the secrets storage (trusted contexts only, in no
// export: shared/settings/mcp-sign-ins.js).
//
// A record's access token goes to one place: the Authorization header of the server whose
// address it was issued for (`record.server_url`), added here when Python is handed the servers'
// headers, and refreshed first when it would expire within REFRESH_BEFORE_MS. A client secret the
// user typed (a client registered beforehand) is kept in the record the same way: never
// exported, never shown again, and sent by Python to the token endpoint only.
//
// A turn's server that answers 401 or asks for more scope (signInForTurn): its token refreshed
// without a word when it can be; else, once the user said yes in the panel, the sign-in again,
// with the record's client and scope and the scope the server named. One refresh of a server's
// token at a time: a second asker waits for the first's (an authorization server that rotates
// refresh tokens refuses the same one twice).

import { MessageType } from "../shared/protocol/messages.js";
import { loadMcpServers } from "../shared/settings/mcp-servers.js";
import { keepSignIn, loadSignIns, signInShown } from "../shared/settings/mcp-sign-ins.js";
import { askOffscreen } from "./offscreen-document.js";

const REFRESH_BEFORE_MS = 5 * 60_000; // a turn that starts then has its token for five minutes at least

export async function signIn({ serverId, clientId, clientSecret, challenge }) {
  const { servers } = await loadMcpServers();
  const server = servers.find((one) => one.id === serverId);
  if (!server) throw new Error("That MCP server is not in the settings (save it first).");
  const earlier = (await loadSignIns())[serverId];
  const known = earlier?.server_url === server.url ? earlier : null;
  const how = { client_secret: String(clientSecret ?? ""), known, header: typeof challenge === "string" ? challenge : null };
  const planned = await askOffscreen({ type: MessageType.mcpSignInPlan, server, redirectUri: chrome.identity.getRedirectURL(), clientId: clientId ?? "", how });
  if (!planned.ok) return planned;
  const endedAt = await signInWindow(planned.plan.authorize_url);
  if (!endedAt.ok) return endedAt;
  const finished = await askOffscreen({ type: MessageType.mcpSignInFinish, plan: planned.plan, endedAt: endedAt.url });
  if (!finished.ok) return finished;
  await keepSignIn(serverId, finished.record);
  return { ok: true, ...signInShown(finished.record) };
}

// The browser's own sign-in window: the user sees the authorization server's real address and
// the browser's own cookies for it; the window closes when it reaches our redirect address.
async function signInWindow(url) {
  try {
    return { ok: true, url: await chrome.identity.launchWebAuthFlow({ url, interactive: true }) };
  } catch (error) {
    return { ok: false, error: `The sign-in window closed without signing in (${error.message}).` };
  }
}

export async function signOut({ serverId }) {
  const record = (await loadSignIns())[serverId];
  await keepSignIn(serverId, null); // forgotten first, whatever the server says
  if (record) await askOffscreen({ type: MessageType.mcpSignOut, record }).catch(() => {});
  return { ok: true };
}

// The servers and their headers for Python, each signed-in server's with its bearer token (only
// while the server's address is the one the token was issued for), refreshed when due.
export async function loadMcpServersSignedIn() {
  const { servers, secrets } = await loadMcpServers();
  const signIns = await loadSignIns();
  const headers = { ...secrets };
  for (const server of servers) {
    const record = signIns[server.id];
    if (!record || record.server_url !== server.url || server.enabled === false) continue;
    const fresh = await freshRecord(server.id, record);
    if (fresh) headers[server.id] = { ...(secrets[server.id] ?? {}), Authorization: `Bearer ${fresh.access_token}` };
  }
  return { servers, secrets: headers };
}

async function freshRecord(serverId, record) {
  const due = typeof record.expires_at === "number" && record.expires_at * 1000 - Date.now() < REFRESH_BEFORE_MS;
  if (!due) return record;
  return (await refreshedOnce(serverId, record)).record ?? record; // else the server says so (401), and the turn asks
}

const refreshing = new Map(); // server id -> the refresh under way

// { record } with new tokens, or { error }: why not (the authorization server's words); a refresh
// of the same server already under way is waited for, not repeated. A refused refresh keeps the
// record as it was: the user signs in again (or out) from there.
function refreshedOnce(serverId, record) {
  if (!refreshing.has(serverId)) {
    const refresh = (async () => {
      const refreshed = await askOffscreen({ type: MessageType.mcpRefreshSignIn, record }).catch((error) => ({ ok: false, error: error.message }));
      if (!refreshed.ok) return { error: String(refreshed.error ?? "the authorization server did not say why") };
      await keepSignIn(serverId, refreshed.record);
      return { record: refreshed.record };
    })().finally(() => refreshing.delete(serverId));
    refreshing.set(serverId, refresh);
  }
  return refreshing.get(serverId);
}

// A turn's server asked for sign-in (Python's bridge, offscreen/python/page-bridge.js signIn):
// the header to send from now on, or why not.
export async function signInForTurn({ serverId, challenge, interactive }) {
  const { servers } = await loadMcpServers();
  const server = servers.find((one) => one.id === serverId && one.enabled !== false);
  if (!server) return { ok: false, error: "That MCP server is not in the settings." };
  if (interactive !== true) {
    const record = (await loadSignIns())[serverId];
    if (!record?.refresh_token || record.server_url !== server.url) return { ok: false, error: "Not signed in to this server." };
    const fresh = await refreshedOnce(serverId, record);
    // ended: the user was signed in, and that sign-in cannot be renewed (the turn asks them to sign in again).
    return fresh.record ? { ok: true, authorization: `Bearer ${fresh.record.access_token}` }
      : { ok: false, error: `The sign-in could not be renewed: ${fresh.error}`, ended: true };
  }
  const signed = await signIn({ serverId, challenge: String(challenge ?? "") });
  if (!signed.ok) return signed;
  const record = (await loadSignIns())[serverId];
  return { ok: true, authorization: `Bearer ${record.access_token}` };
}
