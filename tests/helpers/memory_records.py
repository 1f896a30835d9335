"""Real records for the import check's tests (extension/shared/import-checks/imported-memory.js):
the tools and scripted replies their turns use, and keptMemory run by Node on them
(tests/unit/test_imported_memory.py, tests/unit/test_import_round_trip.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tabagent import tool
from tabagent.testing import ScriptedModel

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "extension" / "shared" / "import-checks" / "imported-memory.js"


@tool
def convert_units(value: float, from_unit: str, to_unit: str) -> float:
    """Converts a value.

    Args:
        value: The number.
        from_unit: Its unit.
        to_unit: The unit wanted.
    """
    return round(value * 1.609344, 2)


CALL = {"content": "Let me convert.", "tool_calls": [{"id": "call_0", "name": "convert_units",
                                                        "arguments": {"value": 26.2, "from_unit": "mi", "to_unit": "km"}}]}

KEPT = f"""
import {{ keptMemory, memoryFromScreen, MAX_NOTES_CHARS }} from {json.dumps(MODULE.as_uri())};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const records = JSON.parse(input);
process.stdout.write(JSON.stringify({{ max: MAX_NOTES_CHARS, kept: records.map((r) => keptMemory(r)), remade: records.map((r) => memoryFromScreen(r)) }}));
"""


def kept(*records):
    done = subprocess.run([shutil.which("node"), "--input-type=module", "-e", KEPT], input=json.dumps(records),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@tool
def fetch_report(part: int) -> str:
    """Gives one part of the yearly report.

    Args:
        part: which part, from 1.
    """
    return f"Part {part}. " + " ".join(f"Line {n} of part {part}: the kettle cost {n} euros." for n in range(150))


def noting(text):
    return {"content": "", "tool_calls": [{"name": "note", "arguments": {"text": text}}]}


def reading(part):
    return {"content": f"Reading part {part}.", "tool_calls": [{"name": "fetch_report", "arguments": {"part": part}}]}


class Retrying(ScriptedModel):
    """Streams part of its first reply, has it taken back (a server error, retried), then replies."""

    async def generate(self, messages, tools=None, on_token=None, on_retry=None, on_reasoning=None, reply_schema=None):
        from tabagent.errors import ModelError
        if len(self.calls) == 0:
            await on_token("I will send your email to")
            await on_retry(ModelError("The server is busy.", status=503), 0, 0.0)
        return await super().generate(messages, tools, on_token, on_retry, on_reasoning, reply_schema)
