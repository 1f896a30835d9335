// Ollama (and other local servers) refuse requests whose Origin is an extension unless the
// user sets OLLAMA_ORIGINS. A declarativeNetRequest rule removes the Origin header from
// TabAgent's own requests to the configured endpoint, when that endpoint is on this machine,
// and nowhere else.

const RULE_ID = 1;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function localOrigin(baseUrl) {
  try {
    const url = new URL(baseUrl);
    return LOCAL_HOSTS.has(url.hostname) ? url.origin : null;
  } catch {
    return null;
  }
}

export async function followConfiguredEndpoint(settings) {
  const origin = localOrigin(settings.baseUrl);
  const addRules = origin
    ? [
        {
          id: RULE_ID,
          priority: 1,
          action: { type: "modifyHeaders", requestHeaders: [{ header: "origin", operation: "remove" }] },
          condition: {
            urlFilter: `|${origin}/`,
            initiatorDomains: [chrome.runtime.id],
            resourceTypes: ["xmlhttprequest", "other"],
          },
        },
      ]
    : [];
  await chrome.declarativeNetRequest.updateDynamicRules({ removeRuleIds: [RULE_ID], addRules });
}
