"""What the extension's code sandbox printed to code that reaches for what is not there, and an
executor that plays it back, for unit tests of the CodeAgent (code_repeats.py, said_back.py).

Each output was recorded from Chromium 156's sandbox (extension/sandbox) and from firefox-esr
153.8.0's (the same page, framed: docs/firefox.md), Pyodide 314.0.7 in both, on 2026-12-07, the code
run as a CodeAgent's steps: tests/both/test_code_reaching_out.py keeps asking both browsers the code
of tests/helpers/sandbox.py's REACHING_OUT, and the two said the same, to the character, for every
one. The first six are what the 0.5B and 1.5B wrote to reach a page on issue 48's real-model bench
(flour-kg's `requests.get(url)` and the unspaced list of `subprocess.run` are kept as the blocks of
the unit tests write them); the last four, other ways out: a socket, open_url, JavaScript's fetch,
micropip.
"""

from __future__ import annotations

from tabagent.app.sandbox_executor import SandboxExecutor
from tabagent.executor import ExecutionResult, Executor, LocalExecutor

# flour-kg's `response = requests.get(url)`: bs4 is in the sandbox, requests is not.
NO_REQUESTS = ("Traceback (most recent call last):\n  File \"<agent code>\", line 5, in <module>\n"
               "    response = requests.get(url)\n               ^^^^^^^^\nNameError: name 'requests' is not defined\n")
SANDBOX_SAYS = {
    "import requests": ("Traceback (most recent call last):\n  File \"<agent code>\", line 1, in <module>\n"
                        "    import requests\nModuleNotFoundError: No module named 'requests'\n"),
    "requests.get": NO_REQUESTS,
    "urlopen": ("Traceback (most recent call last):\n  File \"<agent code>\", line 2, in <module>\n"
                "    urllib.request.urlopen('http://127.0.0.1:1/', timeout=2)\n"
                "    ~~~~~~~~~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
                "urllib.error.URLError: <urlopen error [Errno 23] Host is unreachable>\n"),
    "pip install": "  File \"<agent code>\", line 1\n    pip install requests\n        ^^^^^^^\nSyntaxError: invalid syntax\n",
    "subprocess": ("Traceback (most recent call last):\n  File \"<agent code>\", line 2, in <module>\n"
                   "    subprocess.run(['pip','install','requests'])\n    ~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
                   "OSError: [Errno 138] emscripten does not support processes.\n"),
    "pyfetch": ("Traceback (most recent call last):\n  File \"<agent code>\", line 2, in <module>\n"
                "    await pyfetch('http://127.0.0.1:1/')\nTypeError: 'NoneType' object is not callable\n"),
    # a socket, by a name that does not say so: only the error (emscripten's EHOSTUNREACH) tells
    "create_connection": ("Traceback (most recent call last):\n  File \"<agent code>\", line 2, in <module>\n"
                          "    connection = create_connection(('127.0.0.1', 1), timeout=2)\n"
                          "OSError: [Errno 23] Host is unreachable\n"),
    "open_url": ("Traceback (most recent call last):\n  File \"<agent code>\", line 2, in <module>\n"
                 "    open_url('http://127.0.0.1:1/')\n    ~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^\n"
                 "AttributeError: 'NoneType' object has no attribute 'new'\n"),
    "js.fetch": ("Traceback (most recent call last):\n  File \"<agent code>\", line 2, in <module>\n"
                 "    await js.fetch('http://127.0.0.1:1/')\n          ~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^\n"
                 "TypeError: 'NoneType' object is not callable\n"),
    "import micropip": ("Traceback (most recent call last):\n  File \"<agent code>\", line 1, in <module>\n"
                        "    import micropip\nModuleNotFoundError: No module named 'micropip'\n"),
}


class SandboxPlayed(Executor):
    """The sandbox's answer to code holding one of `answers`' keys; other code runs here (a fresh
    LocalExecutor each time). Keeps the code it was given, to count runs."""
    environment = SandboxExecutor.environment

    def __init__(self, answers: dict[str, str]):
        self.answers, self.runs = answers, []

    async def run(self, code: str, tools: dict) -> ExecutionResult:
        self.runs.append(code)
        for holds, output in self.answers.items():
            if holds in code:
                return ExecutionResult(output, is_error=True)
        return await LocalExecutor().run(code, tools)

    def ran(self, holding: str) -> int:
        return sum(holding in code for code in self.runs)
