"""SandboxExecutor across the boundary between Python and JavaScript, inside Pyodide.

In Pyodide the host is a JavaScript object, as the offscreen document's CodeSandbox is:
the run's options go through to_js, the tool handler is a proxy that JavaScript calls and
awaits, and the result comes back as a JsProxy. In CPython (run too, for parity) a Python
stand-in plays the same part.
"""

import json
import sys

from tabagent import tool
from tabagent.app.sandbox_executor import SandboxExecutor, tool_spec

HOST_JS = """({
  warmed: 0, resets: 0, seen: null,
  warm() { this.warmed++; },
  async runJson(code, optionsJson, onToolCall) {
    this.seen = JSON.stringify({ code, ...JSON.parse(optionsJson) });
    const sum = JSON.parse(await onToolCall("add", JSON.stringify({ args: [2], kwargs: { b: 3 } })));
    const bad = JSON.parse(await onToolCall("add", JSON.stringify({ args: ["two"], kwargs: {} })));
    return JSON.stringify({ output: `${sum.value} ${bad.error.type}\\n`, is_error: false, is_final: true,
                            final_value: JSON.stringify({ sum: sum.value }), stopped: null });
  },
  async reset() { this.resets++; },
  stop() {},
})"""


class PythonSandbox:
    def __init__(self):
        self.warmed = self.resets = 0
        self.seen = None

    def warm(self):
        self.warmed += 1

    async def runJson(self, code, options_json, call):  # noqa: N802  CodeSandbox's name
        self.seen = json.dumps({"code": code, **json.loads(options_json)})
        total = json.loads(await call("add", json.dumps({"args": [2], "kwargs": {"b": 3}})))
        bad = json.loads(await call("add", json.dumps({"args": ["two"], "kwargs": {}})))
        return json.dumps({"output": f"{total['value']} {bad['error']['type']}\n", "is_error": False, "is_final": True,
                           "final_value": json.dumps({"sum": total["value"]}), "stopped": None})

    async def reset(self):
        self.resets += 1


def make_host():
    if sys.platform == "emscripten":
        from pyodide.code import run_js

        return run_js(HOST_JS)
    return PythonSandbox()


@tool
def add(a: int, b: int = 0) -> int:
    """Adds two numbers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


async def test_sandbox_executor_hands_code_and_tools_over_and_answers_calls():
    host = make_host()
    executor = SandboxExecutor(host, timeout=2.5, memory_limit_mb=64)
    assert host.warmed == 1  # the sandbox starts while the model writes
    result = await executor.run("total = add(2, b=3)", {"add": add})
    assert result.output == "5 ToolInputError\n"
    assert result.is_final and not result.is_error
    assert result.final_value == {"sum": 5}
    assert json.loads(host.seen) == {"code": "total = add(2, b=3)", "tools": [tool_spec(add)],
                                     "timeout_ms": 2500, "memory_limit_mb": 64, "max_output_chars": 20_000}
    await executor.reset()
    assert host.resets == 1
