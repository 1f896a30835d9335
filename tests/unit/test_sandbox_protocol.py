"""The sandbox's message protocol, in CPython: both Python ends and the JavaScript checks.

- SandboxRuntime (tabagent.app.in_sandbox.runtime), the sandbox's side: runs code,
  makes tool stubs, and refuses malformed messages, unknown call ids and stray answers;
- SandboxExecutor (tabagent.app.sandbox_executor), the agent's side: answers tool calls, and
  refuses malformed ones with an error instead of running anything;
- both wired together in-process (as the offscreen document and the worker are, over
  postMessage) under a CodeAgent, which must behave exactly as with the local executor;
- sandbox-protocol.js's checks, which the offscreen document, the sandbox page and the worker
  apply to every message, run under Node.js.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tabagent import CodeAgent, LocalExecutor, tool
from tabagent.testing import ScriptedModel
from tabagent.app.sandbox_executor import SandboxExecutor, answer_tool_call, tool_spec
from tabagent.tools import ToolInputError

from tabagent.app.in_sandbox.runtime import ProtocolError, SandboxRuntime, parse
from tests.helpers.in_process_sandbox import InProcessSandbox
from tests.helpers.in_process_sandbox import Worker, run_message

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(20)


@tool
async def lookup(city: str, field: str = "population") -> dict:
    """Facts about a city.

    Args:
        city: The city's name.
        field: Which fact.
    """
    return {"Paris": {"population": 2_100_000}, "Lyon": {"population": 520_000}}[city][field]


def answer(run_id, call_id, reply):
    return json.dumps({"type": "tool-result", "run_id": run_id, "call_id": call_id, "reply": json.dumps(reply)})


# --- The sandbox's side ------------------------------------------------------------------


async def test_runs_code_and_keeps_the_namespace_between_runs():
    worker = Worker()
    assert await worker.run(1, "import math\nx = 41") == {
        "type": "result", "run_id": 1, "output": "", "is_error": False, "is_final": False, "final_value": "null"}
    result = await worker.run(2, "print(x + 1)\nmath.floor(2.5)")
    assert result["output"] == "42\nOut: 2\n"


async def test_final_answer_comes_back_as_json_text():
    worker = Worker()
    result = await worker.run(1, "final_answer({'rows': [1, 2], 'set': {3}})")
    assert result["is_final"] and json.loads(result["final_value"]) == {"rows": [1, 2], "set": "{3}"}


async def test_a_tool_stub_posts_a_call_and_returns_the_answer():
    worker = Worker()
    worker.runtime.start_run(run_message(7, "print(lookup('Paris', field='population'))", [tool_spec(lookup)]))
    call = await worker.next()
    assert call == {"type": "tool-call", "run_id": 7, "call_id": 1, "name": "lookup",
                    "args": json.dumps({"args": ["Paris"], "kwargs": {"field": "population"}})}
    worker.runtime.receive(answer(7, 1, {"ok": True, "value": 2_100_000}))
    assert (await worker.next())["output"] == "2100000\n"


async def test_stubs_have_the_tools_name_signature_and_docstring():
    worker = Worker()
    result = await worker.run(1, "import inspect\nprint(lookup.__name__, inspect.signature(lookup))\nprint(lookup.__doc__)",
                              [tool_spec(lookup)])
    assert result["output"] == ("lookup (city, field='population')\nFacts about a city.\n\nArgs:\n"
                                "    city: The city's name.\n    field: Which fact.\n")


async def test_tool_errors_are_raised_as_their_own_types_in_the_code():
    worker = Worker()
    code = ("try:\n    lookup('Atlantis')\nexcept KeyError as e:\n    print('KeyError', e)\n"
            "try:\n    lookup(42)\nexcept ValueError as e:\n    print(type(e).__module__, type(e).__name__, e)\n")
    worker.runtime.start_run(run_message(1, code, [tool_spec(lookup)]))
    for call_id, error in ((1, KeyError("Atlantis")), (2, ToolInputError("lookup: city should be string"))):
        assert (await worker.next())["call_id"] == call_id
        reply = await answer_tool_call({"lookup": FailingTool(error)}, "lookup", '{"args": [], "kwargs": {}}')
        worker.runtime.receive(json.dumps({"type": "tool-result", "run_id": 1, "call_id": call_id, "reply": reply}))
    assert (await worker.next())["output"] == ("KeyError 'Atlantis'\n"
                                               "tabagent.tools ToolInputError lookup: city should be string\n")


class FailingTool:
    def __init__(self, error):
        self.error = error

    async def __call__(self, *args, **kwargs):
        raise self.error


async def test_tracebacks_show_only_the_models_code():
    worker = Worker()
    worker.runtime.start_run(run_message(1, "x = 1\nlookup('Atlantis')", [tool_spec(lookup)]))
    await worker.next()
    worker.runtime.receive(answer(1, 1, {"ok": False, "error": {"type": "KeyError", "module": "builtins",
                                                                 "base": "KeyError", "args": ["Atlantis"]}}))
    assert (await worker.next())["output"] == ('Traceback (most recent call last):\n  File "<agent code>", '
                                               "line 2, in <module>\n    lookup('Atlantis')\nKeyError: 'Atlantis'\n")


async def test_arguments_that_are_not_json_raise_in_the_code_and_post_nothing():
    worker = Worker()
    result = await worker.run(1, "lookup({1, 2})", [tool_spec(lookup)])
    assert result["is_error"] and "TypeError: lookup(): arguments must be str" in result["output"]
    assert worker.posted.empty()


async def test_tools_of_an_earlier_run_are_gone_and_calls_after_the_run_fail():
    # A task the code left is cancelled when the run ends (issue 10, item 8); one that calls a
    # tool even then is told the run is over.
    worker = Worker()
    code = ("import asyncio\nerrors = []\nasync def later():\n    try:\n        await asyncio.sleep(10)\n"
            "    except asyncio.CancelledError:\n        try:\n            lookup('Paris')\n"
            "        except RuntimeError as e:\n            errors.append(str(e))\n        raise\n"
            "task = asyncio.ensure_future(later())\nawait asyncio.sleep(0)")
    await worker.run(1, code, [tool_spec(lookup)])
    await asyncio.sleep(0.1)
    result = await worker.run(2, "print('lookup' in dir(), task.cancelled())\nerrors")
    assert result["output"] == ("False True\nOut: ['lookup() was called after the code finished running; "
                                "tools work only while the code runs']\n")
    assert worker.posted.empty()


@pytest.mark.parametrize("text, problem", [
    ("not json", "not JSON"),
    ('["run"]', "expected a run message"),
    (json.dumps({"type": "tool-result", "run_id": 1, "call_id": 1, "reply": "{}"}), "expected a run message"),
    (run_message(1, "x")[:-1] + ', "extra": 1}', "fields"),
    (json.dumps({"type": "run", "run_id": 1, "code": "x", "tools": []}), "fields"),
    (run_message(0, "x"), "bad run_id"),
    (run_message(True, "x"), "bad run_id"),
    (run_message(2**53, "x"), "bad run_id"),
    (run_message(1, 42), "bad code"),
    (run_message(1, "x", max_output_chars=-1), "bad max_output_chars"),
])
def test_malformed_run_messages_are_refused(text, problem):
    with pytest.raises(ProtocolError, match=problem):
        SandboxRuntime(lambda _: None).start_run(text)


async def test_answers_nobody_waits_for_are_refused():
    worker = Worker()
    worker.runtime.start_run(run_message(3, "lookup('Paris')", [tool_spec(lookup)]))
    assert (await worker.next())["call_id"] == 1
    for stray in (answer(3, 2, {"ok": True}), answer(4, 1, {"ok": True}), '{"type": "tool-result"}'):
        with pytest.raises(ProtocolError):
            worker.runtime.receive(stray)
    with pytest.raises(ProtocolError, match="a run is already going"):
        worker.runtime.start_run(run_message(4, "1"))
    worker.runtime.receive(answer(3, 1, {"ok": True, "value": 1}))
    with pytest.raises(ProtocolError):  # answered already
        worker.runtime.receive(answer(3, 1, {"ok": True, "value": 1}))
    assert not (await worker.next())["is_error"]


async def test_an_answer_without_ok_is_an_error_in_the_code():
    worker = Worker()
    worker.runtime.start_run(run_message(1, "lookup('Paris')", [tool_spec(lookup)]))
    await worker.next()
    worker.runtime.receive(answer(1, 1, {"value": 1}))
    assert "ProtocolError: lookup(): the answer has no 'ok'" in (await worker.next())["output"]


def test_parse_returns_the_message():
    assert parse(run_message(5, "print(1)"), "run")["code"] == "print(1)"


# --- The agent's side ---------------------------------------------------------------------


async def test_tool_calls_are_answered_with_the_value_or_the_error():
    tools = {"lookup": lookup}
    assert json.loads(await answer_tool_call(tools, "lookup", '{"args": ["Lyon"], "kwargs": {}}')) == {
        "ok": True, "value": 520_000}
    reply = json.loads(await answer_tool_call(tools, "lookup", '{"args": [], "kwargs": {"town": "Lyon"}}'))
    assert reply["error"]["type"] == "ToolInputError" and reply["error"]["base"] == "ValueError"
    assert reply["error"]["module"] == "tabagent.tools" and "unexpected argument 'town'" in reply["error"]["args"][0]


@pytest.mark.parametrize("name, args_json, error", [
    ("steal_cookies", '{"args": [], "kwargs": {}}', "NameError"),
    (None, '{"args": [], "kwargs": {}}', "NameError"),
    ("lookup", "not json", "MalformedToolCall"),
    ("lookup", '{"args": "Paris", "kwargs": {}}', "MalformedToolCall"),
    ("lookup", '{"args": [], "kwargs": []}', "MalformedToolCall"),
    ("lookup", '{"args": [], "kwargs": {}, "as_user": "root"}', "MalformedToolCall"),
    ("lookup", '["Paris"]', "MalformedToolCall"),
    ("lookup", None, "MalformedToolCall"),
])
async def test_malformed_or_unknown_tool_calls_run_nothing(name, args_json, error):
    ran = []

    @tool
    def spy(city: str) -> str:
        """Records calls.

        Args:
            city: Any.
        """
        ran.append(city)
        return city

    reply = json.loads(await answer_tool_call({"lookup": spy}, name, args_json))
    assert reply["ok"] is False and reply["error"]["type"] == error
    assert ran == []


async def test_values_json_cannot_hold_are_sent_as_text():
    @tool
    def odd():
        """Returns a set."""
        return {1}

    assert json.loads(await answer_tool_call({"odd": odd}, "odd", '{"args": [], "kwargs": {}}')) == {
        "ok": True, "value": "{1}"}


def test_tool_spec_is_what_the_stub_needs():
    assert tool_spec(lookup) == {
        "name": "lookup", "doc": "Facts about a city.\n\nArgs:\n    city: The city's name.\n    field: Which fact.",
        "params": [{"name": "city", "required": True},
                   {"name": "field", "required": False, "default": '"population"'}]}


# --- Both sides together, under a CodeAgent ------------------------------------------------


def conversation():
    return ScriptedModel([
        "```python\nparis = lookup('Paris')\nlyon = lookup(city='Lyon')\nprint(paris + lyon)\n```",
        "```python\nx = 1\nlookup('Atlantis')\n```",
        "```python\nfinal_answer(paris > lyon)\n```",
    ])


async def test_a_code_agent_runs_the_same_in_the_sandbox_as_locally(recorder):
    sandbox = InProcessSandbox()
    answers, outputs = [], []
    for executor in (LocalExecutor(), SandboxExecutor(sandbox)):
        recorder.events.clear()
        agent = CodeAgent(conversation(), [lookup], executor=executor, listeners=[recorder])
        answers.append(await agent.run("Is Paris bigger than Lyon?"))
        outputs.append([(e.kind, e.data.get("output"), e.data.get("name")) for e in recorder.events
                        if e.kind in ("code_output", "tool_call", "tool_result")])
    assert answers == [True, True]
    assert outputs[0] == outputs[1]
    assert ("code_output", 'Traceback (most recent call last):\n  File "<agent code>", '
                              "line 2, in <module>\n    lookup('Atlantis')\nKeyError: 'Atlantis'\n", None) in outputs[1]


async def test_reset_forgets_and_a_cancelled_run_stops_the_sandbox():
    sandbox = InProcessSandbox()
    executor = SandboxExecutor(sandbox)
    await executor.run("x = 1", {})
    await executor.reset()
    assert "NameError" in (await executor.run("x", {})).output

    class Hanging(InProcessSandbox):
        async def runJson(self, code, options_json, on_tool_call):  # noqa: N802
            await asyncio.sleep(60)

    hanging = Hanging()
    task = asyncio.ensure_future(SandboxExecutor(hanging).run("while True: pass", {}))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert hanging.stops == 1


# --- sandbox-protocol.js, which every JavaScript side applies ---------------------------------------

PROTOCOL_CASES = r"""
import { problemFromSandbox, problemToSandbox } from "./extension/shared/protocol/sandbox-protocol.js";
const call = { type: "tool-call", run_id: 1, call_id: 2, name: "read_page", args: "{}" };
const result = { type: "result", run_id: 1, output: "", is_error: false, is_final: true, final_value: "1" };
const run = { type: "run", run_id: 1, code: "1", max_output_chars: 10, memory_limit_bytes: 0,
  tools: [{ name: "f", doc: "", params: [{ name: "a", required: false, default: "null" }] }] };
