"""The Python a newcomer copies from the docs works (issue 47): every ```python block of docs/*.md
and of every README passes ruff with the project's own settings (pyproject.toml: what `make
check` runs on their tool file) and runs, dropped into a user-tools folder as a file of its own,
the way docs/extending.md says to add a tool; and the tool docs/extending.md shows is loaded and
called on a page, and does what the doc says it does."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tabagent.app.user_tool_page import with_page
from tabagent.app.user_tools import load_user_tools

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def documents() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "docs/*.md", "*README.md"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return [ROOT / name for name in listed if not name.startswith(("tests/", "extension/vendor/"))]


def examples() -> dict[str, str]:
    """Each Python block, by where it is: "docs/extending.md#1"."""
    found = {}
    for doc in documents():
        for n, block in enumerate(BLOCK.findall(doc.read_text(encoding="utf-8")), 1):
            found[f"{doc.relative_to(ROOT).as_posix()}#{n}"] = block
    return found


def test_the_docs_have_python_examples_and_extending_md_shows_a_tool():
    assert "docs/extending.md#1" in examples()


@pytest.mark.parametrize("where", sorted(examples()))
def test_each_python_example_passes_ruff(where):
    checked = subprocess.run([sys.executable, "-m", "ruff", "check", "--stdin-filename", "py/user_tools/example.py", "-"],
                             cwd=ROOT, input=examples()[where], capture_output=True, text=True)
    assert checked.returncode == 0, f"{where}:\n{checked.stdout}{checked.stderr}"


@pytest.mark.parametrize("where", sorted(examples()))
def test_each_python_example_runs_as_a_user_tool_file(where, tmp_path):
    (tmp_path / "example.py").write_text(examples()[where], encoding="utf-8")
    _, problems = load_user_tools(tmp_path)
    assert problems == [], problems


class Page:
    """A page with three headings, answering query_page as the content script does
    (extension/content/query.js: {selector, count, results: [{locator, tag, text, attributes}]})."""

    url = "https://example.org/guide"
    headings = [("h1", "Growing tomatoes"), ("h2", "Choosing a variety"), ("h2", "Watering")]

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        assert (name, args) == ("query_page", {"selector": "h1, h2, h3"}), (name, args)
        results = [{"locator": f"ta-{n}", "tag": tag, "text": text, "attributes": {}}
                   for n, (tag, text) in enumerate(self.headings, 1)]
        return {"ok": True, "url": self.url, "result": {"selector": args["selector"], "count": len(results), "results": results}}


async def test_the_tool_extending_md_shows_lists_the_page_s_headings_marked_as_page_content(tmp_path):
    (tmp_path / "page_headings.py").write_text(examples()["docs/extending.md#1"], encoding="utf-8")
    tools, problems = load_user_tools(tmp_path)
    assert problems == [] and [t.name for t in tools] == ["page_headings"]
    [on_page] = with_page(tools, Page())
    said = await on_page()
    assert said.startswith("The text inside <page_content>") and f'<page_content source="{Page.url}" untrusted="true">' in said
    assert "Growing tomatoes\nChoosing a variety\nWatering" in said
