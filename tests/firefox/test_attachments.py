"""Attachments in Firefox: a tab found by typing "@" and the selection picked from the Attach
list reach the model inside the untrusted-content marking, with no consent question (the user
chose them), as in Chromium."""

from __future__ import annotations

import json

import pytest

from tests.helpers.model_server import Reply

pytestmark = pytest.mark.usefixtures("tool_calling")  # `tabs`: the chat beside the user's tab
MARKED = '<page_content source="{}" untrusted="true">\n'
OPTIONS = "[...document.querySelectorAll('#attach-options [role=option]')].map((option) => option.textContent)"
CHIPS = "[...document.querySelectorAll('#attachments .attachment .attachment-label')].map((chip) => chip.textContent)"


def type_into_prompt(tabs, text: str) -> None:
    """Text in the message box with the caret at its end, as typing leaves it."""
    tabs.run(f"""(() => {{
      const box = document.getElementById('prompt');
      box.focus();
      box.value = {json.dumps(text)};
      box.setSelectionRange(box.value.length, box.value.length);
      box.dispatchEvent(new InputEvent('input', {{ bubbles: true }}));
    }})()""")


def pick_option(tabs, starting: str) -> None:
    tabs.wait_for(f"{OPTIONS}.some((text) => text.startsWith({json.dumps(starting)}))", 30, f"no option {starting!r}")
    tabs.run(f"""[...document.querySelectorAll('#attach-options [role=option]')]
      .find((option) => option.textContent.startsWith({json.dumps(starting)})).click()""")


def send_and_read_task(tabs, model) -> str:
    tabs.click("#send")
    assert tabs.wait_for_status("ok", "error") == "ok"
    return [m["content"] for m in model.requests[-1]["body"]["messages"] if m["role"] == "user"][-1]


def test_a_tab_attached_by_mention_reaches_the_model_marked(tabs, model, site):
    model.reset()
    url = site.url("article.html")
    tabs.new_conversation(on=url)
    model.script(Reply(text="It is about tomatoes."))
    type_into_prompt(tabs, "Summarise @tomat")
    pick_option(tabs, "Growing Tomatoes on a Balcony")
    tabs.wait_for(f"{CHIPS}.length === 1", 30, "no chip for the tab")
    assert tabs.run(CHIPS) == ["Growing Tomatoes on a Balcony"]
    type_into_prompt(tabs, "Summarise please")
    task = send_and_read_task(tabs, model)
    assert task.startswith("Summarise please\n\nThe user attached this to the message:\n\nTab ")
    inside = task.split(MARKED.format(url), 1)[1].split("</page_content>", 1)[0]
    assert inside.startswith("Title: Growing Tomatoes on a Balcony\n") and "## Choosing a variety" in inside
    assert not tabs.run("Boolean(document.querySelector('.confirmation'))")


def test_the_selection_attached_from_the_list_reaches_the_model_marked(tabs, model, site):
    model.reset()
    url = site.url("article.html")
    tabs.new_conversation(on=url)
    selected = tabs.in_page("""(() => {
      const p = [...document.querySelectorAll('p')].find((el) => el.textContent.trim().length > 40);
      getSelection().selectAllChildren(p);
      return getSelection().toString();
    })()""")
    model.script(Reply(text="Explained."))
    tabs.run("document.getElementById('attach').click()")
    pick_option(tabs, "The selection on the page you are on")
    tabs.wait_for(f"{CHIPS}.length === 1 && {CHIPS}[0].startsWith('Selection: “')", 30, "no chip for the selection")
    type_into_prompt(tabs, "Explain")
    task = send_and_read_task(tabs, model)
    inside = task.split(MARKED.format(url), 1)[1].split("\n</page_content>", 1)[0]
    assert inside == f"Page title: Growing Tomatoes on a Balcony\nPage address: {url}\nSelected text:\n{selected}"
