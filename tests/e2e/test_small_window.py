"""The five-step page task (issue 37) in the extension, with a model whose window is 4,096
tokens (its endpoint says so, as OpenRouter's model list does): read the article, list the
controls, click the search box, type the engineer's name the article gives, answer the year the
article says the bridge opened. The scripted model server takes each fact from the request it
received (tests/helpers/five_step_task.py's patterns), so a request that lost the article gets
"I do not know". Each request, counted with a real tokenizer (o200k), fits the window less the
reply's reserve; the ToolCallingAgent gets the compact tool set."""

import html
import re

import pytest

from tests.helpers.five_step_task import TASK, article
from tests.helpers.model_server import ModelServer, Reply
from tests.helpers.page_server import PageServer
from tests.helpers.real_tokens import count_request

from tests.helpers.panel_backends import ChromiumPanel

pytestmark = pytest.mark.e2e
WINDOW = 4096


def page_html(markdown: str) -> str:
    blocks = []
    for block in markdown.split("\n\n"):
        level = len(block) - len(block.lstrip("#"))
        text = html.escape(block.lstrip("# "))
        blocks.append(f"<h{level}>{text}</h{level}>" if level else f"<p>{text}</p>")
    return ("<!doctype html><html lang='en'><head><title>The Old Harbour Bridge at 150</title></head><body>"
            "<header><form role='search' onsubmit='return false'>"
            "<input id='q' type='search' aria-label='Search the archive'><button>Search</button></form></header>"
            f"<main><article>{''.join(blocks)}</article></main></body></html>")


def said(requests) -> str:
    messages = requests[-1]["body"]["messages"]
    parts = [m.get("content") if isinstance(m.get("content"), str) else "" for m in messages]
    parts += [c["function"]["arguments"] for m in messages for c in m.get("tool_calls") or []]
    return "\n".join(p or "" for p in parts)


def search_box(requests) -> str:
    found = re.search(r"(ta-\d+)[^\n]*Search the archive", said(requests))
    return found.group(1) if found else "unknown"


def engineer(requests) -> str:
    found = re.search(r"designed by the engineer ([A-Z]\w+ [A-Z]\w+)", said(requests))
    return found.group(1) if found else "unknown"


def year(requests) -> str:
    found = re.search(r"opened to traffic in (\d{4})", said(requests))
    return f"It opened in {found.group(1)}." if found else "I do not know."


def reply(name, arguments):
    return Reply(tool_calls=[], calls_from=lambda requests: [{"name": name, "arguments": arguments(requests)}])


@pytest.fixture(scope="module")
def bridge(tmp_path_factory):
    root = tmp_path_factory.mktemp("bridge")
    markdown, name, opened = article(29)
    (root / "bridge.html").write_text(page_html(markdown), encoding="utf-8")
    with PageServer(root) as server:
        yield server, name, opened


def test_the_five_step_task_completes_in_a_4096_token_window(browser, bridge):
    server, name, opened = bridge
    with ModelServer() as model:
        model.context_length = WINDOW
        tabs = ChromiumPanel.beside_a_page(browser)
        tabs.configure(model.base_url, agent="tool_calling")
        tabs.show(server.url("bridge.html"))
        tabs.new_conversation()
        model.script(reply("read_page", lambda r: {}), reply("list_controls", lambda r: {}),
                     reply("click", lambda r: {"locator": search_box(r)}),
                     reply("type_text", lambda r: {"locator": search_box(r), "text": engineer(r)}),
                     reply("final_answer", lambda r: {"answer": year(r)}))
        tabs.send(TASK)
        tabs.question(0)
        tabs.answer_question(0, "once")
        tabs.question(1)
        tabs.answer_question(1, "once")
        tabs.wait_for_status("ok", timeout=60)
        assert f"It opened in {opened}." in tabs.last_turn().text
        assert tabs.in_page("return document.getElementById('q').value") == name
        sent = [r["body"] for r in model.requests]
        assert len(sent) == 5
        first_tools = [t["function"]["name"] for t in sent[0]["tools"]]
        assert "more_tools" in first_tools and "extract_tables" not in first_tools  # the compact set
        assert "Looks" not in sent[0]["messages"][0]["content"] and '"properties"' not in sent[0]["messages"][0]["content"]
        real = [count_request(body["messages"], body.get("tools")) for body in sent]
        assert max(real) <= WINDOW - WINDOW // 8, real
