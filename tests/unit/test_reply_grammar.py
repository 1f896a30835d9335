"""How each server says it can hold a reply to a tool call, and what the request then carries
(reply_grammar.py). Each server is played on 127.0.0.1 by the answers its own documentation
gives to the probe: llama.cpp's /props, the /openapi.json of llama-cpp-python and vLLM (FastAPI
apps), Ollama's /api/version, LM Studio's /api/v0/models. The real llama-cpp-python server holds
a real model's reply in tests/e2e/test_llama_grammar.py."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tabagent import CodeAgent, ToolCallingAgent, reply_grammar
from tabagent.call_log import CallLog
from tabagent.hosts import default_host
from tabagent.models import OpenAIModel
from tabagent.ollama import OllamaModel
from tabagent.testing import ScriptedModel
from tabagent.tools import tool

pytestmark = pytest.mark.timeout(30)


def openapi(request: str, *fields: str) -> dict:
    return {"components": {"schemas": {request: {"properties": {name: {} for name in ("messages", *fields)}}}}}


SERVERS = {
    "llama.cpp": {"/props": {"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1}},
    "llama-cpp-python": {"/openapi.json": openapi("CreateChatCompletionRequest", "grammar", "response_format", "tools")},
    "vLLM": {"/openapi.json": openapi("ChatCompletionRequest", "structured_outputs", "response_format", "tools")},
    "Ollama": {"/api/version": {"version": "0.12.3"}},
    "LM Studio": {"/api/v0/models": {"object": "list", "data": [{"id": "qwen2.5-coder-1.5b-instruct"}]}},
    "a plain endpoint": {},
}


class Server:
    """`replies`: the content of each chat reply in turn (by default a call of `look`)."""

    def __init__(self, answers: dict, replies: list[str] | None = None):
        self.answers, self.bodies, self.replies = answers, [], list(replies or [])
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                found = outer.answers.get(self.path)
                self._send(200 if found is not None else 404, found or {"error": "not found"})

            def do_POST(self):
                outer.bodies.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
                content = outer.replies.pop(0) if outer.replies else '{"name": "look", "arguments": {"word": "kettle"}}'
                self._send(200, {"choices": [{"index": 0, "finish_reason": "stop", "message": {
                    "role": "assistant", "content": content}}]})

            def _send(self, status, data):
                body = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.root = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@tool
def look(word: str) -> str:
    """Looks a word up.

    Args:
        word: the word
    """
    return word


SCHEMA = reply_grammar.tool_call_schema([look])


def final(answer):
    return {"tool_calls": [{"name": "final_answer", "arguments": {"answer": answer}}]}


@tool
def fetch(url: str) -> str:
    """Fetches a page.

    Args:
        url: the address
    """
    return "Compost: £9.45"


@pytest.mark.parametrize("server, way, with_tools, without_tools", [
    ("llama.cpp", "tool_choice", {"tool_choice": "required"},
     {"response_format": {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": SCHEMA}}}),
    ("llama-cpp-python", "json_object", {"response_format": {"type": "json_object", "schema": SCHEMA}}, None),
    ("vLLM", "tool_choice", {"tool_choice": "required"}, None),
    ("Ollama", "json_schema", {"response_format": {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": SCHEMA}}}, None),
    ("LM Studio", "json_schema", {"response_format": {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": SCHEMA}}}, None),
    ("a plain endpoint", None, {}, None),
])
async def test_each_server_says_so_its_way_and_is_asked_its_way(server, way, with_tools, without_tools):
    played = Server(SERVERS[server])
    try:
        model = OpenAIModel(played.root + "/v1", model="m", max_retries=0)
        assert await model.reply_constraint() == way
        await model.generate([{"role": "user", "content": "Look up kettle."}], [look.to_openai()], reply_schema=SCHEMA)
        await model.generate([{"role": "user", "content": "Look up kettle."}], None, reply_schema=SCHEMA)
        sent_with, sent_without = played.bodies
        held = {key: sent_with[key] for key in ("tool_choice", "response_format") if key in sent_with}
        assert held == with_tools
        if without_tools is not None:
            assert sent_without["response_format"] == without_tools["response_format"]
    finally:
        played.close()


async def test_ollama_s_native_api_takes_the_schema_as_its_format():
    played = Server(SERVERS["Ollama"])
    try:
        model = OllamaModel(played.root + "/v1", model="m", max_retries=0)
        assert model.url.endswith("/api/chat")
        assert await model.reply_constraint() == "format"
        host = default_host()
        assert await reply_grammar.way_of(host, model.url, None) == "format"
        assert model._held(SCHEMA, None) == {"format": SCHEMA}
    finally:
        played.close()


def test_a_refusal_is_remembered():
    reply_grammar._known["http://127.0.0.1:1/v1/chat/completions"] = "json_object"
    reply_grammar.forget("http://127.0.0.1:1/v1/chat/completions")
    assert reply_grammar.known_way("http://127.0.0.1:1/v1/chat/completions") is None


# --- In a turn ---------------------------------------------------------------------------------

GARBLED = '<tool_call>\n{"name": "fetch", "arguments": {"url": "https://shop.example/'  # cut off


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_after_two_unread_calls_the_next_reply_is_held_to_a_tool_call(agent_class, recorder):
    model = ScriptedModel([GARBLED, GARBLED, '{"name": "fetch", "arguments": {"url": "https://shop.example/"}}',
                           final("£9.45") if agent_class is ToolCallingAgent
                           else "```python\nfinal_answer('£9.45')\n```"], constraint="json_object")
    assert await agent_class(model, [fetch], listeners=[recorder]).run("Price?") == "£9.45"
    held = [call.get("reply_schema") for call in model.calls]
    assert held[:2] == [None, None] and held[3] is None
    names = [option["properties"]["name"]["const"] for option in held[2]["anyOf"]]
    assert "fetch" in names and "final_answer" in names
    assert held[2]["anyOf"][names.index("fetch")]["properties"]["arguments"]["required"] == ["url"]
    assert [(e.data["name"], e.data["result"]) for e in recorder.of("tool_result")][0] == ("fetch", "Compost: £9.45")
    assert [e.data["kind"] for e in recorder.of("error")] == ["constrained"]


async def test_an_endpoint_that_cannot_hold_a_reply_is_asked_as_ever():
    model = ScriptedModel([GARBLED, GARBLED, final("x")])
    assert await ToolCallingAgent(model, [fetch]).run("Price?") == "x"
    assert not any("reply_schema" in call for call in model.calls)


# --- The hold_replies setting --------------------------------------------------------------------

PLAN = 'I will fetch the page:\n```json\n{"name": "fetch", "arguments": {"url": "https://shop.example/"}}\n```'


async def test_held_from_the_first_reply_every_reply_is_held_and_nothing_is_said(recorder):
    # The 1.5B's first reply to the ToolCallingAgent was a plan in a fence on 6 of 7 tasks (bench
    # rows aa3e3ff), told back twice before a reply was held: held from the first, none is.
    model = ScriptedModel([FETCH, final("£9.45")], constraint="json_object")
    agent = ToolCallingAgent(model, [fetch], listeners=[recorder], hold_replies="every_reply")
    assert await agent.run("Price?") == "£9.45"
    held = [call.get("reply_schema") for call in model.calls]
    assert all(schema is not None and "fetch" in names_held(schema) and "final_answer" in names_held(schema)
               for schema in held)
    assert not recorder.of("error")  # held as the user set it: no notice each step


async def test_held_from_the_first_reply_the_code_agent_is_asked_as_ever():
    model = ScriptedModel(["```python\nfinal_answer('£9.45')\n```"], constraint="json_object")
    assert await CodeAgent(model, [fetch], hold_replies="every_reply").run("Price?") == "£9.45"
    assert "reply_schema" not in model.calls[0]  # its replies are code, not a call


async def test_never_held_two_unread_calls_and_a_pressed_call_are_asked_as_ever():
    model = ScriptedModel([GARBLED, GARBLED, FETCH, FETCH, FETCH, final("£9.45")], constraint="json_object")
    assert await ToolCallingAgent(model, [fetch, look], hold_replies="never").run("Price?") == "£9.45"
    assert not any("reply_schema" in call for call in model.calls)


async def test_held_from_the_first_an_endpoint_that_cannot_is_asked_as_ever():
    model = ScriptedModel([PLAN, FETCH, final("£9.45")])
    assert await ToolCallingAgent(model, [fetch], hold_replies="every_reply").run("Price?") == "£9.45"
    assert not any("reply_schema" in call for call in model.calls)


@pytest.mark.parametrize("setting", ["", "always", None])
async def test_an_unknown_hold_setting_holds_after_two_misreads(setting):
    model = ScriptedModel([GARBLED, GARBLED, FETCH, final("£9.45")], constraint="json_object")
    assert await ToolCallingAgent(model, [fetch], hold_replies=setting).run("Price?") == "£9.45"
    assert [("reply_schema" in call) for call in model.calls] == [False, False, True, False]


async def test_the_setting_reaches_the_agent_and_its_team_through_a_turn():
    from tabagent.app.turns import Turns
    from tabagent.app.wire import SETTINGS

    assert SETTINGS["hold_replies"] in reply_grammar.HOLDS
    team = [{"name": "helper", "description": "Does a thing.", "agent": "tool_calling"}]
    model = ScriptedModel([{"tool_calls": [{"name": "helper", "arguments": {"task": "Do it."}}]}, final("done"),
                           final("Done.")], constraint="json_object")
    request = {"conversation_id": "c", "task": "Hi", "settings": {
        "agent": "tool_calling", "base_url": "http://x", "hold_replies": "every_reply", "team": team}}
    await Turns().run(request, lambda e: None, model=model)
    assert len(model.calls) == 3 and all("reply_schema" in call for call in model.calls)
    assert "helper" in names_held(model.calls[0]["reply_schema"])


# --- A call made again after the model was told it repeated it ---------------------------------

FETCH = {"tool_calls": [{"name": "fetch", "arguments": {"url": "https://shop.example/"}}]}


def names_held(schema: dict) -> list[str]:
    return [option["properties"]["name"]["const"] for option in schema.get("anyOf", [schema])]


async def test_a_call_made_again_after_told_holds_the_next_reply_to_the_other_tools(recorder):
    # Run, told it repeated, asked again (it runs): the next request, and it alone, is held from it.
    model = ScriptedModel([FETCH, FETCH, FETCH, final("£9.45")], constraint="json_object")
    assert await ToolCallingAgent(model, [fetch, look], listeners=[recorder]).run("Price?") == "£9.45"
    held = [call.get("reply_schema") for call in model.calls]
    assert held[:3] == [None, None, None]
    names = names_held(held[3])
    assert "fetch" not in names and {"look", "final_answer"} <= set(names)
    assert [e.data["kind"] for e in recorder.of("error")] == ["constrained"]
    assert "fetch" in recorder.of("error")[0].data["message"]


async def test_a_settled_call_asked_again_holds_each_next_reply_from_it():
    # Held, the model called another tool; back to the same call (settled: not run), held again.
    look_kettle = {"tool_calls": [{"name": "look", "arguments": {"word": "kettle"}}]}
    model = ScriptedModel([FETCH, FETCH, FETCH, look_kettle, FETCH, final("£9.45")], constraint="json_object")
    assert await ToolCallingAgent(model, [fetch, look]).run("Price?") == "£9.45"
    held = [call.get("reply_schema") for call in model.calls]
    assert [schema is not None for schema in held] == [False, False, False, True, False, True]
    assert "fetch" not in names_held(held[5]) and "final_answer" in names_held(held[5])


async def test_a_call_told_once_and_not_asked_again_holds_nothing():
    model = ScriptedModel([FETCH, FETCH, final("£9.45")], constraint="json_object")
    assert await ToolCallingAgent(model, [fetch, look]).run("Price?") == "£9.45"
    assert not any("reply_schema" in call for call in model.calls)


async def test_an_endpoint_that_cannot_hold_a_reply_is_told_the_repeat_as_ever(recorder):
    model = ScriptedModel([FETCH, FETCH, FETCH, final("£9.45")])
    assert await ToolCallingAgent(model, [fetch, look], listeners=[recorder]).run("Price?") == "£9.45"
    assert not any("reply_schema" in call for call in model.calls)
    assert not recorder.of("error")
    told = [e.data["result"] for e in recorder.of("tool_result")][1]
    assert "same arguments" in told and "Compost: £9.45" in told


def test_an_act_between_leaves_a_call_made_again_unpressed():
    log = CallLog()
    for step, name in enumerate(["fetch", "fetch", "click", "fetch"], start=1):
        log.start_step(step)
        arguments = {"url": "https://shop.example/"} if name == "fetch" else {}
        if name == "fetch" and log.repeat_of(name, arguments) is not None:
            log.repeated(name)
        else:
            log.ran(name, arguments, "Compost: £9.45" if name == "fetch" else "Clicked.", tool=CLICK if name == "click" else None)
        log.end_step()
    assert log.pressed is None  # told in step 2; the click in step 3; step 4 runs as a first call


class Click:
    acts = True
    parameters = {"properties": {}}


CLICK = Click()


async def test_llama_cpp_is_sent_only_the_other_tools_with_tool_choice_required():
    # llama.cpp holds a reply with tools to one of those the request carries: the held request's
    # body carries them without fetch, final_answer among them, and tool_choice "required".
    call = '{"name": "fetch", "arguments": {"url": "https://shop.example/"}}'
    played = Server(SERVERS["llama.cpp"], replies=[call, call, call, '{"name": "final_answer", "arguments": {"answer": "£9.45"}}'])
    try:
        model = OpenAIModel(played.root + "/v1", model="m", max_retries=0, stream=False)
        assert await ToolCallingAgent(model, [fetch, look]).run("Price?") == "£9.45"
        sent = [[t["function"]["name"] for t in body["tools"]] for body in played.bodies]
        assert [body.get("tool_choice") for body in played.bodies] == [None, None, None, "required"]
        assert "fetch" in sent[0] and "fetch" not in sent[3]
        assert set(sent[3]) == set(sent[0]) - {"fetch"} and "final_answer" in sent[3]
    finally:
        played.close()


# --- A plan of calls: held at once ------------------------------------------------------------

# cheaper-kettle (rows 48409b2), the 1.5B's first reply, as the row keeps it, up to its third step.
PLAN_OF_CALLS = (
    "To answer this question, I'll follow these steps:\n\n1. **List the tabs**: First, I need to list both open "
    "tabs.\n2. **Read each tab's content**: Then, I'll read the content of each tab to find the blue enamel kettle "
    "and its price.\n\nHere are the detailed steps with JSON calls:\n\n### Step 1: List the Tabs\n```json\n"
    "{\"name\": \"list_tabs\"}\n```\n\n### Step 2: Read Each Tab's Content\n#### Tab 1: http://127.0.0.1:34127/shop.html\n"
    "```json\n{\"name\": \"read_tab\", \"arguments\": {\"tab_id\": 1, \"page\": 1}}\n```\n\n#### Tab 2: "
    "http://127.0.0.1:34127/shop2.html\n```json\n{\"name\": \"read_tab\", \"arguments\": {\"tab_id\": 2, \"page\": 1}}\n```\n")


@tool
def list_tabs() -> str:
    """Lists the tabs of the user's window."""
    return "7: Harbour Kitchen Shop\n8: Quayside Kettles"


