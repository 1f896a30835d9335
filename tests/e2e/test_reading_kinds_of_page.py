"""read_page on kinds of page whose text is not where an article's is: body text set in
headings, a blog's posts in a table cell named like a sidebar ("links"), a profile whose
description sits in a box named like a byline ("bio"), a post under a long comment thread.
Each page (tests/e2e/pages/kinds/, written for these tests) must give its text back, not an
empty reading or the page's chrome.
"""

from pathlib import Path

import pytest

from tests.helpers.page_server import PageServer
from tests.helpers.page_tools import PageTools, start_chromium

pytestmark = pytest.mark.e2e

KINDS = Path(__file__).parent / "pages" / "kinds"


@pytest.fixture(scope="module")
def chromium():
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def site():
    with PageServer(KINDS) as server:
        yield server


@pytest.fixture
def read(chromium, site):
    """read_page's Markdown of one of the pages, as one line of text."""
    def read_(name):
        chromium.get(site.url(name))
        return " ".join(PageTools(chromium).inject()("read_page", max_tokens=100000)["markdown"].split())
    return read_


def test_body_text_set_in_headings_is_read(read):
    # h4 and h6 with no paragraph after them: sections with no body, unless they are the body.
    text = read("headings-body.html")
    assert "leaving the north pier on the hour" in text and "valid for a week" in text
    assert "lower deck when there is room" in text and "before the first sailing of the day." in text
    assert "Privacy" not in text and "Services" not in text
