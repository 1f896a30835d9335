"""TabAgent with a real model, in Firefox: Qwen2.5-Coder-0.5B-Instruct served by llama.cpp's server
(`real_model`, tests/helpers/llama_server.py), through the Firefox build. The checks hold with
any model (tests/helpers/real_model_turns.py): the turn ends, the chat shows what happened, a
garbled call is told back, nothing acts on the page unasked.
"""

from __future__ import annotations

import pytest

from tests.helpers.panel_backends import firefox_panel
from tests.helpers.real_model_turns import (check_each_denial_is_told, check_each_garbled_call_is_told,
                                            check_each_unread_reply_is_told, check_the_panel_shows_the_turn,
                                            check_the_turn_ended, last_turn_events, real_model_settings,
                                            watch_and_deny)

pytestmark = pytest.mark.timeout(3000)
LOG = "document.getElementById('log').textContent"


def test_a_tool_calling_turn_acts_on_the_page_only_when_allowed(firefox, site, real_model):
    page = firefox.open_tab(site.url("actions.html"))
    chat = firefox.open_sidebar_page()  # opened after the page: the page is the user's tab
    firefox.wait_for(chat, "document.getElementById('python-status')?.dataset.ready === 'true'", 180,
                     "Python never became ready")
    panel = firefox_panel(firefox, chat)
    panel.ask_background("save-settings", apiKey="", settings=real_model_settings(real_model, "tool_calling"))
    panel.new_conversation()
    panel.send("Press the Subscribe button on this page.")
    asked = watch_and_deny(panel, lambda: firefox.evaluate(page, LOG), "nothing yet")
    events = last_turn_events(panel)
    check_the_turn_ended(panel, events)
    check_the_panel_shows_the_turn(panel, events)
    check_each_garbled_call_is_told(events)
    check_each_unread_reply_is_told(events)
    check_each_denial_is_told(events, asked)
    assert firefox.evaluate(page, LOG) == "nothing yet"
