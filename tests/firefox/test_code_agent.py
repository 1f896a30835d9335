"""A CodeAgent turn in Firefox: the model's code runs in the sandbox (a sandboxed frame of the
Python page, extension/platform/firefox/code-sandbox.js), calls a page tool through the host, streams its
output and errors into the chat, keeps a variable for the next step, and ends the run (code that
never ends, in both browsers: tests/both/test_turns.py)."""

from __future__ import annotations


from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import FirefoxPanel
from tests.helpers.panel_driver import LAST_TURN


def test_the_code_agent_is_offered_again(firefox):
    kinds = FirefoxPanel(firefox).run("[...document.querySelectorAll('#pick-agent option')].map((option) => option.value)")
    assert "code" in kinds and "tool_calling" in kinds, kinds


def test_code_reads_the_page_through_the_host_keeps_a_variable_and_answers(tabs, model, site):
    model.reset()
    url = site.url("article.html")
    panel = tabs.new_conversation(on=url)  # the user's tab: the page tools read it
    panel.configure(model.base_url, agent="code")
    model.script(
        Reply(text="Thought: read it.\n```python\npage = read_page()\nprint(next(line for line in page.splitlines() if line.startswith('<page_content')))\n1 / 0\n```"),
        Reply(text="```python\nprint('Title' in page)\nfinal_answer(str(len(page) > 100))\n```"),
    )
    panel.send("Is this page long?")
    assert panel.wait_for_status("ok", "error", timeout=120) == "ok"
    outputs = panel.code_outputs()
    # The first step's output came before its error, and both are shown, marked as an error.
    assert outputs[0][1] is True, outputs
    assert outputs[0][0].startswith(f'<page_content source="{url}" untrusted="true">'), outputs
    assert "ZeroDivisionError" in outputs[0][0], outputs
    assert outputs[1] == ["True\n", False], outputs  # `page` was still there in the next step
    assert panel.answer() == "True"
    tools = panel.run(f"[...{LAST_TURN}.querySelectorAll('details.tool')].map((d) => d.dataset.tool)")
    assert tools == ["read_page"]
    # What the code printed is what the model read next.
    assert "ZeroDivisionError" in model.requests[1]["body"]["messages"][-1]["content"]
