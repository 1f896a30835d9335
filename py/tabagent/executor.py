"""Executors run the code a CodeAgent writes.

An executor receives the code and the tools (each an async callable); the code
calls tools as plain functions and ends the run with `final_answer(...)`, which the
executor provides. The extension's executor is a sandboxed page with its own
Pyodide; `LocalExecutor` runs code right here, for tests and the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import code_runner
from .prompts import IN_A_SANDBOX


@dataclass
class ExecutionResult:
    output: str            # printed output, the last expression's value, or the traceback
    is_error: bool = False
    is_final: bool = False  # the code called final_answer()
    final_value: Any = None


class Executor:
    # What the code can and cannot do here, told to the model in the CodeAgent's prompt.
    environment: str = IN_A_SANDBOX

    async def run(self, code: str, tools: dict) -> ExecutionResult:
        raise NotImplementedError

    async def reset(self) -> None:
        """Forget the variables of earlier runs."""


class LocalExecutor(Executor):
    """Runs model code in this interpreter, with variables kept between runs.

    NOT a security boundary: the code can do anything this process can (import
    modules, read files, loop forever and block the event loop). Use it for tests
    and for code you would run yourself; the extension runs code in a sandbox.
    """
    environment = "Install nothing (no pip); reach pages and the web through the tools, not requests or urllib."

    def __init__(self, max_output_chars: int = 20_000) -> None:
        self.max_output_chars = max_output_chars
        self.namespace: dict = {}

    async def run(self, code: str, tools: dict) -> ExecutionResult:
        self.namespace.update(tools)
        self.namespace["final_answer"] = code_runner.final_answer
        result = await code_runner.run_code(code, self.namespace, tools.keys(), self.max_output_chars)
        return ExecutionResult(**result)

    async def reset(self) -> None:
        self.namespace = {}
