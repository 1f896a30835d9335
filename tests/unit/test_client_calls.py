"""An MCP client's calls in Python (py/tabagent/app/client_calls.py, through the entry point
json_entry_points.client_call_json), against a fake of the page side: each call is a
step the panel shows, an action is asked like the agent's and a denied one never reaches the
page, the user's site rules answer first, and "allow for this turn" lasts the session."""

import json

from tabagent.app.client_calls import sessions
from tabagent.app.json_entry_points import client_call_json, end_client_session

URL = "http://127.0.0.1/page.html"


class PageSide:
    """The service worker's and the page's answers: an action is described, then done; records
    what reached the page, and answers each question from a list."""

    def __init__(self, decisions=(), results=None):
        self.calls, self.asked, self.decisions, self.results = [], [], list(decisions), results or {}

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        self.calls.append((name, args, tab_id, expect_url))
        if name == "describe_action":
            return {"ok": True, "tab_id": 7, "url": URL, "result": {
                "action": args["name"], "summary": f"Do {args['name']}.", "page_url": URL,
                "element": {"summary": "button “Go”", "locator": "ta-1"}}}
        return self.results.get(name, {"ok": True, "tab_id": 7, "url": URL, "result": {"did": name}})

    async def confirm(self, ask_id, tool, message, details):
        self.asked.append((ask_id, message))
        return self.decisions.pop(0)


class LentPage:
    """The page bridge as the extension lends it to Python: JSON text both ways."""

    def __init__(self, bridge):
        self.bridge = bridge

    async def runPageTool(self, request_json):
        request = json.loads(request_json)
        return json.dumps(await self.bridge.run_page_tool(request["name"], request["args"], request.get("tab_id"),
                                                          request.get("expect_url")))

    async def confirm(self, ask_id, message):
        return await self.bridge.confirm(ask_id, None, message, {})


async def run_client_call(session, name, args, bridge, events, rules=""):
    reply = await client_call_json(json.dumps({"conversation_id": session, "site_rules": rules, "seq": 0}),
                                   json.dumps({"name": name, "args": args}),
                                   emit=lambda event: events.append(json.loads(event)), page_bridge=LentPage(bridge))
    return json.loads(reply)


def acted(bridge):
    return [name for name, *_ in bridge.calls if name != "describe_action"]


async def test_a_read_is_a_step_of_the_session_marked_as_page_content():
    events, bridge = [], PageSide(results={"read_page": {"ok": True, "url": URL, "result": {"title": "T", "text": "Hi"}}})
    reply = await run_client_call("s-read", "read_page", {}, bridge, events)
    assert reply["ok"] and 'untrusted="true"' in reply["result"]
    assert [e["kind"] for e in events] == ["step_start", "tool_call", "tool_result"]
    assert [e["seq"] for e in events] == [1, 2, 3] and {e["conversation_id"] for e in events} == {"s-read"}
    assert events[1]["data"]["name"] == "read_page" and events[2]["data"]["result"] == reply["result"]
    assert end_client_session("s-read") and not end_client_session("s-read")


async def test_a_denied_action_never_reaches_the_page_and_the_client_is_told():
    events, bridge = [], PageSide(decisions=["deny"])
    reply = await run_client_call("s-deny", "click", {"locator": "#buy"}, bridge, events)
    assert reply["result"].startswith("The user denied this click: nothing was done.")
    assert acted(bridge) == [] and [e["kind"] for e in events].count("confirmation") == 2
    end_client_session("s-deny")


async def test_allow_for_this_turn_lasts_the_session_and_ends_with_it():
    events, bridge = [], PageSide(decisions=["turn", "once"])
    for _ in range(2):
        await run_client_call("s-turn", "click", {"locator": "#go"}, bridge, events)
    assert len(bridge.asked) == 1 and acted(bridge) == ["click", "click"]
    end_client_session("s-turn")
    await run_client_call("s-turn", "click", {"locator": "#go"}, bridge, events)
    assert len(bridge.asked) == 2  # a new session asks again


async def test_a_site_the_user_never_allows_is_refused_without_asking():
    events, bridge = [], PageSide()
    reply = await run_client_call("s-never", "click", {"locator": "#go"}, bridge, events, rules="127.0.0.1: never")
    assert "denied" in reply["result"] and bridge.asked == [] and acted(bridge) == []
    end_client_session("s-never")


async def test_a_tool_not_offered_to_clients_is_refused_in_words():
    events, bridge = [], PageSide()
    reply = await run_client_call("s-other", "page_html", {}, bridge, events)
    assert reply == {"ok": False, "error": reply["error"]} and "offers no tool named 'page_html'" in reply["error"]
    assert bridge.calls == [] and events == [] and "s-other" in sessions.running
    end_client_session("s-other")
