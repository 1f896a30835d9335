"""A developer's own tool that reads the page, called from a CodeAgent's code in Firefox: the
sandbox's stub asks the host, the host's Python runs the tool, the tool's page call reaches the
user's tab, and what comes back is marked as page content. The tool is docs/extending.md's example
("Adding a tool"), dropped into py/user_tools/ and built in, as a developer would."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.firefox import ROOT, Firefox
from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from tests.helpers.panel_backends import FirefoxPanel

PAGES = ROOT / "tests" / "e2e" / "pages"
TOOL = ROOT / "py" / "user_tools" / "fx_page_headings.py"
TOOL_SOURCE = '''from tabagent import tool
from tabagent.app.user_tools import page


@tool
async def page_headings() -> str:
    """Lists the headings of the page the user is on, in order."""
    found = await page.run_page_tool("query_page", selector="h1, h2, h3")
    return page.untrusted("\\n".join(h["text"] for h in found["results"]))
'''


def build() -> None:
    for script in ("build.py", "browser_builds.py"):
        subprocess.run([sys.executable, str(ROOT / "scripts" / script)], check=True, cwd=ROOT)


@pytest.fixture(scope="module")
def firefox(firefox_build):
    """This module's Firefox, with the developer's tool built in; the build is restored after."""
    TOOL.write_text(TOOL_SOURCE)
    try:
        build()
        instance = Firefox().start(firefox_build)
        yield instance
        instance.quit()
    finally:
        TOOL.unlink(missing_ok=True)
        build()


def test_the_models_code_calls_a_tool_that_reads_the_page_through_the_host(firefox, model):
    model.reset()
    with PageServer(PAGES) as site:
        panel = FirefoxPanel.beside_a_page(firefox)  # the user's tab: the tool reads it
        panel.new_conversation(on=site.url("article.html"))
        expected = panel.in_page("[...document.querySelectorAll('h1, h2, h3')].map((h) => h.textContent.trim())")
        panel.configure(model.base_url, agent="code")
        # The answer is made of what the tool gave: one written out beside the call would wait (issue 48).
        model.script(Reply(text="```python\nheadings = page_headings()\nprint(headings)\nfinal_answer('listed' if headings else 'none')\n```"))
        panel.send("How many headings?")
        assert panel.wait_for_status("ok", "error", timeout=120) == "ok"
    (output, is_error), = panel.code_outputs()
    assert not is_error, output
    opening, *headings, closing = output[output.index("<page_content source="):].strip().splitlines()
    assert opening == f'<page_content source="{site.url("article.html")}" untrusted="true">', output
    assert headings == expected and closing == "</page_content>", output
    assert panel.answer() == "listed"
