"""What real small models did when they first ran the agent (issue 48: Qwen2.5-Coder 0.5B and
1.5B on llama.cpp's server), answered at the mechanism, in both agents:

- a tool's input schema is named by its `title` ("fetchArguments", as the MCP SDK titles it),
  and the 0.5B called that name: titles never reach the model;
- a final answer sent with the call it needed ("10.23 kg" beside the fetch) ended the task:
  it waits for their results;
- the same call six times in a row: a repeat is told, once, with what it returned;
- `import requests`, `pip install` and the prompt's own example data as the answer: the
  CodeAgent's prompt says what its Python can and cannot do, and its example holds no data;
- fetch, note, more_tools, round again: note and more_tools cannot loop;
- the first reply showed the call in a ```json block and went on talking ("This will read the
  page at ..."), and that was taken as the answer: a reply that says it makes a call and only
  shows it is never the answer, is shown the call written the way that runs, and counts as a
  call not read (two, and the next reply is held to a call where the endpoint can);
- out of steps, the last reply (a read_page call in a ```json block) was the answer the user got:
  a call or code is never the answer;
- the address in the message given as the shop's, unread: held once a turn;
- the same short page read eight times at max_tokens 200: the same text, however asked for, is
  told once, and parts made small say how to read the page whole;
- the prompt's tool listing pasted as definitions (`def read_page(...)` with a made-up body),
  block after block, with or without a call of the tool: a definition never replaces a tool (code
  that also calls something runs without it, and the panel shows what ran), and the listing
  holds no definition to paste.
"""

import asyncio
import json
import re

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.app.sandbox_executor import SandboxExecutor
from tabagent.testing import ScriptedModel
from tabagent.tools import Tool, tool
from tests.helpers.logged_read_page import logged_read_page
from tests.helpers.scripted_turns import calls, told

pytestmark = pytest.mark.timeout(30)

PAGE = "Hillside Garden Supplies. Compost, 40 litre bag: £9.45 (weighs 22 pounds)."


def fetch_tool(log):
    @tool
    def fetch(url: str) -> str:
        """Fetches a page.

        Args:
            url: the address
        """
        log.append(url)
        return PAGE
    return fetch


def click_tool(log):
    @tool
    def click(locator: str) -> str:
        """Clicks.

        Args:
            locator: what
        """
        log.append(locator)
        return "clicked"
    return click


# --- Titles ---------------------------------------------------------------------------------

async def mcp_sdk_schema():
    """A tool's input schema as the official MCP SDK makes it (pydantic titles it)."""
    from mcp.server.mcpserver import MCPServer
    server = MCPServer("web")

    @server.tool()
    def fetch(url: str, title: str = "", max_length: int = 5000) -> str:
        """Fetches a URL."""
        return ""

    return (await server.list_tools())[0].input_schema


class SchemaTool(Tool):
    def __init__(self, name, schema):
        self.name, self.description, self.inputs = name, "Fetches a URL.", schema

    def forward(self, **arguments):
        return PAGE


async def test_schema_titles_never_reach_the_model():
    schema = await mcp_sdk_schema()
    assert schema["title"] == "fetchArguments"  # what the 0.5B called, six times
    fetch = SchemaTool("web__fetch", schema)
    model = ScriptedModel([calls(("web__fetch", {"url": "https://shop.example/"})), calls(("final_answer", {"answer": "ok"}))])
    for agent in (ToolCallingAgent(model, [fetch]), CodeAgent(ScriptedModel(["It is ok."]), [fetch])):
        await agent.run("Read the shop.")
    sent = json.dumps(model.calls[0]["tools"])
    code_prompt = agent.model.calls[0]["messages"][0]["content"]
    assert "fetchArguments" not in sent and '"title"' not in sent.replace('"title": {', "")
    assert "fetchArguments" not in code_prompt
    shown = fetch.to_openai()["function"]["parameters"]
    assert set(shown["properties"]) == {"url", "title", "max_length"}  # a field named title stays
    assert shown["properties"]["url"] == {"type": "string"}  # "Url" says nothing more than its name


def test_a_title_that_says_more_than_the_name_becomes_the_description():
    shown = SchemaTool("t", {"type": "object", "title": "Args", "properties": {
        "q": {"type": "string", "title": "Search words"},
        "n": {"type": "integer", "title": "N", "description": "How many."},
        "where": {"anyOf": [{"title": "Place", "type": "string"}, {"type": "null"}], "default": None}}}).shown()
    assert shown["parameters"] == {"type": "object", "properties": {
        "q": {"type": "string", "description": "Search words"},
        "n": {"type": "integer", "description": "How many."},
        "where": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}}


# --- A final answer beside other calls --------------------------------------------------------

async def test_the_code_agent_holds_an_answer_written_out_beside_a_tool_call(recorder):
    log = []
    model = ScriptedModel(["```python\npage = fetch(url='https://shop.example/')\nfinal_answer('10.23 kg')\n```",
                           "```python\nprint(page)\n```",
                           "```python\nfinal_answer(round(22 * 0.4536, 2))\n```"])
    assert await CodeAgent(model, [fetch_tool(log)], listeners=[recorder]).run("How many kg?") == 9.98
    assert "not taken" in told(model, 1) and "fetch" in told(model, 1)
    assert "22 pounds" in told(model, 2)


async def test_the_code_agent_takes_an_answer_computed_from_what_the_code_got():
    model = ScriptedModel(["```python\npage = fetch(url='https://shop.example/')\nfinal_answer(page.split('£')[1][:4])\n```"])
    assert await CodeAgent(model, [fetch_tool([])]).run("Price?") == "9.45"


# --- A call repeated ------------------------------------------------------------------------

