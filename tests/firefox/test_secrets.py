"""Secrets stay out of content scripts in Firefox too. Firefox's content scripts can read
storage.local (there is no setAccessLevel), so the API key and the MCP servers' headers are
kept in the extension's own IndexedDB (extension/platform/firefox/secrets.js), which a content script,
with its page's origin, cannot open."""

from __future__ import annotations

import json

from .red_team import as_content_script
from tests.helpers.panel_backends import FirefoxPanel
from tests.helpers.stored_secrets import READ_EVERYTHING

API_KEY = "sk-firefox-secret-key"
MCP_TOKEN = "Bearer mcp-firefox-secret"


def test_a_content_script_cannot_read_the_api_key_or_the_mcp_headers(panel, firefox, model, site):
    panel.configure(model.base_url, api_key=API_KEY)
    server = {"id": "srv-1", "name": "notes", "url": "https://mcp.example/mcp", "enabled": False}
    panel.ask_background("save-mcp-servers", servers=[server], secrets={"srv-1": {"Authorization": MCP_TOKEN}})
    # The extension's own pages still have both.
    settings = panel.run("import(chrome.runtime.getURL('extension/shared/settings/settings.js')).then((m) => m.loadSettings())")
    assert settings["apiKey"] == API_KEY
    mcp = panel.run("import(chrome.runtime.getURL('extension/shared/settings/mcp-servers.js')).then((m) => m.loadMcpServers())")
    assert mcp["secrets"] == {"srv-1": {"Authorization": MCP_TOKEN}}
    page = site.url("article.html")
    firefox.open_tab(page)
    seen = as_content_script(panel, page, READ_EVERYTHING)
    assert API_KEY not in json.dumps(seen) and "mcp-firefox-secret" not in json.dumps(seen), seen
    assert seen["database"] == [], seen  # the page's origin has no such database


def test_once_the_page_tools_are_in_a_page_its_content_scripts_reach_no_storage(panel, firefox, model, site):
    """Firefox's content scripts could read storage.local (the conversations are not there:
    test_red_team.py attacks that second wall): the storage API is gone from TabAgent's content-script world before its scripts meet the page."""
    panel.configure(model.base_url, api_key=API_KEY)
    page = site.url("article.html") + "?tools"  # its own tab: the first test left one on article.html
    firefox.open_tab(page)
    before = as_content_script(panel, page, READ_EVERYTHING)
    assert "settings" in before["local"], before  # Firefox lets content scripts read storage.local
    chat = FirefoxPanel(firefox)  # the tab the user is on: the page's
    assert "Growing Tomatoes" in chat.call_tool("read_page")
    seen = as_content_script(chat, page, READ_EVERYTHING)
    assert list(seen["local"]) == ["error"] and list(seen["session"]) == ["error"], seen
    # The page tools, which never use storage, still work there.
    assert "Growing Tomatoes" in chat.call_tool("read_page")


# A conversation as an earlier version kept it, in storage.local.
EARLIER = {"id": "earlier-1", "title": "Kept before", "createdAt": 1, "updatedAt": 2, "memory": None,
           "turns": [{"id": "t1", "text": "Kept before", "context": None, "status": "ok", "events": []}]}


def test_conversations_an_earlier_version_kept_in_storage_local_move_out_of_it(panel, model):
    index = {"earlier-1": {key: EARLIER[key] for key in ("id", "title", "createdAt", "updatedAt")}}
    panel.run(f"chrome.storage.local.set({{ 'conversation:earlier-1': {json.dumps(EARLIER)}, conversations: {json.dumps(index)} }})")
    module = "import(chrome.runtime.getURL('extension/shared/storage/conversations.js'))"
    panel.run(f"{module}.then((m) => m.moveStoredConversations())")
    assert panel.run(f"{module}.then((m) => m.loadConversation('earlier-1'))") == EARLIER
    assert "earlier-1" in [entry["id"] for entry in panel.run(f"{module}.then((m) => m.listConversations())")]
    left = panel.run("chrome.storage.local.get(null).then((all) => Object.keys(all))")
    assert [key for key in left if key.startswith("conversation")] == []
