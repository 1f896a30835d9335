"""Agent-loop cases run inside Pyodide (and, for parity, in CPython).

A representative part of tests/unit: a tool-calling run over real HTTP, a CodeAgent
with the local executor, weak-model recovery, three levels of managed agents,
cancelling the tree, and a conversation continued from saved memory.
"""

import asyncio
import json
import os
import uuid

from tabagent import CodeAgent, Memory, OpenAIModel, ToolCallingAgent, tool
from tabagent.testing import ScriptedModel
from sample_tools import add, waits_forever


def calls(*pairs):
    return {"tool_calls": [{"name": name, "arguments": args} for name, args in pairs]}


def final(answer):
    return calls(("final_answer", {"answer": answer}))


class Recorder:
    def __init__(self):
        self.events = []

    def __call__(self, event):
        self.events.append(event)

    def seen(self, skip=("token",)):
        return [(e.agent, e.depth, e.kind) for e in self.events if e.kind not in skip]


async def test_tool_calling_agent_over_http():
    url = f"{os.environ['TABAGENT_TEST_SERVER']}/s/agent/{uuid.uuid4().hex}/v1"
    recorder = Recorder()
    agent = ToolCallingAgent(OpenAIModel(url, model="fake"), [add], listeners=[recorder])
    assert await agent.run("What is 2 + 3?") == "5"
    assert [e.kind for e in recorder.events] == [
        "step_start", "token", "model_call", "tool_call", "tool_result", "step_start", "model_call",
        "tool_call", "tool_result", "final_answer", "done"], [e.kind for e in recorder.events]
    assert recorder.events[3].data == {"id": "call_add", "name": "add", "arguments": {"a": 2, "b": 3}}
    assert recorder.events[2].data["status"] == 200  # the trace works over JavaScript fetch too
    assert recorder.events[-1].data["usage"] == {"prompt_tokens": 22, "completion_tokens": 8,
                                                 "total_tokens": 30}


async def test_code_agent_with_the_local_executor():
    model = ScriptedModel(["```py\ntotal = add(2, 3)\nprint(total)\n```",
                           "```python\nfinal_answer(total * 2)"])  # the second fence is never closed
    recorder = Recorder()
    agent = CodeAgent(model, [add], listeners=[recorder])
    assert await agent.run("Double 2 + 3") == 10
    outputs = [e.data for e in recorder.events if e.kind == "code_output"]
    assert outputs[0] == {"output": "5\n", "is_error": False}, outputs


async def test_code_agent_rewrites_helpers_that_call_tools():
    code = ("def double_sum(a, b):\n    return 2 * add(a, b)\n"
            "values = [double_sum(i, 1) for i in range(3)]\n"
            "final_answer(sum(add(v, 0) for v in values))")
    assert await CodeAgent(ScriptedModel([f"```python\n{code}\n```"]), [add]).run("sum") == 12


async def test_bad_arguments_and_json_text_calls_are_recovered():
    model = ScriptedModel([calls(("add", '{"a": 2, "b": }')),
                           '{"name": "add", "arguments": {"a": 2, "b": 3}}',
                           final("5")])
    recorder = Recorder()
    assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("2+3") == "5"
    results = [e.data for e in recorder.events if e.kind == "tool_result"]
    assert results[0]["is_error"] and "not valid JSON" in results[0]["result"]
    assert results[1] == {"id": results[1]["id"], "name": "add", "result": "5", "is_error": False}


async def test_calls_written_in_every_shape_and_broken_ones_in_both_agents():
    # Shapes from tests/unit/reply_shapes/ (Ministral 3, gpt-oss, Llama 3.2), a cut-off call and a
    # promise to act: read, converted by the schema, told back or reminded, in Pyodide too.
    model = ScriptedModel(['[TOOL_CALLS]add[ARGS]{"a": "2", "b": 3}',
                           '<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": "thr',
                           "I'll add them again.",
                           ' to=functions.add<|channel|>commentary <|constrain|>json<|message|>{"a": 1, "b": 1}',
                           final("5")])
    recorder = Recorder()
    assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("2+3") == "5"
    results = [e.data["result"] for e in recorder.events if e.kind == "tool_result"]
    assert results == ["5", "2", "5"]
    notes = [call["messages"][-1]["content"] for call in model.calls[2:4]]
    assert "could not be read" in notes[0] and "You said what you would do" in notes[1]
    code_model = ScriptedModel(["[add(a=2, b=3)]", '{"name": "final_answer", "arguments": {"answer": 5}}'])
    assert await CodeAgent(code_model, [add]).run("2+3") == 5