async def test_a_repeated_call_is_told_once_with_what_it_returned(recorder):
    log = []
    url = {"url": "https://shop.example/"}
    model = ScriptedModel([calls(("fetch", url)), calls(("note", {"text": "Compost weighs 22 lb."})),
                           calls(("fetch", url)), calls(("fetch", url)), calls(("final_answer", {"answer": "9.98"}))])
    assert await ToolCallingAgent(model, [fetch_tool(log)], listeners=[recorder]).run("Compost in kg?") == "9.98"
    assert len(log) == 2  # the first repeat was told, the second (the model insists) ran
    assert "same arguments in step 1" in told(model, 3) and "22 pounds" in told(model, 3)
    assert "same arguments" not in told(model, 4)
    results = [e.data for e in recorder.of("tool_result") if e.data["name"] == "fetch"]
    assert [r["is_error"] for r in results] == [False, False, False]


async def test_a_call_after_an_action_is_no_repeat():
    log, clicks = [], []
    click = click_tool(clicks)

    url = {"url": "https://shop.example/"}
    model = ScriptedModel([calls(("fetch", url)), calls(("click", {"locator": "#next"})), calls(("fetch", url)),
                           calls(("final_answer", {"answer": "done"}))])
    await ToolCallingAgent(model, [fetch_tool(log), click]).run("Next page")
    assert len(log) == 2 and clicks == ["#next"]


async def test_an_action_twice_is_two_acts():
    """A click (a tool that acts, each call asked of the user) repeated is another click: the
    page's tools say which act, and the user decides about each."""
    from tabagent.app.page_actions import ACTING, BY_POSITION
    from tabagent.app.page_tools import CHOOSING_THE_TAB, page_tools
    acting = {t.name for t in page_tools(None, None) if t.acts}
    assert acting >= {"click", "type_text", "press_key", "scroll", "navigate"}
    assert acting <= {*ACTING, *BY_POSITION, *CHOOSING_THE_TAB}
    clicks = []
    click = click_tool(clicks)

    click.acts = True
    model = ScriptedModel([calls(("click", {"locator": "#next"})), calls(("click", {"locator": "#next"})),
                           calls(("final_answer", {"answer": "two pages on"}))])
    await ToolCallingAgent(model, [click]).run("Two pages on")
    assert clicks == ["#next", "#next"]


async def test_the_code_agent_gets_a_repeated_call_s_value_without_running_it_again():
    log = []
    model = ScriptedModel(["```python\npage = fetch(url='https://shop.example/')\nprint(len(page))\n```",
                           "```python\nagain = fetch(url='https://shop.example/')\nprint(again == page)\n```",
                           "```python\nfinal_answer('done')\n```"])
    await CodeAgent(model, [fetch_tool(log)]).run("Read it")
    assert len(log) == 1
    assert "same arguments as in step 1" in told(model, 2) and "True" in told(model, 2)


# --- The CodeAgent's prompt -----------------------------------------------------------------

def test_the_code_prompt_says_what_its_python_can_and_cannot_do():
    class Sandbox:
        def warm(self):
            pass

    for agent, expected in ((CodeAgent(ScriptedModel([]), [fetch_tool([])], executor=SandboxExecutor(Sandbox())),
                             "BeautifulSoup"), (CodeAgent(ScriptedModel([]), [fetch_tool([])]), "Install nothing")):
        prompt = agent.system_prompt()
        assert expected in prompt and "pip" in prompt and "requests" in prompt
        assert re.search(r"no network|reach pages and the web through the tools", prompt)


@pytest.mark.parametrize("tools", [[], "fetch"])
def test_the_code_prompt_s_example_holds_no_value_a_task_could_ask_for(tools):
    agent = CodeAgent(ScriptedModel([]), [fetch_tool([])] if tools else [])
    example = re.search(r"```python\n(.*?)```", agent.system_prompt(), re.S)[1]
    assert not re.search(r"\d|['\"]", example), example  # no number, no string: nothing to copy as data
    if tools:
        assert example.startswith("found = fetch(url=...)")


# --- note and more_tools cannot loop --------------------------------------------------------

@tool
def convert(value: float) -> float:
    """Converts pounds to kilograms.

    Args:
        value: pounds
    """
    return value * 0.4536


convert.example = True  # left out of the listing: more_tools has something to list


async def test_note_and_more_tools_cannot_loop():
    """The 1.5B went fetch, note, more_tools, round again for six steps, and never answered."""
    log = []
    url = {"url": "https://shop.example/"}
    loop = [calls(("fetch", url)), calls(("note", {"text": "Find the address."})), calls(("more_tools", {}))] * 3
    model = ScriptedModel([*loop, calls(("final_answer", {"answer": "14 Orchard Lane"}))])
    agent = ToolCallingAgent(model, [fetch_tool(log), convert], tool_set="compact")
    assert await agent.run("What is the shop's address?") == "14 Orchard Lane"
    assert len(log) == 2 and agent.memory.notes == ["Find the address."]
    assert "same arguments" in told(model, 4)  # the second fetch: told
    assert "noted this already" in told(model, 5)
    assert "list already" in told(model, 6)


async def test_only_notes_and_listings_two_steps_running_are_refused():
    model = ScriptedModel([calls(("note", {"text": "one"})), calls(("more_tools", {})), calls(("note", {"text": "two"})),
                           calls(("final_answer", {"answer": "done"}))])
    agent = ToolCallingAgent(model, [fetch_tool([])], tool_set="compact")
    await agent.run("Go")
    assert "does not move the task on" in told(model, 3) and agent.memory.notes == ["one"]


async def test_more_tools_named_twice_says_so():
    agent = ToolCallingAgent(ScriptedModel([]), [fetch_tool([])], tool_set="compact")
    agent.tools["fetch"].example = True  # left out of the compact set's listing
    more = agent.tools["more_tools"]
    assert (await more(names=["fetch"])).startswith("Now available: fetch")
    assert await more(names=["fetch"]) == "fetch was available already."


async def test_a_managed_run_starts_with_its_own_call_log():
    agent = ToolCallingAgent(ScriptedModel([calls(("final_answer", {"answer": "a"})), calls(("final_answer", {"answer": "b"}))]), [])
    await agent.run("one")
    first = agent.calls
    await agent.run("two")
    assert agent.calls is not first
    await asyncio.sleep(0)


