"""The actions beyond click and type: choosing in native and ARIA lists, checking, keys,
hovering, going back and forward, and the check that nothing covers what is acted on. Called
by hand through the real extension on a page written for it (a person's call is their consent),
each reporting what changed; the confirmations themselves are tested in test_page_actions.py."""

import pytest

from tests.helpers.page_content import page_content

pytestmark = pytest.mark.e2e

LOG = "return document.getElementById('log').textContent"


@pytest.fixture
def form(tabs, site):
    tabs.show(site.url("form-controls.html"))
    return tabs


def done(tabs, name, **args):
    import json

    return json.loads(page_content(tabs.call_tool(name, **args))[1])


def refused(tabs, name, **args):
    reply = tabs.tool_reply(name, **args)
    assert reply["ok"], reply
    return reply["result"]["result"]


def test_choosing_in_a_native_list_by_label_or_value_fires_change(form):
    result = done(form, "select_option", locator="#country", option="Italy")
    assert result["summary"] == "Choose “Italy” in the drop-down list “Country”, in place of “France”."
    assert result["selected"] == ["Italy"] and form.in_page(LOG) == "country it"
    assert done(form, "select_option", locator="#country", option="de")["selected"] == ["Germany"]
    several = done(form, "select_option", locator="#toppings", option=["Cheese", "Basil"])
    assert several["selected"] == ["Cheese", "Basil"]


def test_an_option_that_is_not_there_is_said_with_the_ones_that_are(form):
    text = refused(form, "select_option", locator="#country", option="Spain")
    assert "has no option “Spain”; it has “Germany”, “France”, “Italy”" in text
    assert "takes one choice, not 2" in refused(form, "select_option", locator="#country", option=["Italy", "France"])


def test_choosing_in_aria_listboxes_and_comboboxes(form):
    done(form, "select_option", locator="#size", option="Large")
    assert form.in_page(LOG) == "size l"
    assert form.in_page("return document.querySelector('#size [aria-selected=true]').textContent") == "Large"
    done(form, "select_option", locator="#colour", option="Blue")
    assert form.in_page(LOG) == "colour Blue"
    assert form.in_page("return document.getElementById('colour').textContent") == "Blue"


def test_check_and_uncheck_say_the_new_state_and_checking_twice_does_nothing(form):
    assert done(form, "check", locator="#terms")["checked"] is True
    assert form.in_page(LOG) == "terms true"
    again = done(form, "check", locator="#terms")
    assert again["summary"].startswith("Leave the checkbox “I accept the terms” checked") and again["checked"] is True
    assert done(form, "check", locator="#terms", checked=False)["checked"] is False


def test_keys_reach_the_page_and_enter_submits_the_field_s_form(form):
    result = done(form, "press_key", key="Escape")
    assert result["summary"] == "Press Escape on the page." and form.in_page(LOG) == "escaped"
    assert "dialog" not in result
    blocked = done(form, "press_key", locator="#q", key="Enter")
    assert blocked["form_invalid"] == "text field “Email”: Please fill out this field."
    assert form.in_page(LOG) == "escaped"  # the browser would not send a form with a field left empty
    done(form, "type_text", locator="#email", text="ada@example.org")
    # A real Enter does what it does for a person (real input, issue 51): this form has several
    # text fields and no submit button, so the browser submits nothing; type_text's submit does.
    done(form, "press_key", locator="#q", key="Enter")
    assert form.in_page(LOG) == "escaped"
    done(form, "type_text", locator="#q", text="tomatoes", submit=True)
    assert form.in_page(LOG) == "submitted tomatoes"
    assert "is not a modifier" in refused(form, "press_key", key="Hyper+x")


def test_hover_opens_a_menu_that_opens_on_hover(form):
    assert not form.in_page("return document.getElementById('phones').checkVisibility()")
    done(form, "hover", locator="#products")
    assert form.in_page("return document.getElementById('phones').checkVisibility()")


def test_an_element_covered_by_another_is_not_acted_on_and_the_cover_is_named(form):
    text = refused(form, "click", locator="#covered")
    assert "The button “Delete account” is covered by the div “We use cookies. Accept”" in text
    assert form.in_page(LOG) == "nothing yet"
    done(form, "click", locator="#accept")
    done(form, "click", locator="#covered")
    assert form.in_page(LOG) == "covered clicked"


def test_back_and_forward_go_through_the_tab_s_history(tabs, site):
    tabs.show(site.url("form-controls.html"))
    tabs.show(site.url("controls.html"))
    back = done(tabs, "go_back")
    assert back["url"] == site.url("form-controls.html")
    forward = done(tabs, "go_forward")
    assert forward["url"] == site.url("controls.html")
    assert "there is no page after this one" in refused(tabs, "go_forward")


def test_a_read_only_field_is_not_typed_into(form):
    text = refused(form, "type_text", locator="#when", text="2026-12-24")
    assert "The text field “Delivery date” is read-only" in text
    assert form.in_page("return document.getElementById('when').value") == ""


def test_waiting_for_what_a_click_started_and_for_it_to_go(form):
    done(form, "click", locator="#save")
    found = done(form, "wait_for", text="saved at noon", timeout=10)
    assert found["found"] is True and found["waited_ms"] >= 0
    assert done(form, "wait_for", locator="#spinner", gone=True)["gone"] is True
    assert "The text “Never” did not appear within 0.3 s." in refused(form, "wait_for", text="Never", timeout=0.3)
    assert "give either text or locator" in refused(form, "wait_for")


def test_an_element_out_of_view_when_planned_is_checked_for_a_cover_where_it_is_acted_on(tabs, site):
    """The field is below the fold when the action is planned (nothing covers it there); scrolled
    into view, it lands under a banner fixed over the window: nothing is typed, hovered or chosen."""
    tabs.show(site.url("covered-below.html"))
    for name, args in (("type_text", {"locator": "#far", "text": "hello"}), ("hover", {"locator": "#menu"}),
                       ("select_option", {"locator": "#plan", "option": "Pro"})):
        tabs.in_page("scrollTo(0, 0)")
        text = refused(tabs, name, **args)
        assert "is covered by the div “Sign up for our newsletter No thanks”" in text, (name, text)
        assert tabs.in_page(LOG) == "nothing yet"
    tabs.in_page("scrollTo(0, 0)")
    done(tabs, "click", locator="#close")
    done(tabs, "type_text", locator="#far", text="hello")
    assert tabs.in_page(LOG) == "typed hello"


def test_text_is_not_typed_into_a_field_the_page_moves_the_focus_to(tabs, site):
    tabs.show(site.url("focus-thief.html"))
    # As when the page is the tab the user looks at: its focus events fire (a tab behind the panel's
    # gets none in headless Chromium).
    tabs.driver.switch_to.window(tabs.page)
    tabs.driver.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})
    tabs.driver.switch_to.window(tabs.window)
    text = refused(tabs, "type_text", locator="#card", text="4111 1111 1111 1111")
    assert ("Nothing was done: the page moved the focus from the text field “Card number” to the text field "
            "“Card number” as it was focused") in text
    assert tabs.in_page("return [document.getElementById('thief').value, document.getElementById('card').value]") == ["", ""]
    assert tabs.in_page(LOG) == "nothing yet"
    done(tabs, "type_text", locator="#name", text="Ada")  # a field that keeps its focus is typed into
    assert tabs.in_page(LOG) == "typed Ada"