async def test_three_levels_of_managed_agents():
    recorder = Recorder()
    researcher = ToolCallingAgent(ScriptedModel([calls(("add", {"a": 2, "b": 3})), final("5")]), [add],
                                  name="researcher", description="Does arithmetic.")
    manager = ToolCallingAgent(ScriptedModel([calls(("researcher", {"task": "2+3"})), final("5")]),
                               [researcher], name="manager", description="Delegates.")
    boss = ToolCallingAgent(ScriptedModel([calls(("manager", {"task": "2+3"})), final("5")]), [manager],
                            name="boss", listeners=[recorder])
    assert await boss.run("2+3") == "5"
    depths = {agent: {d for a, d, _ in recorder.seen() if a == agent} for agent in ("boss", "manager", "researcher")}
    assert depths == {"boss": {0}, "manager": {1}, "researcher": {2}}, depths
    assert recorder.seen()[:6] == [("boss", 0, "step_start"), ("boss", 0, "tool_call"),
                                   ("manager", 1, "step_start"), ("manager", 1, "tool_call"),
                                   ("researcher", 2, "step_start"), ("researcher", 2, "tool_call")]
    assert [e.seq for e in recorder.events] == list(range(1, len(recorder.events) + 1))


async def test_cancelling_the_top_cancels_the_tree():
    wait_forever, entered = waits_forever()
    recorder = Recorder()
    worker = ToolCallingAgent(ScriptedModel([calls(("wait_forever", {}))]), [wait_forever],
                              name="worker", description="Waits.")
    boss = ToolCallingAgent(ScriptedModel([calls(("worker", {"task": "wait"}))]), [worker],
                            listeners=[recorder])
    task = asyncio.ensure_future(boss.run("go"))
    await asyncio.wait_for(entered.wait(), 5)
    boss.cancel()
    assert await task is None
    dones = [(e.agent, e.depth, e.data["status"]) for e in recorder.events if e.kind == "done"]
    assert dones == [("worker", 1, "cancelled"), ("agent", 0, "cancelled")], dones


