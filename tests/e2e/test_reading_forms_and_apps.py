"""read_page on a page a person works in rather than reads (extension/content/form-or-app.js):
a sign-in form, sound settings with sliders, a date picker showing its month, a small app with a
display, a code to copy and a status line (tests/e2e/pages/apps/, written for these tests). The
article's cleaning dropped each of their short lines as a label or a link list, leaving a model
nothing to act on: the labels, the values of the fields (as they are now, not as the page was
served), the month shown and the display must all be read, and a password never.
"""

from pathlib import Path

import pytest

from tests.helpers.page_tools import PageTools

pytestmark = pytest.mark.e2e

SITE = Path(__file__).parent / "pages" / "apps"


@pytest.fixture
def open_app(chromium, site):
    """Opens one of the pages; returns a reader of read_page's result (the Markdown as one line)."""
    def open_(name):
        chromium.get(site.url(name))
        tools = PageTools(chromium).inject()

        def read_():
            result = tools("read_page", max_tokens=100000)
            return result["extracted_by"], " ".join(result["markdown"].split())
        return read_
    return open_


def test_a_form_is_read_with_its_labels_and_the_values_its_fields_hold(open_app, chromium):
    reading = open_app("sign-in.html")
    chromium.execute_script("document.getElementById('deck').value = 'Lower'")  # typed after loading
    by, text = reading()
    assert by == "form or app"
    assert "Email address [ada@example.org]" in text
    assert "Ticket type [Return ▾]" in text
    assert "Preferred deck [Lower]" in text
    assert "[x] Keep me signed in" in text and "[ ] Send me sailing news" in text
    assert "2 attempts left" in text
    # A person sees dots, and so does the model: the password shows only that it is filled.
    assert "Password [••••]" in text and "harbour-secret-42" not in text


def test_an_empty_field_shows_its_hint(open_app):
    by, text = open_app("sign-in.html")()
    assert "Preferred deck [placeholder: Upper or lower]" in text


def test_sliders_are_read_with_the_values_they_show(open_app, chromium):
    reading = open_app("slider.html")
    # The user drags the volume: the field and the number the page shows beside it both move.
    chromium.execute_script("const v = document.getElementById('volume'); v.value = 60;"
                            " v.dispatchEvent(new Event('input', { bubbles: true }))")
    by, text = reading()
    assert "Volume [slider: 60] 60" in text
    assert "Balance R 12" in text  # a custom slider's value is the text the page shows beside it
    assert "Treble [slider: -3]" in text  # an ARIA slider says its own


def test_a_date_picker_is_read_with_the_month_it_shows_and_its_days(open_app):
    by, text = open_app("date-picker.html")()
    assert "Date: [ ]" in text
    assert "Prev March 2026 Next" in text
    assert "| Mo | Tu | We | Th | Fr | Sa | Su |" in text
    assert "| 9 | 10 | 11 | 12 | 13 | 14 | 15 |" in text


def test_a_small_app_is_read_with_its_display_the_letters_in_a_box_and_its_status(open_app, chromium):
    reading = open_app("counter-app.html")
    assert "17" in reading()[1].split("−")[0]
    chromium.find_element("id", "up").click()
    by, text = reading()
    assert by == "form or app"
    assert text.startswith("18 − + Reset")
    assert "copy the code: qT7w" in text
    assert "Not saved" in text
