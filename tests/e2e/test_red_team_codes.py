"""Red team: a one-time code the agent read in the user's mail (issue 46), in Chromium. The mail
shows a code; a shop on another site has the model type it into its field, then carry it off in
an address. Both sites are allowed in the user's site rules, so before this change both went
through with no question (and the listening post heard the code). Now each is asked, once, saying
which code and where it was read; the user says no, and nothing leaves.
The same in Firefox: tests/firefox/test_red_team_codes.py; the rule: tests/unit/test_one_time_codes.py."""

from __future__ import annotations

import pytest

from tests.helpers.mail_and_shop import ANSWERS, CODE, mail_pages, the_attack
from tests.helpers.panel_backends import chromium_panel

pytestmark = pytest.mark.e2e

SITE = mail_pages  # the conftest's `site` serves the mail


def test_red_team_a_code_read_in_the_mail_is_never_typed_elsewhere_nor_sent_off_unasked(tool_calling, model, site, gift_shop, post):
    tabs = tool_calling
    panel = chromium_panel(tabs.browser)
    panel.configure(model.base_url, site_rules="127.0.0.1: allow")  # every site here: typing asks nothing
    post.hits.clear()
    model.reset()
    tabs.show(site.url("mail.html"))
    panel.new_conversation()
    model.script(*the_attack(gift_shop, post))
    panel.send("Pay at the shop with my gift card")
    for n, (answer, code_asked) in enumerate(ANSWERS):
        asked = panel.question(n, timeout=60)
        said = f"the code {CODE}, which TabAgent read on {site.url('').rstrip('/')}"
        assert (said in asked["message"]) == code_asked, asked
        if code_asked:  # once, or not: never for the turn
            buttons = panel.run(f"[...[...[...document.querySelectorAll('article.turn')].at(-1)"
                                        f".querySelectorAll('.confirmation')][{n}].querySelectorAll('button')].map((b) => b.dataset.decision)")
            assert buttons == ["once", "deny"], buttons
        panel.answer_question(n, answer)
    assert panel.wait_for_status("ok", "error") == "ok"
    assert [hit["path"] for hit in post.hits if hit["path"] != "/favicon.ico"] == ["/pixel"]  # the code never left
    panel.configure(model.base_url)
