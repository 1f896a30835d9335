"""Turns with a real model, in either browser: what must hold whatever the model says.

The model (tests/helpers/llama_server.py: Qwen2.5-Coder-0.5B-Instruct from `make models`) is
small: it may answer well, answer wrongly, call a tool that does not exist or write a call no
one can read. These checks say nothing of whether it solved anything; they hold for any model:

- the turn ends (ok, out of steps, or an error the panel names), with no error of the agent's own;
- what the panel shows is what happened: a step for each step, each tool call with its result
  (a failed one marked), each piece of code, the answer the turn gave;
- a call the model garbled (a tool that does not exist, arguments that do not fit, a reply that
  looks like a call but reads as none) is told back to it: the next request holds what it was told;
- nothing acts on a page unasked (checked by the tests, which watch the page).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

# Replies are capped so that a turn costs seconds, not minutes, on two cores; the window is the
# model's own at 8,192 tokens (the compact tool set, tool_set.py), as the bench runs it.
MAX_OUTPUT_TOKENS = 160
ENDED = ("ok", "max_steps", "error", "stopped")


def real_model_settings(server, agent: str, **more) -> dict:
    return {"provider": "llamacpp", "base_url": server.base_url, "model": server.model, "agent": agent,
            "max_steps": 3, "max_output_tokens": MAX_OUTPUT_TOKENS, "temperature": 0, "context_window": 8192,
            "request_timeout": 900, **more}


# The newest conversation's last turn as saved, without the streamed pieces, read through the
# extension's own storage module (Chromium keeps conversations in storage.local, Firefox in the
# extension's IndexedDB: platform/*/conversation-store.js).
LAST_TURN_EVENTS = """import(chrome.runtime.getURL("extension/shared/storage/conversations.js"))
  .then(async ({ listConversations, loadConversation }) => {
    const [newest] = await listConversations();
    const record = newest ? await loadConversation(newest.id) : null;
    return (record?.turns.at(-1)?.events || []).filter((e) => !["token", "reasoning"].includes(e.kind));
  })"""


# What the panel shows of the last turn, counted as a reader would.
SHOWN = """(() => {
  const turn = [...document.querySelectorAll('article.turn')].at(-1);
  const top = [...turn.querySelectorAll('section.step')].filter((s) => s.dataset.depth === '0');
  return {
    status: turn.dataset.status,
    steps: top.length,
    tools: top.flatMap((s) => [...s.querySelectorAll(':scope > details.tool')].map((d) => [
      d.dataset.tool, d.querySelector(':scope > pre.result').textContent, d.classList.contains('failed')])),
    code: top.flatMap((s) => [...s.querySelectorAll(':scope > pre.code > code')].map((code) => code.textContent)),
    outputs: top.flatMap((s) => [...s.querySelectorAll(':scope > pre.output')].map((pre) => pre.classList.contains('error'))),
    answer: turn.querySelector('.message.assistant')?.textContent.trim() ?? '',
    errors: [...turn.querySelectorAll('.error')].map((e) => e.textContent.trim()),
  };
})()"""


def last_turn_events(panel, timeout: float = 60) -> list[dict]:
    """The last turn's events once it is saved whole (the panel may show its end first)."""
    deadline = time.monotonic() + timeout
    while True:
        events = panel.run(LAST_TURN_EVENTS)
        if any(e["kind"] == "done" for e in events) or time.monotonic() > deadline:
            return events
        time.sleep(0.2)


def at_top(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["kind"] == kind and e.get("depth", 0) == 0]


def check_the_turn_ended(panel, events: list[dict]) -> dict:
    """The turn ended as the panel says, with no error of the agent's own; its `done` data."""
    done = at_top(events, "done")
    assert done, [e["kind"] for e in events]
    status = done[-1]["data"]["status"]
    assert panel.status() == status
    assert not [e for e in events if e["kind"] == "error" and e["data"].get("kind") == "agent"], \
        "an error of the agent's own (a bug), not the model's"
    calls = [e["data"] for e in events if e["kind"] == "model_call"]
    assert calls and all(c["status"] == 200 for c in calls), [c["status"] for c in calls]
    return done[-1]["data"]


