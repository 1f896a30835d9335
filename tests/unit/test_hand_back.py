"""Hand-back (tabagent/app/hand_back.py): ask_user puts a `hand_back` request in the turn's
events, the turn waits for the user's answer however long it takes, and goes on with it; a turn
that ends first is told the user did not answer. Both agents."""

from __future__ import annotations

import asyncio

import pytest

from tabagent.app.turns import Turns
from tabagent.testing import ScriptedModel

pytestmark = pytest.mark.timeout(60)


class Page:
    """The page bridge as a hand-back needs it: ask(id) waits until the test answers."""

    def __init__(self):
        self.asked: dict[str, asyncio.Future] = {}
        self.questions: list[str] = []  # what each ask carried, for a run nobody watches
        self.came = asyncio.Event()

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        return {"ok": True, "result": {"title": "Shop", "url": "https://shop.example/"}}

    async def confirm(self, id_, tool, message, details):
        return "deny"

    async def ask(self, id_, question=""):
        self.questions.append(question)
        self.asked[id_] = asyncio.get_running_loop().create_future()
        self.came.set()
        return await self.asked[id_]


def request(agent):
    return {"conversation_id": f"hb-{agent}", "task": "Order the usual", "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": agent}}


def asking(agent, **args):
    if agent == "code":
        call = ", ".join(f"{k}={v!r}" for k, v in args.items())
        return ScriptedModel([f"Thought: ask.\n```python\nprint(ask_user({call}))\n```", "Thought: done.\n```python\nfinal_answer('Ordered.')\n```"])
    return ScriptedModel([{"content": "", "tool_calls": [{"name": "ask_user", "arguments": args}]}, "Ordered."])


def what_the_model_read(model):
    return str(model.calls[1]["messages"][-1]["content"])


async def answer_later(page, answer, wait=0.3):
    await page.came.wait()
    await asyncio.sleep(wait)  # the turn is paused meanwhile, with nothing ending it
    [future] = page.asked.values()
    future.set_result(answer)


@pytest.mark.parametrize("agent", ["tool_calling", "code"])
async def test_the_turn_waits_for_the_users_answer_and_goes_on_with_it(agent):
    page, events = Page(), []
    model = asking(agent, question="Which size, M or L?")
    turn = asyncio.create_task(Turns().run(request(agent), events.append, model=model, page=page))
    await answer_later(page, "L, please")
    result = await turn
    assert result["status"] == "ok"
    requests = [e["data"] for e in events if e["kind"] == "hand_back"]
    assert requests[0] == {"id": requests[0]["id"], "kind": "question", "question": "Which size, M or L?"}
    assert requests[1] == {**requests[0], "answer": "L, please"}
    assert "The user answered: L, please" in what_the_model_read(model)
    assert page.questions == ["Which size, M or L?"]  # said to a run nobody watches


async def test_a_login_is_handed_back_and_continue_goes_on():
    page, events = Page(), []
    model = asking("tool_calling", question="Log in to the shop, then press Continue.", login=True)
    turn = asyncio.create_task(Turns().run(request("tool_calling"), events.append, model=model, page=page))
    await answer_later(page, "")
    await turn
    assert [e["data"]["kind"] for e in events if e["kind"] == "hand_back"] == ["login", "login"]
    assert "have done it in the tab and pressed Continue" in what_the_model_read(model)


async def test_a_turn_that_ends_first_is_told_the_user_did_not_answer():
    page, events = Page(), []
    model = asking("tool_calling", question="Which size?")
    turn = asyncio.create_task(Turns().run(request("tool_calling"), events.append, model=model, page=page))
    await answer_later(page, None, wait=0)
    await turn
    assert "did not answer" in what_the_model_read(model)
    assert [e["data"].get("answer") for e in events if e["kind"] == "hand_back"] == [None]