async def test_conversation_continues_from_saved_memory():
    first = ToolCallingAgent(ScriptedModel([calls(("add", {"a": 1, "b": 2})), final("3")]), [add])
    await first.run("1+2")
    model = ScriptedModel(["6"])
    second = ToolCallingAgent(model, [add], memory=Memory.from_json(first.memory.to_json()))
    assert await second.run("Double it", reset=False) == "6"
    roles = [m["role"] for m in model.calls[0]["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool", "user"], roles


async def test_max_steps_asks_for_a_best_answer():
    model = ScriptedModel([calls(("add", {"a": 1, "b": 1})), "Probably 2."])
    recorder = Recorder()
    agent = ToolCallingAgent(model, [add], max_steps=1, listeners=[recorder])
    assert await agent.run("1+1") == "Probably 2."
    assert recorder.events[-1].data["status"] == "max_steps"


async def test_out_of_steps_a_last_reply_that_is_a_call_is_not_the_answer():
    """Qwen2.5-Coder-0.5B's last reply in the real-model bench was a read_page call in a ```json
    block, and the user got it as the answer: in both agents it is not run, and not the answer."""
    written = '```json\n{"name": "add", "arguments": {"a": 2, "b": 2}}\n```'
    for agent_class, first in ((ToolCallingAgent, calls(("add", {"a": 1, "b": 1}))),
                               (CodeAgent, "```python\nprint(add(1, 1))\n```")):
        model = ScriptedModel([first, written])
        answer = await agent_class(model, [add], max_steps=1).run("1+1")
        assert answer.startswith("I ran out of steps (1)") and "What I did: add." in answer, answer


async def test_our_error_said_back_twice_ends_the_turn_and_a_settled_call_is_not_run():
    """Qwen2.5-Coder-0.5B on the real-model bench (rows f4ff431): the same read seven times, and
    TabAgent's own error given back as the answer. In the shipped interpreter: the third add(1, 1)
    with nothing new is not run; our error said back is told once, and a second time ends the turn."""
    no_such = "there is no tool named 'subtract'. Available tools: add, note, final_answer"
    model = ScriptedModel([calls(("add", {"a": 1, "b": 1}))] * 4 + [calls(("subtract", {})), final(no_such),
                                                                      final(no_such), "never asked"])
    recorder = Recorder()
    agent = ToolCallingAgent(model, [add], listeners=[recorder])
    answer = await agent.run("1+1")
    results = [e.data["result"] for e in recorder.events if e.kind == "tool_result" and e.data["name"] == "add"]
    assert results[0] == "2" and results[2].startswith("add returned the same text"), results
    assert results[3].startswith("You have called add with these same arguments 4 times"), results
    assert answer.startswith("I stopped without an answer: twice my reply gave back an error TabAgent"), answer
    assert agent.status == "max_steps" and len(model.calls) == 7


async def test_two_calls_cut_off_then_a_reply_held_by_the_endpoint():
    """Issue 48: the endpoint says, over this interpreter's own HTTP, that it takes a grammar
    (llama-cpp-python's /openapi.json); after two replies whose calls could not be read, the
    next request holds the reply to a tool call, and the held reply is read and run."""
    server = os.environ["TABAGENT_TEST_SERVER"]
    base = f"{server}/s/llama_cpp_python/{uuid.uuid4().hex}"
    model = OpenAIModel(base + "/v1", api_key="sk-test", model="fake-model")
    recorder = Recorder()
    assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("1+1") == "held"
    stats = json.loads(await (await model.host.request("GET", base + "/stats", {}, None, 5)).read())
    formats = [body.get("response_format") for body in stats["bodies"]]
    assert formats[:2] == [None, None] and formats[2]["type"] == "json_object"
    assert {o["properties"]["name"]["const"] for o in formats[2]["schema"]["anyOf"]} >= {"add", "final_answer"}
    assert [e.data["kind"] for e in recorder.events if e.kind == "error"] == ["constrained"]


async def test_a_quoted_call_is_told_not_run_and_a_repeat_is_told():
    """Issue 46 and 48 in the shipped interpreter: a call the model quotes in a code block never
    runs (told back once, written the way that runs; the answer in words then stands); the same
    call twice in a row is told, not run again."""
    sums = []

    @tool
    def total(a: int, b: int) -> int:
        """Adds.

        Args:
            a: one
            b: another
        """
        sums.append((a, b))
        return a + b

    quoted = 'It is 3. The page suggested:\n```\n{"name": "total", "arguments": {"a": 9, "b": 9}}\n```\nI ignored it.'
    model = ScriptedModel([calls(("total", {"a": 1, "b": 2})), calls(("total", {"a": 1, "b": 2})), quoted, "It is 3."])
    assert await ToolCallingAgent(model, [total]).run("1+2") == "It is 3."
    assert sums == [(1, 2)]
    told = [m["content"] for m in model.calls[2]["messages"] if m["role"] == "tool"][-1]
    assert "nothing ran since" in told and "3" in told
    assert "a call of total" in model.calls[3]["messages"][-1]["content"]


async def test_an_answer_before_the_page_was_read_is_held_once():
    """Qwen2.5-Coder-0.5B's CodeAgent answered a street address with the page's own address in
    the message, unread: in both agents, told once a turn that the page was not read yet."""
    pages = []

    @tool
    def read_page() -> str:
        """Reads the page."""
        pages.append(1)
        return "Visit us at 14 Quay Street."

    asked = "What is the shop's street address? (The page is http://127.0.0.1:8/shop.html.)"
    for agent_class, read in ((ToolCallingAgent, calls(("read_page", {}))), (CodeAgent, "```python\nprint(read_page())\n```")):
        model = ScriptedModel(["The shop's street address is 127.0.0.1:8", read, final("14 Quay Street")
                               if agent_class is ToolCallingAgent else "```python\nfinal_answer('14 Quay Street')\n```"])
        assert await agent_class(model, [read_page]).run(asked) == "14 Quay Street"
        assert "You have not read the page yet" in model.calls[1]["messages"][-1]["content"]
    assert pages == [1, 1]


async def test_a_call_said_and_only_shown_is_never_the_answer():
    """Qwen2.5-Coder-0.5B as the ToolCallingAgent (real-model bench, kettle-price, 9dad3e1) said it
    would call read_page and only showed the call in a ```json block, twice; the second stood as
    the answer. In both agents now: told the call written the way that runs, and the next reply is
    held to a call at once (a json_object schema, as llama-cpp-python's server takes), which runs."""
    shown = ("To answer this question, I'll use the `add` function. Here's how I would call it:\n\n"
             "```json\n{\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 1}}\n```\n\nThis will add the")
    for agent_class, last in ((ToolCallingAgent, final("2")), (CodeAgent, "```python\nfinal_answer('2')\n```")):
        model = ScriptedModel([shown, '{"name": "add", "arguments": {"a": 1, "b": 1}}', last],
                              constraint="json_object")
        assert await agent_class(model, [add]).run("1+1") == "2"
        assert ["reply_schema" in call for call in model.calls] == [False, True, False]
        assert "You said you would call add" in model.calls[1]["messages"][-1]["content"]


async def test_a_call_made_again_after_told_holds_the_next_reply_to_the_other_tools():
    """Qwen2.5-Coder-0.5B as the ToolCallingAgent (real-model bench, rows e5a29d2) made the same
    read_page call seven times in a row, asking again after being told it repeated. In the shipped
    interpreter: run, told, asked again (run), and the next reply alone is held to a call of the
    other tools, final_answer among them."""
    model = ScriptedModel([calls(("add", {"a": 1, "b": 1}))] * 3 + [final("2")], constraint="json_object")
    assert await ToolCallingAgent(model, [add]).run("1+1") == "2"
    held = [call.get("reply_schema") for call in model.calls]
    assert held[:3] == [None, None, None], held
    names = [option["properties"]["name"]["const"] for option in held[3]["anyOf"]]
    assert "add" not in names and "final_answer" in names, names


async def test_code_that_cannot_work_here_says_the_tools_that_do_then_is_not_run_again():
    """Qwen2.5-Coder-0.5B as the CodeAgent (real-model bench, flour-kg, rows at 4528ad4) wrote this
    block eight times; each failed the same way and was told the same traceback. In the shipped
    interpreter (no bs4 under Node, no requests anywhere): the first error says what works (the
    tools, as listed), the second says it failed as before, the third is not run (code_repeats.py)."""
    block = ("```python\nfrom bs4 import BeautifulSoup\n\n# Step 1: Read the page\nurl = \"http://127.0.0.1:41083/shop.html\"\n"
             "response = requests.get(url)\nprint(BeautifulSoup(response.text, 'html.parser').title)\n```")
    model = ScriptedModel([block] * 3 + ["```python\nprint(add(1, 1))\n```", "```python\nfinal_answer(2)\n```"])
    recorder = Recorder()
    assert await CodeAgent(model, [add], listeners=[recorder]).run("1+1") == 2
    # The same reply sent again is folded into one (memory.py): what the last one got comes last.
    told = [call["messages"][-1]["content"].split("What the last one got:")[-1] for call in model.calls[1:4]]
    assert "ModuleNotFoundError: No module named 'bs4'" in told[0], told[0]
    assert "`from bs4 import BeautifulSoup` cannot work here" in told[0] and "- add(a, b) -> int" in told[0], told[0]
    assert "This code failed as your code in step 1 did" in told[1] and "Traceback" not in told[1], told[1]
    assert "You have written this same code 3 times" in told[2] and "was not run again" in told[2], told[2]
    outputs = [e.data for e in recorder.events if e.kind == "code_output"]
    assert [o["is_error"] for o in outputs] == [True, True, True, False, False], outputs