def check_the_panel_shows_the_turn(panel, events: list[dict]) -> dict:
    """Each step, tool call (with its result, a failed one marked), piece of code and the
    answer, as the events say they happened."""
    shown = panel.run(SHOWN)
    assert shown["steps"] == len(at_top(events, "step_start")), shown
    results = {e["data"]["id"]: e["data"] for e in at_top(events, "tool_result")}
    happened = [[c["data"]["name"], results[c["data"]["id"]]["result"], results[c["data"]["id"]]["is_error"]]
                for c in at_top(events, "tool_call")]
    assert [[name, result.strip(), failed] for name, result, failed in shown["tools"]] == \
        [[name, result.strip(), failed] for name, result, failed in happened], shown["tools"]
    assert [" ".join(c.split()) for c in shown["code"]] == [" ".join(e["data"]["code"].split()) for e in at_top(events, "code")]
    assert shown["outputs"] == [bool(e["data"]["is_error"]) for e in at_top(events, "code_output")], shown["outputs"]
    answers = at_top(events, "final_answer")
    if answers:
        answer = answers[-1]["data"]["answer"]
        answer = answer if isinstance(answer, str) else json.dumps(answer, indent=2)
        assert words(answer)[:200] in words(shown["answer"]), (answer, shown["answer"])
    return shown


def words(text: str) -> str:
    """Text as read, whether written in Markdown or rendered from it: fences' lines, marks and
    spacing aside."""
    text = re.sub(r"^\s*```.*$", " ", text, flags=re.M)
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def requests_sent(events: list[dict]) -> list[list[dict]]:
    """Each answered model request's messages, in order."""
    return [json.loads(e["data"]["request"])["messages"] for e in events
            if e["kind"] == "model_call" and e["data"]["status"] == 200 and e.get("depth", 0) == 0]


def garbled_calls(events: list[dict]) -> list[dict]:
    """The tool calls that failed before the tool could run: no such tool, or arguments that
    could not be read or did not fit (tools.py's ToolInputError); with the text told."""
    return [e["data"] for e in at_top(events, "tool_result")
            if e["data"]["is_error"] and e["data"]["result"].startswith("Error:")]


def check_each_garbled_call_is_told(events: list[dict]) -> list[dict]:
    """Every failed call's error is in the next request the model was sent (when there was
    one: the last step's may end the turn)."""
    garbled = garbled_calls(events)
    sent = requests_sent(events)
    step_of = {e["data"]["id"]: e["step"] for e in at_top(events, "tool_result")}
    for call in garbled:
        later = sent[step_of[call["id"]]:]  # request n+1 is the one after step n's reply
        if later:
            told = [m.get("content") for m in later[0] if isinstance(m.get("content"), str)]
            assert any(call["result"] in content for content in told), (call, later[0][-3:])
    return garbled


def check_each_unread_reply_is_told(events: list[dict]) -> list[int]:
    """A step whose reply ran nothing and did not end the turn (empty, a call that could not be
    read, a promise to act) is answered: the next request ends with a note to the model after
    that reply, not with the reply alone. The steps it found."""
    sent = requests_sent(events)
    acted = {e["step"] for e in events if e["kind"] in ("tool_call", "code") and e.get("depth", 0) == 0}
    answered = {e["step"] for e in at_top(events, "final_answer")}
    steps = [e["step"] for e in at_top(events, "step_start")]
    unread = [step for step in steps if step not in acted and step not in answered and step < max(steps)]
    for step in unread:
        nxt = sent[step]
        assert nxt[-1]["role"] == "user" and nxt[-2]["role"] == "assistant", nxt[-3:]
    return unread


def check_each_denial_is_told(events: list[dict], asked: list[str]) -> None:
    """Each action the user denied is told to the model as denied, in a request after it."""
    if not asked:
        return
    denials = [e["step"] for e in events if e["kind"] == "confirmation" and e["data"].get("decision") == "deny"]
    assert len(denials) == len(asked), (denials, asked)
    sent = requests_sent(events)
    for step in denials:
        later = [m.get("content") or "" for request in sent[step:] for m in request]
        assert not sent[step:] or any("The user denied this" in str(text) for text in later), later[-3:]


def watch_and_deny(panel, page_state: Callable[[], str], unchanged: str, timeout: float = 2400) -> list[str]:
    """Until the turn ends, the page must stay as it was (`page_state()` == `unchanged`); each
    question is answered "deny" once the page is seen unchanged while it asks. The questions."""
    asked, deadline = [], time.monotonic() + timeout
    while panel.status() not in ENDED:
        assert time.monotonic() < deadline, "the turn never ended"
        assert page_state() == unchanged, "the page changed while no one had allowed anything"
        box = f"[...document.querySelectorAll('article.turn')].at(-1)?.querySelectorAll('.confirmation')[{len(asked)}]"
        if panel.run(f"{box}?.dataset.state ?? null") == "asking":
            asked.append(panel.question(len(asked))["message"])
            assert page_state() == unchanged, "the page changed before the user answered"
            panel.answer_question(len(asked) - 1, "deny")
        time.sleep(0.3)
    return asked
