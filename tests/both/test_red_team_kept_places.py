"""Red team: an action keeps the place of its element among its namesakes from the question only
while the page has not changed (extension/content/page-version.js), in each browser's panel. The
page changes while the user reads the question:

- a namesake added in the element's form: its place is not the one asked about, and nothing is
  clicked (the place was worked out again, not kept);
- a change elsewhere on the page: the place is worked out again, the same, and the click is done;
- no change at all: the place is kept, and the click is done."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.tool_calls import told, tool_call
from tests.helpers.waiting import until

SITE = Path(__file__).parents[1] / "e2e" / "pages" / "round-trips"
USER_PAGE = "namesake.html"
LOG = "document.getElementById('log').textContent"
CHANGED = "document.getElementById('changed').textContent"


@pytest.mark.parametrize("button,clicked", [("twin", False), ("alone", True), ("quiet", True)])
def test_an_action_is_refused_when_a_namesake_came_while_the_user_read_the_question(turn, model, button, clicked):
    turn.configure(model.base_url)
    model.script(tool_call("click", locator=f"#{button}"), Reply(text="Done."))
    turn.send("Tidy my drafts")
    assert turn.question(0)["message"].startswith("Click the button “")
    if button != "quiet":
        until(lambda: turn.page_value(CHANGED) == button, 10, f"the page never changed for {button}")
    turn.answer_question(0, "once")
    turn.wait_for_status("ok")
    if clicked:
        assert turn.page_value(LOG) == f"{button}: clicked"
        assert '"summary": "Click the button' in told(model, 1)
    else:
        assert turn.page_value(LOG) == "nothing yet"
        assert "Nothing was done: the page changed what the user confirmed" in told(model, 1)