async def test_a_refusal_is_no_result_to_tell_again():
    """A read the user refused ("nothing was read") asks again when the model repeats it."""
    from tabagent.tools import Refused
    asked = []

    @tool
    def read_tab(tab_id: int) -> str:
        """Reads another tab, if the user allows it.

        Args:
            tab_id: which
        """
        asked.append(tab_id)
        return Refused("The user did not allow reading tab 7: nothing was read.") if len(asked) == 1 else "Balance: 9.00"

    model = ScriptedModel([calls(("read_tab", {"tab_id": 7})), calls(("read_tab", {"tab_id": 7})),
                           calls(("final_answer", {"answer": "9.00"}))])
    assert await ToolCallingAgent(model, [read_tab]).run("My balance?") == "9.00"
    assert asked == [7, 7]


def test_a_long_page_said_again_keeps_its_marking_whole():
    from tabagent.app.untrusted_content import untrusted
    from tabagent.call_log import Earlier, told_again
    told = told_again("read_page", Earlier(2, untrusted("https://shop.example/", "Kettle. " * 1000)))
    assert told.count("<page_content source=") == told.count("</page_content>") == 1
    assert told.index("</page_content>") < told.index("the rest is in step 2")


# --- A call shown, not made, before anything ran ------------------------------------------

# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, its own chat template, llama-cpp-python's server) as
# TabAgent's ToolCallingAgent, first reply of the real-model bench's kettle-price task
# (bench/results/real-models-rows.jsonl, 2026-12-06); cut where the row keeps it, address kept.
SHOWN_NOT_MADE = (
    "To answer this question, I'll use the `read_page` function from the provided tools. The page "
    "is located at http://127.0.0.1:40811/shop.html.\n\nHere's how I'll call the `read_page` "
    "function:\n\n```json\n{\"name\": \"read_page\", \"arguments\": {\"page\": 1, \"max_tokens\": "
    "100000}}\n```\n\nThis will read the page at ")


def read_page_tool(log):
    @tool
    def read_page(page: int = 1, max_tokens: int = 2000) -> str:
        """Reads the page the user is on.

        Args:
            page: which part
            max_tokens: how much
        """
        log.append(page)
        return PAGE
    return read_page


# The same task at 9dad3e1 (bench/results/real-models-rows.jsonl, 2026-12-06): told once, the
# 0.5B said it again in other words, and this was the answer the user got. Cut where the row keeps it.
SHOWN_AGAIN = (
    "To answer this question, I'll use the `read_page` function from the provided XML tags. The page "
    "is located at http://127.0.0.1:42877/shop.html.\n\nHere's how I would call the `read_page` "
    "function:\n\n```json\n{\"name\": \"read_page\", \"arguments\": {\"page\": 1, \"max_tokens\": "
    "100000}}\n```\n\nThis will read the fi")
# An answer that quotes a call and says nothing of making it (written for this test).
QUOTES_A_CALL = ("To read a page, a tool call looks like this:\n\n```json\n{\"name\": \"read_page\", "
                 "\"arguments\": {\"page\": 1}}\n```\n\nIt returns the page's text as Markdown.")


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_call_said_and_only_shown_is_told_back_written_the_way_that_runs(agent_class):
    log = []
    again = calls(("read_page", {})) if agent_class is ToolCallingAgent else "```python\nprint(read_page())\n```"
    answer = calls(("final_answer", {"answer": "£9.45"})) if agent_class is ToolCallingAgent else \
        "```python\nfinal_answer(\"£9.45\")\n```"
    model = ScriptedModel([SHOWN_NOT_MADE, again, answer])
    assert await agent_class(model, [read_page_tool(log)]).run("What does the compost cost?") == "£9.45"
    assert log == [1]  # the shown call never ran; the one made next did
    written = ('{"name": "read_page", "arguments": {"page": 1, "max_tokens": 100000}}' if agent_class is ToolCallingAgent
               else "```python\nprint(read_page(page=1, max_tokens=100000))\n```")
    assert "You said you would call read_page" in told(model, 1) and written in told(model, 1)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_call_said_and_only_shown_is_never_the_answer_and_cannot_loop(agent_class):
    model = ScriptedModel([SHOWN_NOT_MADE, SHOWN_AGAIN, SHOWN_NOT_MADE, SHOWN_AGAIN])
    answer = await agent_class(model, [read_page_tool([])], max_steps=3).run(
        "How much does the kettle cost? (The page is http://127.0.0.1:42877/shop.html.)")
    assert answer.startswith("I ran out of steps (3) before I could answer") and "I called no tool." in answer
    assert len(model.calls) == 3  # three steps, bounded (nothing read: no best answer is asked)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_call_said_and_only_shown_holds_the_next_reply_to_a_call(agent_class):
    # The endpoint holds replies (llama-cpp-python's server: a json_object with a schema), as
    # the bench's does: a call written whole but only shown means a call, so the next reply is
    # held to a call of the listed tools at once (not after two, as a garbled one), and runs.
    log = []
    held = '{"name": "read_page", "arguments": {"page": 1}}'
    answer = calls(("final_answer", {"answer": "£9.45"})) if agent_class is ToolCallingAgent else \
        "```python\nfinal_answer(\"£9.45\")\n```"
    model = ScriptedModel([SHOWN_NOT_MADE, held, answer], constraint="json_object")
    assert await agent_class(model, [read_page_tool(log)]).run("What does the compost cost?") == "£9.45"
    assert log == [1]
    assert [("reply_schema" in call) for call in model.calls] == [False, True, False]


# Qwen2.5-Coder-1.5B as TabAgent's ToolCallingAgent on the bench's kettle-price task, its fourth reply,
# after two reads (bench/results/real-models-rows.jsonl, 6881571, 2026-12-07): taken as the answer.
SORRY_AND_A_CALL = ("I'm sorry, but the text returned by the `read_page` function is not helpful for answering the "
                    "question. You need to search for a specific price element on the page.\n\n```json\n"
                    "{\"name\": \"find_in_page\", \"arguments\": {\"query\": \"price blue enamel kettle\", "
                    "\"case_sensitive\": false}}\n```\n\nThis will return the locator of the element containing the "
                    "price information.")


