"""What a schedule may be and when it runs next (extension/shared/storage/schedules.js), run by Node: a
schedule that does not fit is refused in words, fields it may not set are dropped, and the next
time of each kind is right, across midnight too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "extension" / "shared" / "storage" / "schedules.js"

# Reads [[function name, ...args], ...] from stdin and answers each with its value or error.
RUN = f"""
import * as schedules from {json.dumps(MODULE.as_uri())};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map(([name, ...args]) => {{
  try {{ return {{ value: schedules[name](...args) ?? null }}; }} catch (error) {{ return {{ error: `${{error.constructor.name}}: ${{error.message}}` }}; }}
}});
process.stdout.write(JSON.stringify(answers));
"""


def run(*calls):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", RUN], input=json.dumps(calls), capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env={**os.environ, "TZ": "UTC"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


GOOD = {"id": "s1", "name": " Morning news ", "what": {"kind": "prompt", "text": "Headlines?"},
        "when": {"kind": "daily", "time": "08:30"}, "url": "https://news.example/", "sites": [" news.example "]}


def test_a_good_schedule_is_kept_with_only_its_own_fields():
    [answer] = run(["checkSchedule", {**GOOD, "dueAt": 0, "lastRunAt": 5, "extra": "<script>"}])
    assert answer["value"] == {"id": "s1", "name": "Morning news", "what": {"kind": "prompt", "text": "Headlines?"},
                               "when": {"kind": "daily", "time": "08:30"}, "url": "https://news.example/", "sites": ["news.example"],
                               "enabled": True}


@pytest.mark.parametrize(("change", "said"), [
    ({"what": {"kind": "shell", "text": "rm -rf"}}, "What to run must be a prompt or a tool."),
    ({"what": {"kind": "prompt", "text": "  "}}, "Write the prompt to run."),
    ({"what": {"kind": "tool", "name": "buy now", "args": {}}}, "Name the tool to run (a Python name)."),
    ({"what": {"kind": "tool", "name": "buy", "args": [1]}}, "The tool's arguments must be a JSON object."),
    ({"when": {"kind": "every", "minutes": 0.5}}, "Run it every 1 minute or more."),
    ({"when": {"kind": "daily", "time": "25:00"}}, "Say the time of day it runs, as 08:30."),
    ({"when": {"kind": "once"}}, "Say the date and time it runs."),
    ({"url": "javascript:alert(1)"}, "The page to open must be an http or https address."),
    ({"url": "file:///etc/passwd"}, "The page to open must be an http or https address."),
    ({"sites": ["bank.example/transfer"]}, "“bank.example/transfer” is not a site (write a host, as shop.example)."),
    ({"id": "../schedules"}, "A schedule's id must be 1 to 100 letters, digits, - or _."),
    ({"name": ""}, "Give the schedule a name (up to 200 characters)."),
])
def test_a_schedule_that_does_not_fit_is_refused_in_words(change, said):
    [answer] = run(["checkSchedule", {**GOOD, **change}])
    assert answer == {"error": f"ScheduleError: {said}"}


NOW = 1_764_950_400_000  # 2025-12-05 16:00 UTC


def test_the_next_time_of_each_kind():
    answers = run(
        ["nextRunAfter", {"kind": "once", "at": NOW + 60_000}, NOW],
        ["nextRunAfter", {"kind": "once", "at": NOW}, NOW],  # its time has come: it will not run again
        ["nextRunAfter", {"kind": "every", "minutes": 90}, NOW],
        ["nextRunAfter", {"kind": "daily", "time": "17:15"}, NOW],
        ["nextRunAfter", {"kind": "daily", "time": "08:00"}, NOW],  # passed today: tomorrow
        ["nextRunAfter", {"kind": "daily", "time": "16:00"}, NOW],  # this very minute: tomorrow
    )
    hour = 3_600_000
    assert [a["value"] for a in answers] == [NOW + 60_000, None, NOW + 90 * 60_000, NOW + 1.25 * hour, NOW + 16 * hour, NOW + 24 * hour]


def test_a_tool_is_asked_of_the_agent_with_its_arguments():
    [prompt, tool] = run(["taskFor", {"kind": "prompt", "text": "Headlines?"}], ["taskFor", {"kind": "tool", "name": "check_prices", "args": {"q": "tea"}}])
    assert prompt["value"] == "Headlines?"
    assert tool["value"] == 'Run the tool check_prices with these arguments, then answer with what it returned: {"q":"tea"}'


def test_a_saved_workflow_is_replayed_as_its_slash_command_without_the_model():
    what = {"kind": "tool", "name": "buy_kettle", "args": {"search": "red kettle"}}
    [replay, other] = run(["taskFor", what, ["buy_kettle"]], ["taskFor", {**what, "name": "check_prices"}, ["buy_kettle"]])
    assert replay["value"] == '/buy_kettle {"search":"red kettle"}'
    assert other["value"].startswith("Run the tool check_prices")  # not a workflow: through the agent
    workflows = ROOT / "extension" / "shared" / "storage" / "workflows.js"
    script = (f"const {{ workflowCommand }} = await import({json.dumps(workflows.as_uri())});\n"
              f"process.stdout.write(JSON.stringify(workflowCommand({json.dumps(replay['value'])}, "
              '{ buy_kettle: { name: "buy_kettle", parameters: { search: "" }, allowedSites: [] } })));')
    done = subprocess.run([shutil.which("node"), "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout) == {"name": "buy_kettle", "arguments": {"search": "red kettle"}, "allowed_sites": []}  # what "/name" runs
