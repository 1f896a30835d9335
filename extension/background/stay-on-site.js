// A navigation an earlier allowance covers (navigate or open_tab not asked now: Python sends
// `stay_on`, the site it was allowed for, py/tabagent/app/page_actions.py GOING_TO) goes to that
// site and nowhere else. While the tab loads, a declarativeNetRequest session rule for that tab
// blocks every top-level request except to that site, so an open redirect on an allowed site
// (a 302, a refresh, a script sending the tab on) neither carries the allowance to another site
// nor takes the address's data there: the request to the other site is never made.

const FIRST_RULE = 700_000; // apart from the endpoint rules (local-endpoint.js)
const rulesOf = (tabId) => [FIRST_RULE + (tabId % 100_000) * 2, FIRST_RULE + (tabId % 100_000) * 2 + 1];

function guard(tabId, site) {
  const [block, allow] = rulesOf(tabId);
  const only = { tabIds: [tabId], resourceTypes: ["main_frame"] };
  return [
    { id: block, priority: 1, action: { type: "block" }, condition: only },
    { id: allow, priority: 2, action: { type: "allow" }, condition: { ...only, urlFilter: `|${site}/` } },
  ];
}

const origin = (address) => {
  try {
    return new URL(address).origin;
  } catch {
    return "";
  }
};

// Runs go() (which starts the tab's navigation) and waits for `loaded`, with the tab kept on
// `site` meanwhile when `site` is given. The rules go when the load is over, whatever happened.
export async function keptOn(site, tabId, go, loaded) {
  const allowed = origin(site);
  if (!allowed) return go().then(() => loaded());
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: rulesOf(tabId), addRules: guard(tabId, allowed) });
  try {
    await go();
    return await loaded();
  } finally {
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: rulesOf(tabId) });
  }
}

// What the model is told when the tab was kept from another site: Chrome shows the stopped
// address in the tab; Firefox leaves the tab where it was (`before`). Null when it went where asked.
export function stoppedNote(site, { url, before, target }) {
  const allowed = origin(site);
  if (!allowed) return null;
  if (url === before && url !== target) {
    return `The tab did not go to ${target}: it stays on ${url || "an empty page"}. The address may have sent it on to another `
      + `site: TabAgent stopped it, since only ${allowed} was allowed without asking. Navigating there yourself asks the user.`;
  }
  if (origin(url) === allowed) return null;
  return `The address sent the tab on to another site (${url}); TabAgent stopped it there, since only ${allowed} `
    + "was allowed without asking: nothing was loaded from that site. Navigating there yourself asks the user.";
}