@tool
def find_in_page(query: str, case_sensitive: bool = False) -> str:
    """Finds text on the page.

    Args:
        query: what to find
        case_sensitive: whether case counts
    """
    return "1 match: Blue enamel kettle, £24.50"


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_after_a_read_a_reply_that_shows_a_call_is_told_back_not_the_answer(agent_class):
    first, last = read_then_answer(agent_class, "£24.50")
    model = ScriptedModel([first, SORRY_AND_A_CALL, SORRY_AND_A_CALL, last])
    assert await agent_class(model, [read_page_tool([]), find_in_page]).run(ASKED) == "£24.50"
    for n in (2, 3):  # each time, with the call written the way that runs
        assert "a call of find_in_page" in told(model, n)
        assert ('{"name": "find_in_page", "arguments": {"query": "price blue enamel kettle", "case_sensitive": false}}'
                if agent_class is ToolCallingAgent else
                "find_in_page(query='price blue enamel kettle', case_sensitive=False)") in told(model, n), told(model, n)


async def test_a_reply_that_shows_a_call_then_answers_in_words_gives_that_answer():
    model = ScriptedModel([QUOTES_A_CALL, "A page is read with read_page."])
    assert await ToolCallingAgent(model, [read_page_tool([])]).run("How do I read a page?") == \
        "A page is read with read_page."
    assert "inside a code block" in told(model, 1)


# --- Out of steps: a last reply that is a call is not the answer ------------------------------

# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, its own chat template, llama-cpp-python's server) as
# TabAgent's ToolCallingAgent, its reply to "You have used all your steps" in the real-model
# bench's shop-address task (bench/results/real-models-rows.jsonl, 0822f43, 2026-12-06): kept as
# the final answer the user got.
LAST_REPLY_A_CALL = ('```json\n{\n  "name": "read_page",\n  "arguments": {\n    "page": 1,\n'
                     '    "max_tokens": 200\n  }\n}\n```')


@pytest.mark.parametrize("last", [
    LAST_REPLY_A_CALL,  # written as text, as the 0.5B did
    calls(("read_page", {"page": 2})),  # made natively
    '<tool_call>\n{"name": "read_page", "arguments": {"page": 2}}\n</tool_call>',  # Hermes/Qwen's tags
    '{"name": "read_page", "arguments": {"page": 2',  # cut off: a call that could not be read
    "",  # nothing
])
async def test_a_tool_calling_agent_out_of_steps_never_answers_with_a_call(last):
    log = []
    model = ScriptedModel([calls(("read_page", {"page": 1, "max_tokens": 200})),
                           calls(("note", {"text": "The address is on part 1."})), last])
    answer = await ToolCallingAgent(model, [read_page_tool(log)], max_steps=2).run("What is the shop's address?")
    assert log == [1]  # the last reply's call did not run
    assert answer.startswith("I ran out of steps (2) before I could answer")
    assert "What I did: read_page, note." in answer and "- The address is on part 1." in answer
    assert "max_tokens" not in answer and '"name"' not in answer


@pytest.mark.parametrize("last", [
    "```python\nprint(read_page(page=2))\n```",  # code: not run, not an answer
    "```python\naddress = read_page()\nfinal_answer(address)\n```",  # its answer needs the code run
    LAST_REPLY_A_CALL,  # a call the tool-calling way
])
async def test_a_code_agent_out_of_steps_never_answers_with_code_not_run(last):
    log = []
    model = ScriptedModel(["```python\nprint(read_page(page=1, max_tokens=200))\n```", last])
    answer = await CodeAgent(model, [read_page_tool(log)], max_steps=1).run("What is the shop's address?")
    assert log == [1]
    assert answer == "I ran out of steps (1) before I could answer: my last reply asked for another step " \
                     "instead of answering, and it was not run. What I did: read_page."


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_out_of_steps_an_answer_in_words_or_written_out_is_kept(agent_class):
    for last, expected in (("The shop is at 14 Quay Street.", "The shop is at 14 Quay Street."),
                           ('```python\nfinal_answer("14 Quay Street")\n```' if agent_class is CodeAgent
                            else calls(("final_answer", {"answer": "14 Quay Street"})), "14 Quay Street")):
        first = calls(("read_page", {})) if agent_class is ToolCallingAgent else "```python\nprint(read_page())\n```"
        model = ScriptedModel([first, last])
        assert await agent_class(model, [read_page_tool([])], max_steps=1).run("Address?") == expected


# --- An answer before the page the message points at was read -------------------------------

# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, llama-cpp-python's server) as TabAgent's CodeAgent, its
# first and only reply in the real-model bench's shop-address task (bench/results/real-models-
# rows.jsonl, 0822f43, 2026-12-06): the address of the page in the message, as the shop's.
ASKED = "What is the shop's street address? (The page is http://127.0.0.1:44911/shop.html.)"
UNREAD_ANSWER = "The shop's street address is 127.0.0.1:44911"


def unread_answers(agent_class):
    """The same unread answer in each way the agent can give one."""
    if agent_class is ToolCallingAgent:
        return [UNREAD_ANSWER, calls(("final_answer", {"answer": UNREAD_ANSWER}))]
    return [UNREAD_ANSWER, f"```python\nfinal_answer({UNREAD_ANSWER!r})\n```"]