@tool
def read_tab(tab_id: int, page: int = 1) -> str:
    """Reads another tab.

    Args:
        tab_id: its id, from list_tabs.
        page: which part, from 1.
    """
    return "Blue enamel kettle: £21.90" if tab_id == 8 else "Blue enamel kettle: £24.50"


async def test_a_plan_of_calls_holds_the_next_reply_at_once(recorder):
    """Told back, the 1.5B answered "Please provide the call again" and read the one tab it was on;
    its plan meant calls, written whole, only quoted: the next reply is held at once."""
    model = ScriptedModel([PLAN_OF_CALLS, {"tool_calls": [{"name": "list_tabs", "arguments": {}}]},
                           final("Quayside Kettles, £21.90")], constraint="json_object")
    agent = ToolCallingAgent(model, [list_tabs, read_tab], listeners=[recorder])
    assert await agent.run("Which of my two open tabs sells the blue enamel kettle for less?") == "Quayside Kettles, £21.90"
    held = [call.get("reply_schema") for call in model.calls]
    assert held[0] is None and held[1] is not None and held[2] is None
    assert {"list_tabs", "read_tab", "final_answer"} <= set(names_held(held[1]))


async def test_a_garbled_call_still_holds_only_after_two():
    model = ScriptedModel([GARBLED, FETCH, final("£9.45")], constraint="json_object")
    assert await ToolCallingAgent(model, [fetch]).run("Price?") == "£9.45"
    assert not any("reply_schema" in call for call in model.calls)
