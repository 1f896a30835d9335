// The user's sign-ins to MCP servers (background/mcp-sign-in.js makes them): { [server id]:
// record }, a record being what py/tabagent/mcp/oauth.py keeps (the server's address, the
// issuer, the client id, the tokens, when the access token expires, who signed in). Kept where
// the API key is (platform/chrome/secrets.js: trusted contexts only), under its own key, so that
// nothing that reads or exports settings carries a token. Settings are shown `signInShown`.

import { readSecrets, writeSecrets } from "../../platform/chrome/secrets.js";

const SIGN_INS_KEY = "mcpSignIns";

export async function loadSignIns() {
  const stored = await readSecrets([SIGN_INS_KEY]);
  const signIns = stored[SIGN_INS_KEY];
  return signIns && typeof signIns === "object" ? signIns : {};
}

export async function keepSignIn(serverId, record) {
  const signIns = await loadSignIns();
  if (record) signIns[serverId] = record;
  else delete signIns[serverId];
  await writeSecrets({ [SIGN_INS_KEY]: signIns });
}

// What settings show of a sign-in: who (as the server said), the issuer, never a token.
export const signInShown = (record) => ({ who: record.who ?? null, issuer: record.issuer });

export async function signInsShown() {
  const signIns = await loadSignIns();
  return Object.fromEntries(Object.entries(signIns).map(([id, record]) => [id, signInShown(record)]));
}

// The sign-ins of servers no longer in the settings are forgotten with them.
export async function forgetSignInsOf(keptIds) {
  const signIns = await loadSignIns();
  const kept = Object.fromEntries(Object.entries(signIns).filter(([id]) => keptIds.has(id)));
  if (Object.keys(kept).length !== Object.keys(signIns).length) await writeSecrets({ [SIGN_INS_KEY]: kept });
}