def read_then_answer(agent_class, answer="14 Quay Street"):
    if agent_class is ToolCallingAgent:
        return [calls(("read_page", {})), calls(("final_answer", {"answer": answer}))]
    return ["```python\nprint(read_page())\n```", f"```python\nfinal_answer({answer!r})\n```"]


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_an_answer_before_the_page_was_read_is_held_once(agent_class):
    for unread in unread_answers(agent_class):
        log = []
        model = ScriptedModel([unread, *read_then_answer(agent_class)])
        assert await agent_class(model, [read_page_tool(log)]).run(ASKED) == "14 Quay Street"
        assert log == [1]
        said = told(model, 1)
        assert "You have not read the page yet" in said
        assert ("Call read_page() first" if agent_class is ToolCallingAgent else "print(read_page())") in said


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_held_once_a_turn_then_the_answer_stands(agent_class):
    unread = unread_answers(agent_class)
    model = ScriptedModel([unread[1], unread[0]])
    assert await agent_class(model, [read_page_tool([])]).run(ASKED) == UNREAD_ANSWER
    assert len(model.calls) == 2


# Qwen2.5-Coder-1.5B's CodeAgent on the bench's kettle-price task (bench/results/real-models-
# rows.jsonl, 6881571, 2026-12-07, its two replies as the meter kept them): a promise to read the
# page, then an answer made up unread. The promise had spent the turn's one "not read yet" note,
# so the made-up price was the answer the user got; flour-kg went the same way.
PROMISED = "I will read the page, list its controls, and find the cost of the blue enamel kettle."
MADE_UP = "The blue enamel kettle costs $15."


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_promise_to_read_does_not_spend_the_note_on_an_answer_unread(agent_class):
    log = []
    model = ScriptedModel([PROMISED, MADE_UP, *read_then_answer(agent_class, "£24.50")])
    assert await agent_class(model, [read_page_tool(log)]).run(ASKED) == "£24.50"
    assert log == [1]
    assert "You said what you would do" in told(model, 1) and "read_page" in told(model, 1)
    assert "You have not read the page yet" in told(model, 2)


# The same model's CodeAgent on the newsletter task (same rows): its code ended with note(...), and
# its next reply, the answer taken, was the note tool's result in its own words.
@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_the_note_tool_s_result_said_back_is_not_the_answer(agent_class):
    noting = (calls(("note", {"text": "Subscribed with ada@example.org."})) if agent_class is ToolCallingAgent
              else '```python\nnote("Subscribed with ada@example.org.")\n```')
    model = ScriptedModel([*read_then_answer(agent_class)[:1], noting, "I noted (1 note kept).",
                           *read_then_answer(agent_class)[1:]])
    assert await agent_class(model, [read_page_tool([])]).run(ASKED) == "14 Quay Street"
    assert "repeats what I told you" in told(model, 3)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
@pytest.mark.parametrize("message", [
    "What is 17 times 3?",  # needs no page
    "How do I add a page number in Word?",  # "a page", not one to read
    # the page's text is in the message: a selection (as page_bridge.selection_task marks it)
    "What does this mean?\n\nThe user selected text on a web page; it is below, with the page's title and "
    "address.\n<page_content source=\"https://shop.example/\">\nPage address: https://shop.example/\n"
    "Selected text:\nPW3 9QA\n</page_content>",
])
async def test_a_message_that_points_at_no_page_to_read_is_answered_at_once(agent_class, message):
    model = ScriptedModel(unread_answers(agent_class)[1:])
    assert await agent_class(model, [read_page_tool([])]).run(message) == UNREAD_ANSWER
    assert len(model.calls) == 1


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_after_a_read_the_answer_is_not_held(agent_class):
    model = ScriptedModel(read_then_answer(agent_class, UNREAD_ANSWER))
    assert await agent_class(model, [read_page_tool([])]).run("What does this page say?") == UNREAD_ANSWER
    assert len(model.calls) == 2


# The same model and task after the note above landed (bench/results/real-models-rows.jsonl,
# 9dad3e1, 2026-12-06): the CodeAgent's second reply gave the note's own sentence as the answer.
ECHOED_NOTE = ("Read the page first, e.g. print(read_page()) in a ```python block, then answer with "
               "final_answer(...) from what it prints; if the question needs no page, give your answer again.")
# The ToolCallingAgent's note said back the same way (not recorded: its note is worded for calls).
ECHOED_TOOL_NOTE = "Call read_page() first, then answer from what it shows; if the question needs no page, give your answer again."


def echoed_answers(agent_class):
    if agent_class is ToolCallingAgent:
        return [ECHOED_TOOL_NOTE, calls(("final_answer", {"answer": ECHOED_TOOL_NOTE}))]
    fence = "`" * 3  # the sentence holds a fence of its own: the code builds it
    code = f"note = {ECHOED_NOTE.replace(fence, '{fence}')!r}.format(fence='`' * 3)\nfinal_answer(note)"
    return [ECHOED_NOTE, f"```python\n{code}\n```"]


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_note_said_back_as_the_answer_is_not_the_answer(agent_class):
    for echoed in echoed_answers(agent_class):
        log = []
        model = ScriptedModel([unread_answers(agent_class)[0], echoed, *read_then_answer(agent_class)])
        assert await agent_class(model, [read_page_tool(log)]).run(ASKED) == "14 Quay Street"
        assert log == [1]
        assert "repeats what I told you" in told(model, 2)


# The 0.5B CodeAgent on the bench's closed-day task (bench/results/real-models-rows.jsonl, 3c8b898,
# 2026-12-07, its replies as the meter kept them): "The shop is closed on Monday 7 December 2026."
# (unread: the date of the system text), then the note's last sentence (ECHOED_NOTE), then the
# next note's last sentence, "Do what it said, then answer the question in your own words.": the
# turn ended with no answer and nothing read. A note that asks for the read ends with the call,
# written the way that runs, so a model that copies the end of what it is told makes it.
def copies_the_end_of_each_note(log, paragraphs):
    """A model that answers unread, then says back the last `paragraphs` of what it was told,
    until something was read; then answers."""
    def reply(messages):
        if log:
            return "Closed on Mondays."
        if len(messages) <= 2:
            return "The shop is closed on Monday 7 December 2026."
        said = messages[-1]["content"] if isinstance(messages[-1]["content"], str) else ""
        return "\n\n".join(said.split("\n\n")[-paragraphs:])
    return reply


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
@pytest.mark.parametrize("paragraphs", [1, 99], ids=["its end", "all of it"])
async def test_a_model_that_copies_the_note_makes_the_read_it_asks_for(agent_class, paragraphs):
    log = []
    model = ScriptedModel(copies_the_end_of_each_note(log, paragraphs))
    answer = await agent_class(model, [read_page_tool(log)], max_steps=4).run(ASKED)
    assert log == [1] and answer == "Closed on Mondays.", (answer, [told(model, n) for n in range(1, len(model.calls))])


