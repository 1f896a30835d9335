"""`python -m tabagent`: the agent in a terminal, against a scripted OpenAI-compatible server.

The first tests run the real command in a subprocess (as a developer would); the rest call
`cli.main` in this process, which is faster and sees the same code.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabagent.app import cli
from tabagent.app.wire import NOT_FATAL_ERRORS
from tabagent.events import KINDS
from tests.helpers.model_server import ModelServer, Reply

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-test-never-printed"
MARATHON = Reply(tool_calls=[{"name": "convert_units",
                              "arguments": {"value": 26.2, "from_unit": "mi", "to_unit": "km"}}])


@pytest.fixture(scope="module")
def server():
    with ModelServer() as server:  # one per module: stopping one takes half a second
        yield server


@pytest.fixture
def model(server):
    server.reset()
    return server


def tabagent(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py"), "TABAGENT_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "tabagent", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_answers_a_question_with_one_call_to_a_user_tool(model):
    model.script(MARATHON, Reply(text="A marathon is 42.16 km."))
    run = tabagent("--base-url", model.base_url, "--model", "scripted-model", "--agent", "tool_calling",
                   "How many km is a marathon?")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("A marathon is 42.16 km.")
    assert "-> convert_units(" in run.stderr and "<- convert_units: 42.1648128" in run.stderr
    # The tool really ran: its result (not scripted) went back to the model.
    tool_messages = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tool_messages] == ["42.1648128"]
    assert model.requests[0]["headers"]["authorization"] == f"Bearer {KEY}"


def test_a_401_exits_1_with_a_readable_message_and_never_shows_the_key(model):
    model.script(Reply(status=401, error="Incorrect API key provided"))
    run = tabagent("--base-url", model.base_url, "--model", "scripted-model", "Hello?")
    assert run.returncode == 1
    assert "401" in run.stderr and "check the API key" in run.stderr and "TABAGENT_API_KEY" in run.stderr
    assert "Traceback" not in run.stderr
    assert KEY not in run.stdout + run.stderr


def test_events_are_json_lines_ending_with_done(model, tmp_path):
    settings = tmp_path / "settings.json"  # the extension's own keys
    settings.write_text(json.dumps({"provider": "ollama", "base_url": model.base_url,
                                    "model": "scripted-model", "agent": "tool_calling", "max_steps": 4}))
    model.script(MARATHON, Reply(text="42.16 km."))
    run = tabagent("--settings", str(settings), "--events", "How many km is a marathon?")
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    assert all(e["kind"] in KINDS or e["kind"] == "model_call" for e in events)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["kind"] == "done" and events[-1]["data"]["status"] == "ok"
    assert [e["data"]["name"] for e in events if e["kind"] == "tool_result"] == ["convert_units"]
    assert KEY not in run.stdout


# --- In this process ----------------------------------------------------------------------------

def test_the_default_code_agent_runs_the_models_code_with_the_user_tools(model, capsys):
    model.script(Reply(text="```py\nprint(convert_units(100, 'c', 'f'))\n```"),
                 Reply(text="```py\nfinal_answer('100 °C is 212 °F')\n```"))
    assert cli.main(["--base-url", model.base_url, "--model", "m", "Boiling point in F?"]) == 0
    out, err = capsys.readouterr()
    assert out.strip().splitlines()[-1] == "100 °C is 212 °F"  # the answer last, after the streamed code
    assert "<- output: 212.0" in err
    assert "212.0" in model.requests[1]["body"]["messages"][-1]["content"]


def test_a_conversation_from_stdin_keeps_its_memory(model, capsys, monkeypatch):
    model.script(Reply(text="Hello, Ada."), Reply(text="Your name is Ada."))
    monkeypatch.setattr(sys, "stdin", io.StringIO("I am Ada.\n\nWhat is my name?\n"))
    assert cli.main(["--base-url", model.base_url, "--model", "m", "--agent", "tool_calling"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == ["Hello, Ada.", "Your name is Ada."]
    second = [(m["role"], m["content"]) for m in model.requests[1]["body"]["messages"][1:]]
    assert second == [("user", "I am Ada."), ("assistant", "Hello, Ada."), ("user", "What is my name?")]


def test_options_override_the_settings_file(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"base_url": "http://a/v1", "model": "small", "max_steps": 3,
                                    "team": [{"name": "helper", "agent": "code"}]}))
    args = cli.parse_args(["--settings", str(settings), "--model", "large", "--agent", "tool_calling", "task"])
    settings = cli.settings_from(args)
    assert {k: settings[k] for k in ("base_url", "model", "agent", "max_steps", "team")} == {
        "base_url": "http://a/v1", "model": "large", "agent": "tool_calling", "max_steps": 3,
        "team": [{"name": "helper", "agent": "code"}]}
    assert settings["code_timeout"] == 30  # a default, from the one declaration (wire.py)


def test_a_settings_file_with_a_name_that_is_no_setting_is_refused_in_words(tmp_path):
    """An older version's spelling (maxSteps) or a typo would otherwise leave its setting at the
    default without a word."""
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"base_url": "http://a/v1", "model": "small", "maxSteps": 3, "modle": "x"}))
    with pytest.raises(cli.UsageError, match=r"not a setting: maxSteps, modle \(the settings are provider, base_url"):
        cli.settings_from(cli.parse_args(["--settings", str(settings), "task"]))


@pytest.mark.parametrize("argv, says", [
    (["task"], "no endpoint"),
    (["--base-url", "http://a/v1", "task"], "no model name"),
    (["--settings", "/no/such/file.json", "task"], "cannot read the settings file"),
])
def test_bad_usage_exits_2_and_says_what_to_give(argv, says, capsys):
    assert cli.main(argv) == 2
    assert says in capsys.readouterr().err


def test_the_built_in_model_is_refused_on_the_command_line(tmp_path, capsys):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"provider": "builtin"}))
    assert cli.main(["--settings", str(settings), "task"]) == 2
    assert "only exists in the browser" in capsys.readouterr().err


# --- reasoning and retries in the terminal ------------------------------------------------

def test_reasoning_is_marked_on_stderr_and_never_in_the_answer(model, capsys):
    model.script(Reply(reasoning="The user greets me, so I greet back.", text="Hello there."))
    assert cli.main(["--base-url", model.base_url, "--model", "m", "--agent", "tool_calling", "Hi"]) == 0
    out, err = capsys.readouterr()
    assert out == "Hello there.\n"
    assert "thinking: The user greets me, so I greet back." in err


def test_a_retry_withdraws_the_failed_attempts_text_and_the_answer_shows_once(model, capsys):
    model.script(Reply(text="Stale partial", stream_error={"message": "upstream overloaded", "code": 502}),
                 Reply(text="Fresh answer."))
    assert cli.main(["--base-url", model.base_url, "--model", "m", "--agent", "tool_calling", "Hi"]) == 0
    out, err = capsys.readouterr()
    assert out == "Stale partial\n[withdrawn: the text above came from a failed attempt]\nFresh answer.\n"
    assert "upstream overloaded" in err and "Attempt 2 of 4 in" in err and "gave up" not in err


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def event(event_kind, **data):
    return {"kind": event_kind, "depth": 0, "agent": "agent", "data": data}


def test_on_a_terminal_reasoning_is_dimmed_and_a_failed_attempt_is_erased(monkeypatch):
    monkeypatch.setattr(cli.shutil, "get_terminal_size", lambda: os.terminal_size((10, 24)))
    screen = FakeTerminal()
    terminal = cli.Terminal(screen, screen)  # one screen, as stdout and stderr share it
    for e in [event("step_start"), event("reasoning", text="Mull it over"), event("token", text="Stale")]:
        terminal(e)
    assert screen.getvalue() == "\x1b[2mMull it over\x1b[0m\nStale"
    terminal(event("error", kind="retrying", message="502. Attempt 2 of 4 in 1.0 s.",
                   withdraw={"text": 5, "reasoning": 12}))
    # Back up over "Stale" (1 row), the line break and "Mull it over" (12 characters: 2 rows of 10)
    # to where the attempt began, and erase everything below.
    assert screen.getvalue().endswith("\r\x1b[2A\x1b[J502. Attempt 2 of 4 in 1.0 s.\n")
    terminal(event("token", text="Fresh"))
    terminal(event("final_answer", answer="Fresh"))
    assert screen.getvalue().endswith("Fresh\n")
    assert screen.getvalue().count("Fresh") == 1


def test_on_a_terminal_a_call_written_as_text_is_erased_once_read(monkeypatch):
    monkeypatch.setattr(cli.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    screen = FakeTerminal()
    terminal = cli.Terminal(screen, screen)
    terminal(event("step_start"))
    terminal(event("token", text='Checking.<tool_call>{"name": "final_answer", "arguments": {"answer": "42"}}'))
    terminal(event("text_call", said="Checking."))
    # Back to where the step's text began, erase below, and the sentence again without the call.
    assert screen.getvalue().endswith("\r\x1b[J" + "Checking.")
    terminal(event("final_answer", answer="42"))
    assert screen.getvalue().endswith("Checking.\n42\n")


def test_mcp_tools_on_the_command_line_are_refused_without_a_terminal_and_run_with_allow_mcp(model):
    from tests.helpers.mcp_server import MCPTestServer

    add = Reply(tool_calls=[{"name": "lab__add", "arguments": {"a": 2, "b": 40}}])
    with MCPTestServer() as lab:
        model.script(add, Reply(text="Could not."))
        refused = tabagent("--base-url", model.base_url, "--model", "m", "--agent", "tool_calling",
                           "--mcp", f"lab={lab.url}", "What is 2 + 40?")
        assert refused.returncode == 0, refused.stderr
        assert "Call a tool of the MCP server lab, the tool it names 'add': refused (no terminal to ask on" in refused.stderr
        assert [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"] \
            .startswith("The user denied this call of lab__add")
        model.reset()
        model.script(add, Reply(text="42."))
        allowed = tabagent("--base-url", model.base_url, "--model", "m", "--agent", "tool_calling",
                           "--mcp", f"lab={lab.url}", "--mcp-header", "lab=X-Team:blue", "--allow-mcp", "What is 2 + 40?")
        assert allowed.returncode == 0, allowed.stderr
        result = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
        assert 'source="MCP server lab, tool add" untrusted="true">\n{\n  "sum": 42\n}' in result


def test_an_mcp_option_written_wrong_is_a_usage_error(capsys):
    assert cli.main(["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--mcp", "lab", "hi"]) == cli.USAGE_ERROR
    assert "--mcp 'lab': write it as NAME=http://host:port/path" in capsys.readouterr().err


@pytest.mark.parametrize("kind", sorted(NOT_FATAL_ERRORS))
def test_every_error_that_does_not_end_the_turn_is_told_on_the_terminal_as_it_comes(kind):
    """The panel and the terminal read which errors are not fatal from one declaration (wire.py):
    the terminal once kept its own list, without user_tools or attachment."""
    screen = FakeTerminal()
    cli.Terminal(screen, screen)(event("error", kind=kind, message=f"About {kind}."))
    assert f"About {kind}." in screen.getvalue()


MY_TOOL = '''from tabagent import tool


@tool
def shout(text: str) -> str:
    """Says the text in capitals.

    Args:
        text: what to say.
    """
    return text.upper()
'''


def test_list_tools_prints_the_agent_s_tools_with_the_user_s_own_and_their_cost_without_a_browser_or_model(tmp_path):
    (tmp_path / "shout.py").write_text(MY_TOOL)
    done = tabagent("--list-tools", "--tools", str(tmp_path))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[2:] if len(line.split()) >= 3}
    assert rows["shout"][0] == "yours" and int(rows["shout"][1]) > 20
    assert {"read_page", "click", "ask_user", "final_answer"} <= {name for name, row in rows.items() if row[0] == "TabAgent"}
    assert f"with your tools from {tmp_path}" in done.stdout
    total = next(line for line in done.stdout.splitlines() if line.startswith("Listed in every request"))
    assert f"({rows['shout'][1]} of them yours)" in total


def test_list_tools_names_a_tool_file_that_did_not_load_and_exits_1(tmp_path, capsys):
    (tmp_path / "shout.py").write_text(MY_TOOL)
    (tmp_path / "broken.py").write_text("from tabagent import tool\n\n\n@tool\ndef half(\n")
    assert cli.main(["--list-tools", "--tools", str(tmp_path)]) == 1
    said = capsys.readouterr().out
    assert "shout" in said and f"Not loaded: {tmp_path.as_posix()}/broken.py, line 5" in said


def test_an_example_tool_is_listed_as_reached_through_more_tools(capsys):
    assert cli.main(["--list-tools"]) == 0
    [line] = [line for line in capsys.readouterr().out.splitlines() if line.startswith("convert_units ")]
    assert line.split()[1] == "yours" and line.endswith("(not listed: reached through more_tools)")