const cases = {
  call: problemFromSandbox(call),
  result: problemFromSandbox(result),
  run: problemToSandbox(run),
  memory: problemFromSandbox({ type: "memory-exceeded", usedBytes: 5 }),
  settled: problemFromSandbox({ type: "settled", run_id: 1, quiet: true }),
  quietNotBoolean: problemFromSandbox({ type: "settled", run_id: 1, quiet: 1 }),
  unknownType: problemFromSandbox({ ...call, type: "eval" }),
  wrongDirection: problemFromSandbox(run),
  extraField: problemFromSandbox({ ...call, cookie: "x" }),
  missingField: problemFromSandbox({ type: "tool-call", run_id: 1, call_id: 2, name: "read_page" }),
  call_idZero: problemFromSandbox({ ...call, call_id: 0 }),
  call_idFloat: problemFromSandbox({ ...call, call_id: 1.5 }),
  call_idString: problemFromSandbox({ ...call, call_id: "2" }),
  badName: problemFromSandbox({ ...call, name: "read_page(); evil" }),
  hugeArgs: problemFromSandbox({ ...call, args: "x".repeat(16_000_001) }),
  notBoolean: problemFromSandbox({ ...result, is_final: "yes" }),
  notObject: problemFromSandbox("tool-call"),
  array: problemFromSandbox([call]),
  nullMessage: problemFromSandbox(null),
  classInstance: problemFromSandbox(Object.assign(new (class Evil {})(), call)),
  toolSpecBadParam: problemToSandbox({ ...run, tools: [{ name: "f", doc: "", params: [{ name: "a b", required: true }] }] }),
  toolSpecNoDefault: problemToSandbox({ ...run, tools: [{ name: "f", doc: "", params: [{ name: "a", required: false }] }] }),
  bootFromElsewhere: problemToSandbox({ type: "boot", indexURL: "https://cdn.example/pyodide/", wasm: new ArrayBuffer(1),
    stdlib: new ArrayBuffer(1), lock: {}, snapshot: null, packageZip: new ArrayBuffer(1), wheels: [] }),
};
console.log(JSON.stringify(cases));
"""


def test_protocol_js_accepts_good_messages_and_names_what_is_wrong_with_bad_ones():
    node = shutil.which("node")
    assert node, "node is not on PATH: install Node.js 20"
    out = subprocess.run([node, "--input-type=module", "-e", PROTOCOL_CASES], cwd=ROOT,
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    problems = json.loads(out.stdout)
    good = ("call", "result", "run", "memory", "settled")
    assert {k: problems.pop(k) for k in good} == dict.fromkeys(good)
    assert problems == {
        "unknownType": 'unknown type "eval"',
        "wrongDirection": 'unknown type "run"',
        "extraField": "tool-call: unexpected field cookie",
        "missingField": "tool-call: bad or missing args",
        "call_idZero": "tool-call: bad or missing call_id",
        "call_idFloat": "tool-call: bad or missing call_id",
        "call_idString": "tool-call: bad or missing call_id",
        "badName": "tool-call: bad or missing name",
        "hugeArgs": "tool-call: bad or missing args",
        "notBoolean": "result: bad or missing is_final",
        "quietNotBoolean": "settled: bad or missing quiet",
        "notObject": "not a plain object",
        "array": "not a plain object",
        "nullMessage": "not a plain object",
        "classInstance": "not a plain object",
        "toolSpecBadParam": "run: bad or missing tools",
        "toolSpecNoDefault": "run: bad or missing tools",
        "bootFromElsewhere": "boot: bad or missing indexURL",
    }
