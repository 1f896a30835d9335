"""What Qwen2.5-Coder-0.5B's ToolCallingAgent did in flour-kg at 4528ad4 (the real-model bench,
bench/results/real-models-rows.jsonl, 2026-12-07, llama-cpp-python's server, Q4_K_M, temperature
0), answered at the mechanism:

- list_controls(page=3, within="div#controls") eight times, each failing with the same error
  (the row's "calls", word for word): a call that failed the same way twice is not run again
  until something acts, and the model is told each time, in other words, with the error
  (call_log.py).
"""

import json

import pytest

from tabagent import ToolCallingAgent
from tabagent.app.no_such_part import controls_part_refused
from tabagent.testing import ScriptedModel
from tabagent.tools import tool

pytestmark = pytest.mark.timeout(30)

URL = "http://127.0.0.1:44911/shop.html"
FLOUR = f"How much does the flour sack weigh in kilograms? (The page is {URL}.)"
ROW_CALL = {"page": 3, "within": "div#controls"}  # flour-kg, 4528ad4: eight times
ROW_ANSWER = "The weight of the flour sack is 10 kilograms."  # its best answer, out of steps


def list_controls_tool(log):
    @tool
    def list_controls(page: int = 1, within: str = "") -> str:
        """Lists the page's controls.

        Args:
            page: which part
            within: a part of the page
        """
        log.append((page, within))
        if page > 1:  # the shop page's controls come in one part
            raise controls_part_refused(f"There is no page {page} of controls: there is 1.", within)
        return "[ta-1] button Subscribe"
    return list_controls


def calls(*pairs):
    return {"tool_calls": [{"name": name, "arguments": arguments} for name, arguments in pairs]}


def told(model, n):
    """What the model read last before its n-th reply."""
    tail = []
    for message in reversed(model.calls[n]["messages"]):
        if message["role"] == "assistant":
            break
        tail.append(message["content"] if isinstance(message["content"], str) else json.dumps(message["content"]))
    return "\n".join(reversed(tail))


def controls(agent_class, arguments=ROW_CALL):
    if agent_class is ToolCallingAgent:
        return calls(("list_controls", arguments))
    written = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    return f"```python\nprint(list_controls({written}))\n```"


def answer(agent_class, text):
    if agent_class is ToolCallingAgent:
        return calls(("final_answer", {"answer": text}))
    return f"```python\nfinal_answer({text!r})\n```"


# --- A failing call, again and again ------------------------------------------------------------

async def test_a_call_that_failed_the_same_way_twice_is_not_run_again():
    log = []
    model = ScriptedModel([controls(ToolCallingAgent)] * 8 + [answer(ToolCallingAgent, "I could not read it.")])
    agent = ToolCallingAgent(model, [list_controls_tool(log)], max_steps=10)
    assert await agent.run(FLOUR) == "I could not read it."
    assert log == [(3, "div#controls")] * 2  # run, failed; run, failed the same way: never again
    said = [told(model, n) for n in range(3, 8)]
    assert all("There is no page 3 of controls" in text and "list_controls() with the same within" in text
               for text in said)  # the error, with the call that works, each time
    assert all("Do what the error says" in text and f"The user asked: {FLOUR}" in text for text in said)
    assert len(set(said)) == 5 and len({text[:12] for text in said[:3]}) == 3  # each time in other words
    assert agent.calls.history == ["list_controls", "list_controls", "final_answer"]


async def test_a_failing_call_runs_again_after_an_act_and_with_other_arguments():
    log, clicks = [], []

    @tool
    def click(locator: str) -> str:
        """Clicks.

        Args:
            locator: what
        """
        clicks.append(locator)
        return "clicked"
    click.acts = True
    model = ScriptedModel([controls(ToolCallingAgent)] * 3 + [calls(("click", {"locator": "ta-1"})),
                           controls(ToolCallingAgent), controls(ToolCallingAgent, {"page": 1}),
                           answer(ToolCallingAgent, "Done.")])
    await ToolCallingAgent(model, [list_controls_tool(log), click], max_steps=10).run(FLOUR)
    assert log == [(3, "div#controls")] * 3 + [(1, "")]  # twice, then after the click, then page 1


async def test_a_call_that_fails_each_time_another_way_keeps_running():
    """Errors that differ (a server's message that changes) are each worth the model's reading."""
    log, said = [], iter(f"busy, retry in {n} s" for n in range(10))

    @tool
    def lookup(word: str) -> str:
        """Looks a word up.

        Args:
            word: the word
        """
        log.append(word)
        raise ValueError(next(said))
    model = ScriptedModel([calls(("lookup", {"word": "kettle"}))] * 3 + [answer(ToolCallingAgent, "No luck.")])
    await ToolCallingAgent(model, [lookup]).run("Look up kettle.")
    assert log == ["kettle"] * 3