async def test_the_note_gives_no_call_to_copy_when_the_reader_needs_arguments():
    @tool
    def fetch(url: str) -> str:
        """Fetches a page.

        Args:
            url: its address
        """
        return "Closed on Mondays."
    model = ScriptedModel([UNREAD_ANSWER, calls(("fetch", {"url": "http://127.0.0.1:44911/shop.html"})), "Mondays."])
    assert await ToolCallingAgent(model, [fetch]).run(ASKED) == "Mondays."
    assert "Call fetch(...) first" in told(model, 1) and "reply with this call alone" not in told(model, 1)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_model_that_only_says_notes_back_ends_the_turn_and_says_so(agent_class):
    """Told once, said back again: the turn ends there (said_back.py), the note never the answer."""
    echoed = echoed_answers(agent_class)[0]
    model = ScriptedModel([UNREAD_ANSWER] + [echoed] * 4)
    answer = await agent_class(model, [read_page_tool([])], max_steps=4).run(ASKED)
    assert answer.startswith("I stopped without an answer") and echoed not in answer
    assert len(model.calls) == 3


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_an_answer_that_quotes_the_page_is_not_an_echo(agent_class):
    page_words = "Read the page first, then sign the form, then send it back to us by post."
    model = ScriptedModel(read_then_answer(agent_class, page_words))
    assert await agent_class(model, [read_page_tool([])]).run(ASKED) == page_words


async def test_without_a_tool_that_reads_nothing_is_held():
    model = ScriptedModel([UNREAD_ANSWER])
    assert await ToolCallingAgent(model, []).run(ASKED) == UNREAD_ANSWER


# --- Reading the same thing again, in other words ---------------------------------------------

def short_page_tools(log):
    """read_page on a short page: any part size gives the whole page, as the bench's shop page
    (about 620 characters of Markdown) at max_tokens 200 or 100000; and list_controls."""
    read_page = logged_read_page("Length: 620 characters; this is page 1 of 1\n\n" + PAGE, log)

    @tool
    def list_controls() -> str:
        """Lists the controls."""
        return "1 control: textbox Email"
    return [read_page, list_controls]


async def test_the_same_text_read_again_after_another_read_is_told_once():
    """The 0.5B's shop-address run (bench rows, 0822f43): read_page, read_page, list_controls,
    then read_page five times, max_tokens 200. The second read was told; the others ran unsaid,
    each giving the whole page again."""
    log = []
    again = calls(("read_page", {"page": 1, "max_tokens": 200}))
    model = ScriptedModel([again, again, calls(("list_controls", {})), again, again,
                           calls(("final_answer", {"answer": "£9.45"}))])
    assert await ToolCallingAgent(model, short_page_tools(log)).run("Compost price?") == "£9.45"
    assert len(log) == 2  # the fourth read gave the first's text again: the fifth is not run (call_log.py)
    assert "same arguments in step 1" in told(model, 2)
    assert "same text, word for word, as a call in step 1 did" in told(model, 4) and "£9.45" in told(model, 4)
    assert "word for word" not in told(model, 5)  # told once for that text
    assert "You have called read_page with these same arguments 4 times" in told(model, 5)


async def test_arguments_that_differ_only_in_size_or_spelling_are_one_reading():
    log = []
    model = ScriptedModel([calls(("read_page", {"max_tokens": 200})), calls(("read_page", {"page": 1, "max_tokens": 100000})),
                           calls(("read_page", {})), calls(("read_page", {"page": 1, "max_tokens": None})),
                           calls(("final_answer", {"answer": "£9.45"}))])
    await ToolCallingAgent(model, short_page_tools(log)).run("Compost price?")
    assert "same text, word for word, as a call in step 1 did" in told(model, 2)  # another size, the same page
    assert log == [(1, 200), (1, 100000), (1, 4000)]  # read_page() and read_page(page=1, max_tokens=None): one call
    assert "same arguments in step 3" in told(model, 4)


async def test_the_code_agent_is_told_a_read_gave_nothing_new():
    log = []
    model = ScriptedModel(["```python\nprint(read_page(max_tokens=200))\n```",
                           "```python\nprint(read_page(max_tokens=100000))\n```",
                           "```python\nfinal_answer('£9.45')\n```"])
    await CodeAgent(model, short_page_tools(log)).run("Compost price?")
    assert "returned the same text, word for word, as a call in step 1 did" in told(model, 2)


async def test_after_an_action_the_same_text_is_no_news_to_tell():
    clicks = []
    click = click_tool(clicks)
    click.acts = True
    model = ScriptedModel([calls(("read_page", {"max_tokens": 200})), calls(("click", {"locator": "#more"})),
                           calls(("read_page", {"max_tokens": 300})), calls(("final_answer", {"answer": "ok"}))])
    await ToolCallingAgent(model, [*short_page_tools([]), click]).run("More?")
    assert "word for word" not in told(model, 3)


# --- A page question, and code that never reads it -------------------------------------------

# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, llama-cpp-python's server) as TabAgent's CodeAgent on the
# real-model bench's kettle-price task at 9dad3e1 (bench/results/real-models-rows.jsonl,
# 2026-12-06): eight code steps and no tool called in any, then, asked for its best answer, this.
INVENTED = "The blue enamel kettle costs $20."
KETTLE = "How much does the blue enamel kettle cost? (The page is http://127.0.0.1:42877/shop.html.)"
NO_TOOL_CODE = '```python\nprice = 20\nprint(f"The blue enamel kettle costs ${price}.")\n```'


