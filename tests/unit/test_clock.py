"""Today's date, time and time zone in every request's system text (clock.py)."""

from datetime import datetime, timezone

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.clock import REFRESH_SECONDS, Clock
from tabagent.host import Host
from tabagent.testing import ScriptedModel

pytestmark = pytest.mark.timeout(10)

# 2026-07-28 12:05 UTC, a Tuesday; 14:05 in Paris (summer time).
NOON = datetime(2026, 7, 28, 12, 5, tzinfo=timezone.utc).timestamp()


class ParisHost(Host):
    def __init__(self, now: float) -> None:
        self.time = now

    def now(self) -> float:
        return self.time

    def time_zone(self, when: float) -> tuple[int, str | None]:
        return 120, "Europe/Paris"


def system_text(call: dict) -> str:
    return call["messages"][0]["content"]


def test_the_line_says_the_local_date_time_and_zone():
    line = Clock(ParisHost(NOON)).line()
    assert line == "Now: Tuesday 28 July 2026, 14:05 (Europe/Paris)."


def test_a_zone_west_of_utc_and_past_midnight_is_the_day_before():
    class Denver(ParisHost):
        def time_zone(self, when):
            return -6 * 60, "America/Denver"
    early = datetime(2026, 7, 28, 3, 30, tzinfo=timezone.utc).timestamp()
    assert Clock(Denver(early)).line() == "Now: Monday 27 July 2026, 21:30 (America/Denver)."


def test_without_a_zone_name_the_offset_is_said():
    class Unnamed(ParisHost):
        def time_zone(self, when):
            return 330, None
    assert Clock(Unnamed(NOON)).line() == "Now: Tuesday 28 July 2026, 17:35 (UTC+05:30)."


def test_the_machines_own_clock_gives_a_line():
    assert Clock(Host()).line().startswith(f"Now: {datetime.now().astimezone():%A} ")


@pytest.mark.parametrize("kind", [ToolCallingAgent, CodeAgent])
async def test_every_request_carries_the_date_and_a_long_turn_is_told_the_time_again(kind):
    host = ParisHost(NOON)
    answer = ("final_answer('done')" if kind is CodeAgent else
              {"tool_calls": [{"name": "final_answer", "arguments": {"answer": "done"}}]})
    step = "```python\nprint(1)\n```" if kind is CodeAgent else "thinking"

    def replies(messages):
        host.time += REFRESH_SECONDS + 60  # each step takes six minutes
        return answer if len(model.calls) == 3 else step
    model = ScriptedModel(replies)
    model.host = host
    agent = kind(model, [], max_steps=5)
    if kind is ToolCallingAgent:
        agent.not_an_answer = lambda content: "go on"  # keep the loop going on plain text
    await agent.run("what day is it?")
    texts = [system_text(call) for call in model.calls]
    assert "Tuesday 28 July 2026" in texts[0] and "14:05 (Europe/Paris" in texts[0]
    assert "14:11 (Europe/Paris" in texts[1] and "14:17 (Europe/Paris" in texts[2]


async def test_a_short_turn_keeps_one_line_so_the_prompt_cache_holds():
    host = ParisHost(NOON)

    def replies(messages):
        host.time += 30
        return "the answer" if len(model.calls) == 2 else {"tool_calls": [{"name": "add_one", "arguments": {"n": 1}}]}
    model = ScriptedModel(replies)
    model.host = host

    def add_one(n: int) -> int:
        """Add one.

        Args:
            n: A number.
        """
        return n + 1
    await ToolCallingAgent(model, [add_one]).run("count")
    assert system_text(model.calls[0]) == system_text(model.calls[1])
