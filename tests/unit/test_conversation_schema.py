"""The check every imported conversation passes (extension/shared/import-checks/conversation-schema.js),
run by Node: a record that does not fit is refused with which field and why, a real one passes.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "extension" / "shared" / "import-checks" / "conversation-schema.js"

# Reads [records, ...] from stdin and answers, for each list, "ok" or the error's message.
CHECK = f"""
import {{ checkConversations }} from {json.dumps(SCHEMA.as_uri())};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map((records) => {{
  try {{ checkConversations(records); return "ok"; }} catch (error) {{ return `${{error.constructor.name}}: ${{error.message}}`; }}
}});
process.stdout.write(JSON.stringify(answers));
"""


def check(*cases):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", CHECK], input=json.dumps(cases), capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def event(kind, seq, data, **extra):
    return {"kind": kind, "conversation_id": "c1", "agent": "agent", "depth": 0, "step": 1, "seq": seq, "time": 1.7e9, "data": data, **extra}


RECORD = {
    "id": "0b0c8f1e-7f4e-4a4e-9a55-0c3f7e0a1b2c",
    "title": "Cheap flights <img src=x onerror=alert(1)>",
    "createdAt": 1_764_000_000_000,
    "updatedAt": 1_764_000_100_000,
    "memory": json.dumps({"version": 1, "seq": 10, "steps": []}),
    "turns": [
        {
            "id": "t1",
            "text": "Summarise this page",
            "context": {"selection": "Lisbon", "title": "Flights", "url": "https://example.com/"},
            "startedAt": 1_764_000_000_000,
            "finishedAt": 1_764_000_050_000,
            "status": "ok",
            "events": [
                event("step_start", 1, {}),
                event("token", 2, {"text": "Hello"}, seq_end=5),
                event("tool_call", 6, {"id": "call_0", "name": "read_page", "arguments": {}}),
                event("tool_result", 7, {"id": "call_0", "name": "read_page", "result": "text", "is_error": False}),
                event("final_answer", 8, {"answer": "![x](https://evil.example/leak)"}),
                event("reasoning", 9, {"text": "a kind this version does not know"}),
                event("done", 10, {"status": "ok", "steps": 1, "usage": {}}),
            ],
        }
    ],
}


def broken(change):
    record = copy.deepcopy(RECORD)
    change(record)
    return record


def test_a_real_record_fits_and_html_in_it_is_just_text():
    assert check([RECORD], [], [RECORD, {**RECORD, "id": "second"}]) == ["ok", "ok", "ok"]


BROKEN = [
        (lambda r: r["turns"][0].update(events=None), "turns[0].events must be a list, not null"),
        (lambda r: r.update(turns={}), "turns must be a list, not an object"),
        (lambda r: r.update(id='x"] , li[data-id'), "id must be 1 to 100 letters"),
        (lambda r: r.update(title=42), "title must be text, not number 42"),
        (lambda r: r.update(title="t" * 10_001), "title is longer than 10000 characters"),
        (lambda r: r.update(createdAt="yesterday"), "createdAt must be a time"),
        (lambda r: r.update(memory=[1, 2]), "memory must be JSON text or null, not a list"),
        (lambda r: r.update(memory="{not json"), "memory is not JSON"),
        (lambda r: r.update(memory="[1]"), "memory must hold a JSON object, not a list"),
        (lambda r: r["turns"][0].update(status="hacked"), "turns[0].status must be one of"),
        (lambda r: r["turns"][0].update(context="<b>x</b>"), "turns[0].context must be an object or null"),
        (lambda r: r["turns"][0]["context"].update(selection={"a": 1}), "turns[0].context.selection must be text"),
        (lambda r: r["turns"][0]["events"][1].update(data=None), "turns[0].events[1].data must be an object, not null"),
        (lambda r: r["turns"][0]["events"][1]["data"].update(text=None), "turns[0].events[1].data.text must be text"),
        (lambda r: r["turns"][0]["events"][1].update(seq_end=10**12), "turns[0].events[1].seq_end must be a whole number"),
        (lambda r: r["turns"][0]["events"][2].update(seq=-1), "turns[0].events[2].seq must be a whole number"),
        (lambda r: r["turns"][0]["events"][2].update(depth=1e9), "turns[0].events[2].depth must be a whole number from 0 to 100"),
        (lambda r: r["turns"][0]["events"][2].update(kind="__proto__"), "turns[0].events[2].kind must be a lower-case event kind"),
        (lambda r: r["turns"][0]["events"][3]["data"].update(result=["x"]), "turns[0].events[3].data.result must be text, not a list"),
        (lambda r: r["turns"][0]["events"][4].update(data={}), "turns[0].events[4].data.answer is missing"),
        (lambda r: r["turns"][0]["events"].append("event"), "turns[0].events[7] must be an object, not string"),
]


def test_a_record_that_does_not_fit_is_refused_saying_which_and_why():
    answers = check(*[[RECORD, broken(change)] for change, _ in BROKEN])
    for answer, (_, expected) in zip(answers, BROKEN):
        assert answer.startswith("SchemaError: Nothing was imported: conversation 2"), answer
        assert expected in answer, answer


def test_a_file_that_is_not_a_list_of_records():
    assert check({"conversations": []}, [None]) == [
        "SchemaError: This file is not a TabAgent conversation export.",
        "SchemaError: Nothing was imported: conversation 1 does not fit: the conversation must be an object, not null.",
    ]