async def test_code_that_calls_no_tool_in_a_page_question_is_told_how_to_read_the_page():
    log = []
    model = ScriptedModel([NO_TOOL_CODE, "```python\nprint(read_page())\n```",
                           '```python\nfinal_answer("£9.45")\n```'])
    assert await CodeAgent(model, [read_page_tool(log)]).run(KETTLE) == "£9.45"
    assert "Nothing has read the page yet" in told(model, 1) and "print(read_page())" in told(model, 1)
    assert "Nothing has read the page yet" not in told(model, 2)  # once it read, no more


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_out_of_steps_with_the_page_asked_about_unread_nothing_is_made_up(agent_class):
    replies = [NO_TOOL_CODE] * 3 if agent_class is CodeAgent else [SHOWN_NOT_MADE] * 3
    model = ScriptedModel([*replies, INVENTED])
    answer = await agent_class(model, [read_page_tool([])], max_steps=3).run(KETTLE)
    assert answer.startswith("I ran out of steps (3) before I could answer") and "$20" not in answer
    assert len(model.calls) == 3  # no best answer asked: nothing read could be in it


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_out_of_steps_after_reading_the_best_answer_is_still_asked(agent_class):
    read = calls(("read_page", {})) if agent_class is ToolCallingAgent else "```python\nprint(read_page())\n```"
    model = ScriptedModel([read, read, "The compost costs £9.45."])
    assert await agent_class(model, [read_page_tool([])], max_steps=2).run(KETTLE) == "The compost costs £9.45."


# --- The prompt's tool listing copied as code ------------------------------------------------

# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, llama-cpp-python's server) as TabAgent's CodeAgent on the
# real-model bench's kettle-price task at a607363 (bench/results/real-models-rows.jsonl, the row's
# "calls", 2026-12-06): its first code copied the prompt's tool listing with bodies of its own (cut
# where the row keeps it, closed here), then seven times this copy of final_answer's definition.
LISTING_COPIED = (
    "```python\ndef read_page(page: int = 1, max_tokens: int = None) -> str:\n    # Reads the user's page "
    "(main content) as Markdown, after its title, address, author, language and length.\n    return \"The "
    "blue enamel kettle costs $20.\"\n\ndef list_controls(within: str = None, page: int = 1, max_controls: "
    "int = 150) -> str:\n    # Lists the page's controls, one a line: the locator the actions take, kind, "
    "name, value, \n    return \"\"\n```")
NOTE_DEFINED = '```python\ndef note(text):\n    """Ends the task with this answer."""\n```'


async def test_code_that_defines_a_tool_does_not_run_and_is_told_to_call_it():
    log = []
    model = ScriptedModel([LISTING_COPIED, NOTE_DEFINED, "```python\nprint(read_page())\n```",
                           '```python\nfinal_answer("£9.45")\n```'])
    assert await CodeAgent(model, [read_page_tool(log)]).run(KETTLE) == "£9.45"
    assert log == [1]  # the page was read by the real tool, never by the copy
    assert "Your code defines read_page" in told(model, 1) and "print(read_page())" in told(model, 1)
    assert "Your code defines note" in told(model, 2) and "print(read_page())" in told(model, 2)


# The same at a607363 on flour-kg (a conversion): `def read_page(...)` fetching the page with
# requests, then `def click(locator: str, ...)` seven times; no tool called, no answer.
CLICK_DEFINED = ("```python\ndef click(locator: str, button: str = 'left', duration: float = 0) -> str:\n"
                 "    # Clicks an element\n    if locator is not None:\n        response = requests.get("
                 "f\"http://127.0.0.1:33927/shop.html\")\n    return response.text\n```")


async def test_a_tool_redefined_before_anything_was_read_is_told_with_the_call_that_reads():
    model = ScriptedModel([CLICK_DEFINED, "```python\nprint(read_page())\n```", '```python\nfinal_answer("£9.45")\n```'])
    assert await CodeAgent(model, [read_page_tool([]), click_tool([])]).run(KETTLE) == "£9.45"
    assert "Your code defines click" in told(model, 1) and "print(read_page())" in told(model, 1)


async def test_a_model_that_only_copies_the_listing_runs_out_of_steps_and_makes_nothing_up():
    model = ScriptedModel([LISTING_COPIED, *[NOTE_DEFINED] * 3, INVENTED])
    answer = await CodeAgent(model, [read_page_tool([])], max_steps=4).run(KETTLE)
    assert answer.startswith("I ran out of steps (4)") and "$20" not in answer


async def test_code_that_defines_helpers_of_its_own_runs():
    model = ScriptedModel(['```python\ndef cost(text):\n    return text.split("£")[1].split(" ")[0]\n'
                           'final_answer(cost(read_page()))\n```'])
    assert await CodeAgent(model, [read_page_tool([])]).run("What does the compost cost?") == "9.45"


# At f4ff431 (told that the tools are ready, code defining one not run) the 0.5B still pasted a
# definition into every block of flour-kg: this first one read the page, then redefined read_page
# (cut where the row keeps it, closed here); the next six were the same without the call.
CALL_THEN_DEF = (
    "```python\nfound = read_page()\nprint(found)\n\nimport bs4\n\ndef read_page(page: int = 1, max_tokens: "
    "int = None) -> str:\n    # Read the user's page (main content) as Markdown, after its title, address, author, "
    "language and length.\n    soup = bs4.BeautifulSoup(read_page(), 'html.parser')\n    \n    # Find the element "
    "with the text \"Flour sack\"\n    flour_sack_element = soup.find('div', {'class': 'flour-sack'})\n    \n"
    "    return flour_sack_element\n```")
FLOUR = "How many kilograms does the flour sack weigh? (The page is http://127.0.0.1:33927/shop.html.)"


