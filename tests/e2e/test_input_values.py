"""Date, time, slider, number, month, week, date-and-time and colour fields set by value through
type_text, in a form that keeps its state the way React does (onChange on "input", past a
value tracker): the form's state sees each value. A value the field would reject (the wrong
format, out of its min, max or step) is an error naming the format, and the field is left as it
was, not silently emptied; a file field is refused with the reason. The question the user is
asked says exactly the value that will be set."""

import json

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from tests.helpers.tool_calls import tool_call, told

from tests.helpers.page_content import page_content

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("tool_calling")]  # the scripted model, tools on

STATE = "return JSON.parse(document.getElementById('state').textContent)"


def value_of(tabs, field):
    return tabs.in_page("return document.getElementById(arguments[0]).value", field)


def set_to(tabs, field, text):
    """What the model reads back: the result, or the sentence saying why nothing was done."""
    return page_content(tabs.call_tool("type_text", locator=f"#{field}", text=text))[1]


def done(said):
    return json.loads(said)


@pytest.fixture
def booking(tabs, site):
    tabs.show(site.url("booking-form.html"))
    return tabs


def test_a_date_and_a_time_reach_a_react_style_forms_state(booking):
    for field, text in (("day", "2026-03-14"), ("time", "19:30")):
        assert done(set_to(booking, field, text))["value"] == text
        assert value_of(booking, field) == text
    assert booking.in_page(STATE) == {"day": "2026-03-14", "time": "19:30"}


def test_a_slider_is_set_by_value(booking):
    assert done(set_to(booking, "guests", "7"))["summary"] == "Set the slider “Guests” to “7”, in place of “2”."
    assert value_of(booking, "guests") == "7" and booking.in_page(STATE) == {"guests": "7"}


def test_the_other_kinds_are_set_by_value_too(booking):
    for field, text in (("budget", "45"), ("month", "2026-05"), ("week", "2026-W20"),
                        ("arrival", "2026-05-14T19:30"), ("napkins", "#1E90FF")):
        done(set_to(booking, field, text))
    assert booking.in_page(STATE) == {"budget": "45", "month": "2026-05", "week": "2026-W20",
                                   "arrival": "2026-05-14T19:30", "napkins": "#1e90ff"}


@pytest.mark.parametrize(("field", "text", "said"), [
    ("day", "14/03/2026", "takes a date as YYYY-MM-DD (like 2026-03-14); “14/03/2026” is not one"),
    ("day", "2027-01-05", "takes a date as YYYY-MM-DD from 2026-01-01 to 2026-12-31; “2027-01-05” is outside them"),
    ("time", "7:30 pm", "takes a time as HH:MM in 24 hours, or HH:MM:SS (like 09:30); “7:30 pm” is not one"),
    ("time", "09:00", "from 12:00 to 22:00; “09:00” is outside them"),
    ("guests", "20", "takes a number from 1 to 12 in steps of 1; “20” is outside them"),
    ("guests", "many", "takes a number (like 42 or 3.5); “many” is not one"),
    ("budget", "42", "takes a number from 0 in steps of 5; “42” is outside them"),
    ("napkins", "blue", "takes a colour as #rrggbb"),
])
def test_a_value_the_field_would_reject_is_an_error_naming_its_format(booking, field, text, said):
    before = value_of(booking, field)
    reply = set_to(booking, field, text)
    assert said in reply, reply
    assert value_of(booking, field) == before and booking.in_page(STATE) == {}


def test_a_file_field_is_refused_with_the_reason(booking):
    reply = set_to(booking, "menu", "/home/user/.ssh/id_rsa")
    assert "The file field “Menu” takes a file, and TabAgent never chooses files" in reply, reply
    assert value_of(booking, "menu") == ""


def test_the_question_says_the_value_that_will_be_set(tabs, site, model):
    model.reset()
    tabs.show(site.url("booking-form.html"))
    tabs.new_conversation()
    model.script(tool_call("type_text", locator="#day", text="2026-03-14"), Reply(text="Booked."))
    tabs.send("Book for the 14th of March")
    asked = tabs.question(0)
    assert asked["message"] == "Set the date field “Day” to “2026-03-14”.", asked
    assert asked["details"]["value"] == "2026-03-14" and "text" not in asked["details"]  # set, not typed
    label = tabs.driver.find_element(By.CSS_SELECTOR, "article.turn .confirmation dd[data-detail=value]")
    assert label.find_element(By.XPATH, "preceding-sibling::dt[1]").text == "Value to set"
    tabs.screenshot("input-value-question")
    tabs.answer_question(0, "once")
    tabs.wait_for_status("ok")
    assert tabs.in_page(STATE) == {"day": "2026-03-14"}
    assert '"value": "2026-03-14"' in page_content(told(model, 1))[1]
