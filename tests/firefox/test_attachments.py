"""Attachments in Firefox: a tab found by typing "@" and the selection picked from the Attach
list reach the model inside the untrusted-content marking, with no consent question (the user
chose them), as in Chromium."""

from __future__ import annotations

import json

import pytest

from tests.helpers.model_server import Reply

from .page_tab import PageTab
from .sidebar import wait_for_status

MARKED = '<page_content source="{}" untrusted="true">\n'
OPTIONS = "[...document.querySelectorAll('#attach-options [role=option]')].map((option) => option.textContent)"
CHIPS = "[...document.querySelectorAll('#attachments .attachment .attachment-label')].map((chip) => chip.textContent)"


@pytest.fixture(scope="module")
def tab(firefox, model):
    from .sidebar import configure

    tab = PageTab(firefox)
    configure(firefox, tab.chat, model.base_url)
    return tab


def type_into_prompt(firefox, chat: str, text: str) -> None:
    """Text in the message box with the caret at its end, as typing leaves it."""
    firefox.evaluate(chat, f"""(() => {{
      const box = document.getElementById('prompt');
      box.focus();
      box.value = {json.dumps(text)};
      box.setSelectionRange(box.value.length, box.value.length);
      box.dispatchEvent(new InputEvent('input', {{ bubbles: true }}));
    }})()""")


def pick_option(firefox, chat: str, starting: str) -> None:
    firefox.wait_for(chat, f"{OPTIONS}.some((text) => text.startsWith({json.dumps(starting)}))", 30, f"no option {starting!r}")
    firefox.evaluate(chat, f"""[...document.querySelectorAll('#attach-options [role=option]')]
      .find((option) => option.textContent.startsWith({json.dumps(starting)})).click()""")


def send_and_read_task(firefox, chat: str, model) -> str:
    firefox.evaluate(chat, "document.getElementById('send').click()")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    return [m["content"] for m in model.requests[-1]["body"]["messages"] if m["role"] == "user"][-1]


def test_a_tab_attached_by_mention_reaches_the_model_marked(firefox, model, tab, site):
    model.reset()
    url = site.url("article.html")
    tab.show(url)
    firefox.evaluate(tab.chat, "document.getElementById('new-chat').click()")
    model.script(Reply(text="It is about tomatoes."))
    type_into_prompt(firefox, tab.chat, "Summarise @tomat")
    pick_option(firefox, tab.chat, "Growing Tomatoes on a Balcony")
    firefox.wait_for(tab.chat, f"{CHIPS}.length === 1", 30, "no chip for the tab")
    assert firefox.evaluate(tab.chat, CHIPS) == ["Growing Tomatoes on a Balcony"]
    type_into_prompt(firefox, tab.chat, "Summarise please")
    task = send_and_read_task(firefox, tab.chat, model)
    assert task.startswith("Summarise please\n\nThe user attached this to the message:\n\nTab ")
    inside = task.split(MARKED.format(url), 1)[1].split("</page_content>", 1)[0]
    assert inside.startswith("Title: Growing Tomatoes on a Balcony\n") and "## Choosing a variety" in inside
    assert not firefox.evaluate(tab.chat, "Boolean(document.querySelector('.confirmation'))")


def test_the_selection_attached_from_the_list_reaches_the_model_marked(firefox, model, tab, site):
    model.reset()
    url = site.url("article.html")
    tab.show(url)
    firefox.evaluate(tab.chat, "document.getElementById('new-chat').click()")
    selected = firefox.evaluate(tab.page, """(() => {
      const p = [...document.querySelectorAll('p')].find((el) => el.textContent.trim().length > 40);
      getSelection().selectAllChildren(p);
      return getSelection().toString();
    })()""")
    model.script(Reply(text="Explained."))
    firefox.evaluate(tab.chat, "document.getElementById('attach').click()")
    pick_option(firefox, tab.chat, "The selection on the page you are on")
    firefox.wait_for(tab.chat, f"{CHIPS}.length === 1 && {CHIPS}[0].startsWith('Selection: “')", 30, "no chip for the selection")
    type_into_prompt(firefox, tab.chat, "Explain")
    task = send_and_read_task(firefox, tab.chat, model)
    inside = task.split(MARKED.format(url), 1)[1].split("\n</page_content>", 1)[0]
    assert inside == f"Page title: Growing Tomatoes on a Balcony\nPage address: {url}\nSelected text:\n{selected}"
