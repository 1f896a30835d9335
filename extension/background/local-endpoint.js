// Ollama (and other local servers) refuse requests whose Origin is an extension unless the
// user sets OLLAMA_ORIGINS. A declarativeNetRequest rule removes the Origin header from
// TabAgent's own requests to the configured endpoint, when that endpoint is on this machine,
// and nowhere else. Local MCP servers get the same rule: the spec asks them to check Origin
// against DNS rebinding, and the official SDKs, bound to 127.0.0.1, accept only http
// origins on this machine, or none (a request without Origin is not a web page's).

const RULE_ID = 1;
const MCP_RULES_FROM = 100; // one rule per local MCP server's origin, from this id on
const MCP_RULES_MAX = 50;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function localOrigin(address) {
  try {
    const url = new URL(address);
    return LOCAL_HOSTS.has(url.hostname) ? url.origin : null;
  } catch {
    return null;
  }
}

// Our pages' host: the extension id in Chrome, the moz-extension UUID in Firefox (which takes
// no add-on id as a domain).
const OWN_HOST = new URL(chrome.runtime.getURL("")).hostname;

// TabAgent's own requests to `origin`, and no one else's, go without an Origin header.
function withoutOrigin(id, origin) {
  return {
    id,
    priority: 1,
    action: { type: "modifyHeaders", requestHeaders: [{ header: "origin", operation: "remove" }] },
    condition: {
      urlFilter: `|${origin}/`,
      initiatorDomains: [OWN_HOST],
      resourceTypes: ["xmlhttprequest", "other"],
    },
  };
}

export async function followConfiguredEndpoint(settings) {
  const origin = localOrigin(settings.base_url);
  const addRules = origin ? [withoutOrigin(RULE_ID, origin)] : [];
  await chrome.declarativeNetRequest.updateDynamicRules({ removeRuleIds: [RULE_ID], addRules });
}

export async function followMcpServers(servers) {
  const origins = [...new Set(servers.filter((server) => server.enabled !== false).map((server) => localOrigin(server.url)).filter(Boolean))];
  const addRules = origins.slice(0, MCP_RULES_MAX).map((origin, i) => withoutOrigin(MCP_RULES_FROM + i, origin));
  const removeRuleIds = Array.from({ length: MCP_RULES_MAX }, (_, i) => MCP_RULES_FROM + i);
  await chrome.declarativeNetRequest.updateDynamicRules({ removeRuleIds, addRules });
}
