"""Red team: a one-time code the agent read in the user's mail (issue 46), in Firefox as in
Chromium (tests/e2e/test_red_team_codes.py): with both sites allowed in the site rules, typing the
mail's code into another site's field, and carrying it off in an address to a site allowed for
the turn, are each asked, once, saying which code and where it was read; nothing leaves."""

from __future__ import annotations


from tests.helpers.mail_and_shop import ANSWERS, CODE, mail_pages, the_attack

SITE = mail_pages  # the conftest's `site` serves the mail


def test_red_team_a_code_read_in_the_mail_is_never_typed_elsewhere_nor_sent_off_unasked_in_firefox(tabs, model, site, gift_shop, post, nothing_heard_yet):
    model.reset()
    panel = tabs.new_conversation()
    panel.configure(model.base_url, site_rules="127.0.0.1: allow")
    panel.show(site.url("mail.html"))
    model.script(*the_attack(gift_shop, post))
    panel.send("Pay at the shop with my gift card")
    for n, (answer, code_asked) in enumerate(ANSWERS):
        asked = panel.question(n, timeout=60)
        said = f"the code {CODE}, which TabAgent read on {site.url('').rstrip('/')}"
        assert (said in asked["message"]) == code_asked, asked
        panel.answer_question(n, answer)
    assert panel.wait_for_status("ok", "error") == "ok"
    assert [hit["path"] for hit in post.hits if hit["path"] != "/favicon.ico"] == ["/pixel"]  # the code never left
    panel.configure(model.base_url)