class RanCode:
    """A LocalExecutor that keeps each code it was given to run."""

    def __init__(self):
        from tabagent.executor import LocalExecutor
        self.executor, self.ran = LocalExecutor(), []
        self.environment = self.executor.environment

    async def run(self, code, tools):
        self.ran.append(code)
        return await self.executor.run(code, tools)

    async def reset(self):
        await self.executor.reset()


async def test_code_that_calls_a_tool_and_redefines_it_runs_without_the_definition(recorder):
    log, executor = [], RanCode()
    model = ScriptedModel([CALL_THEN_DEF, '```python\nfinal_answer("£9.45")\n```'])
    agent = CodeAgent(model, [read_page_tool(log)], executor=executor, listeners=[recorder])
    assert await agent.run(FLOUR) == "£9.45"
    assert log == [1] and PAGE in told(model, 1)  # the real tool read the page
    assert executor.ran[0] == "found = read_page()\nprint(found)\n\nimport bs4"  # the rest, as written
    assert [e.data["code"] for e in recorder.of("code")] == executor.ran  # the panel shows what ran
    assert "definition of read_page was left out" in told(model, 1)
    assert "definition of read_page was left out" in recorder.of("code_output")[0].data["output"]


# The a607363 kettle-price copy, with the call a model may add after it: its made-up body never
# answers in place of the real tool.
async def test_a_model_s_own_definition_never_replaces_the_real_tool():
    model = ScriptedModel([LISTING_COPIED.replace("\n```", "\nprint(read_page())\n```"), "The compost costs £9.45."])
    await CodeAgent(model, [read_page_tool([])]).run(KETTLE)
    assert PAGE in told(model, 1) and "$20" not in told(model, 1)


# The same at f4ff431 on newsletter: the listing pasted as stubs without bodies, which does not parse
# (every one of its eight blocks; cut where the row keeps it). Told as a definition, not a SyntaxError.
STUBS_PASTED = (
    "```python\ndef read_page(page: int = 1, max_tokens: int = None) -> str:\n    # Reads the user's page (main "
    "content) as Markdown, after its title, address, author, language and length.\ndef list_controls(within: "
    "str = None, page: int = 1, max_controls: int = 150) -> str:  # Lists the page's controls, one a line: the "
    "locator the actions take, kind, name, value, state, and \"below\" or \"above\" when out of view.\ndef\n```")


async def test_pasted_stubs_that_do_not_parse_are_told_as_definitions():
    model = ScriptedModel([STUBS_PASTED, "```python\nprint(read_page())\n```", '```python\nfinal_answer("£9.45")\n```'])
    assert await CodeAgent(model, [read_page_tool([]), click_tool([])]).run(KETTLE) == "£9.45"
    assert "Your code defines read_page" in told(model, 1) and "SyntaxError" not in told(model, 1)


# --- The listing the model reads --------------------------------------------------------------

def page_agent(brief):
    from tabagent.app.consent import CalledByHand
    from tabagent.app.page_tools import page_tools
    from tests.helpers.five_step_task import PageBridge
    agent = CodeAgent(ScriptedModel([]), page_tools(PageBridge(""), CalledByHand()))
    agent.brief_prompt = brief
    return agent


@pytest.mark.parametrize("brief", [False, True], ids=["full", "brief"])
def test_the_code_prompt_lists_the_tools_as_calls_with_nothing_to_paste_as_a_definition(brief):
    """The 0.5B pasted the listing (Python stubs) as its code, bodies made up (rows above): the
    prompt holds no definition of anything, and each tool shows as the call that uses it."""
    agent = page_agent(brief)
    prompt = agent.system_prompt()
    assert not re.search(r"\b(?:def|class)\s+\w+\s*[(:]", prompt), prompt
    assert '"""' not in prompt
    listed = [name for name, tool in agent.code_tools().items() if tool in agent.listed_tools()]
    assert len(listed) > 5
    for name in listed:
        assert re.search(rf"^- {name}\(", prompt, re.M), name


# --- An argument that is its parameter's description ------------------------------------------

# Qwen2.5-Coder-0.5B as the ToolCallingAgent on the bench's closed-day task (bench/results/real-
# models-rows.jsonl, 3c8b898, 2026-12-07): its first two calls, the description of `within` (as
# app/page_tools.py words it) copied as its value.
COPIED_WITHIN = "form or dialog (locator or CSS selector): only its controls."


def list_controls_tool(log):
    @tool
    def list_controls(page: int = 1, within: str | None = None) -> str:
        """Lists the page's controls.

        Args:
            page: which part of the list
            within: a form or dialog (locator or CSS selector): only its controls.
        """
        log.append(within)
        return "1 control: button Opening hours"
    return list_controls


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_an_argument_copied_from_its_description_is_refused_with_that_said(agent_class):
    log = []
    if agent_class is ToolCallingAgent:
        copied = calls(("list_controls", {"within": COPIED_WITHIN, "page": 1}))
        fixed, answer = calls(("list_controls", {"page": 1})), calls(("final_answer", {"answer": "Opening hours"}))
    else:
        copied = f"```python\nprint(list_controls(within={COPIED_WITHIN!r}, page=1))\n```"
        fixed, answer = "```python\nprint(list_controls(page=1))\n```", '```python\nfinal_answer("Opening hours")\n```'
    model = ScriptedModel([copied, fixed, answer])
    assert await agent_class(model, [list_controls_tool(log)]).run("Which controls?") == "Opening hours"
    assert log == [None]  # the copied call never ran
    assert "the value of 'within' is its description from the list of tools, not a value: leave it out" in told(model, 1)


@pytest.mark.parametrize("value", ["form", "#signup", "the newsletter form", "dialog[open]", "a form"])
async def test_a_value_that_shares_a_word_with_its_description_is_a_value(value):
    log = []
    model = ScriptedModel([calls(("list_controls", {"within": value})), "Opening hours"])
    assert await ToolCallingAgent(model, [list_controls_tool(log)]).run("Which controls?") == "Opening hours"
    assert log == [value]
