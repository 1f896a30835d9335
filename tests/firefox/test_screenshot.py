"""The screenshot tool in Firefox, in real turns (as tests/e2e/test_screenshot.py in Chromium; what
both do alike, in tests/both/test_screenshot.py): a tab that is not the one shown in its window
is refused in words and nothing is pictured. The page sits in a window of its own and the chat in
another, as a sidebar sits beside the page (Firefox pictures only the tab shown in a window)."""

from __future__ import annotations

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

IN_WINDOWS = True  # `tabs`: Firefox pictures only the tab shown in a window
USER_PAGE = "sight.html"  # where each `turn` starts
E2E = __import__("pathlib").Path(__file__).resolve().parents[1] / "e2e"


@pytest.fixture(scope="module")
def private_site():
    """Another site (another port) with a page the user has open but never showed."""
    with PageServer(E2E / "red_team_pages") as server:
        yield server


@pytest.fixture(scope="module")
def model(seeing_model):
    return seeing_model


def told(model) -> str:
    return [m["content"] for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]


def test_a_tab_not_shown_in_its_window_is_refused_without_asking(turn, model, private_site):
    """A model naming a tab behind the one in front (a private page the user never showed)."""
    firefox = turn.firefox
    hidden = firefox.send("browsingContext.create", {"type": "tab", "referenceContext": turn.page, "background": True})["context"]
    try:
        firefox.send("browsingContext.navigate", {"context": hidden, "url": private_site.url("private.html"), "wait": "complete"})
        [tab_id] = turn.run(f"chrome.tabs.query({{}}).then((t) => t.filter((x) => x.url === {private_site.url('private.html')!r}).map((x) => x.id))")
        turn.configure(model.base_url, model="scripted-vision")
        model.script(Reply(tool_calls=[{"name": "screenshot", "arguments": {"tab_id": tab_id}}]), Reply(text="Done."))
        turn.send("Describe this page")
        assert turn.wait_for_status("ok", "error") == "ok"
        assert "is not the tab shown in its window" in told(model)
        assert model.pictures(1) == []
        assert turn.run("document.querySelectorAll('article.turn:last-of-type .confirmation').length") == 0
    finally:
        firefox.send("browsingContext.close", {"context": hidden})
