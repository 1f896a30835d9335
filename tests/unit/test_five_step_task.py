"""Issue 37: both agents complete the five-step page task (read an article, list the controls,
click the search box, type the engineer's name, answer when the bridge opened) inside a
4,096-token window and an 8,192-token one. The scripted model takes every fact from the
request in front of it (tests/helpers/five_step_task.py): a request that lost the article
gets "I do not know", and the test fails. A model that reads long parts (2,600 tokens) makes
the old read go through compaction, which keeps the paragraphs the task needs."""

import pytest

from tabagent.app.turns import Turns
from tabagent.tokens import count_messages

from tests.helpers.five_step_task import TASK, PageBridge, ScriptedReader, article


async def run_task(kind: str, window: int, seed: int, read_args=None):
    markdown, engineer, year = article(seed)
    bridge, model, events = PageBridge(markdown), ScriptedReader(kind, read_args), []
    request = {"conversation_id": f"five-{kind}-{window}-{seed}", "task": TASK, "settings": {
        "agent": kind, "base_url": "http://127.0.0.1:9/v1", "context_window": window, "max_steps": 8}}
    result = await Turns().run(request, events.append, model=model, page=bridge)
    return result, events, bridge, model, engineer, year


@pytest.mark.parametrize("read_args", [None, {"max_tokens": 2600}], ids=["window-sized-parts", "long-parts"])
@pytest.mark.parametrize("window", [4096, 8192])
@pytest.mark.parametrize("kind", ["tool_calling", "code"])
async def test_both_agents_complete_the_five_step_task_in_a_small_window(kind, window, read_args):
    for seed in (3, 11):  # two articles: the answers differ, so none is written in advance
        result, events, bridge, model, engineer, year = await run_task(kind, window, seed, read_args)
        assert result["status"] == "ok", [e["data"] for e in events if e["kind"] == "error"]
        answers = [e["data"]["answer"] for e in events if e["kind"] == "final_answer"]
        assert answers == [f"It opened in {year}."]
        assert bridge.done == [("click", {"locator": "ta-6"}),
                               ("type_text", {"locator": "ta-6", "text": engineer, "clear": True, "submit": False})]
        assert len(model.requests) == 5
        budget = window - window // 8
        assert all(count_messages(r["messages"], r["tools"]) <= budget for r in model.requests)


async def test_long_parts_in_4096_go_through_compaction_that_keeps_the_article_excerpt():
    result, events, bridge, model, engineer, year = await run_task("tool_calling", 4096, 5, {"max_tokens": 2900})
    shortened = [e["data"] for e in events if e["kind"] == "compaction"]
    assert shortened and any(line.startswith("shortened step 1: read_page") for d in shortened for line in d["dropped"])
    last = "\n".join(m.get("content") or "" for m in model.requests[-1]["messages"])
    assert "[Shortened to fit the model's context window" in last and f"opened to traffic in {year}" in last
    assert last.count("<page_content source=") == last.count("</page_content>")  # every marking closed
