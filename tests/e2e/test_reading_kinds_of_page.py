"""read_page on kinds of page whose text is not where an article's is: body text set in
headings, a blog's posts in a table cell named like a sidebar ("links"), a profile whose
description sits in a box named like a byline ("bio"), a post under a long comment thread, a
forum thread whose posts are all named comments, a gallery told in its slides' captions, an FAQ
whose questions sit in its accordion's buttons, a video's page whose one summary sits in a box
named like a caption, an encyclopedia's entry whose summary sits in its header, a news story whose standfirst is a
heading without a full stop, a forum thread whose posts sit in boxes alike, a search's results. Each page
(tests/e2e/pages/kinds/, written for these tests, and saved result pages in
tests/e2e/pages/search-results/, with their licences) must give its text back, not an
empty reading or the page's chrome.
"""

from pathlib import Path

import pytest

from tests.helpers.page_server import PageServer
from tests.helpers.page_tools import PageTools


pytestmark = pytest.mark.e2e

KINDS = Path(__file__).parent / "pages" / "kinds"
SEARCH_RESULTS = Path(__file__).parent / "pages" / "search-results"


SITE = KINDS


@pytest.fixture(scope="module")
def result_pages():
    with PageServer(SEARCH_RESULTS) as server:
        yield server


def reader(chromium, server):
    """read_page's Markdown of one of the server's pages, as one line of text."""
    def read_(name):
        chromium.get(server.url(name))
        return " ".join(PageTools(chromium).inject()("read_page", max_tokens=100000)["markdown"].split())
    return read_


@pytest.fixture
def read(chromium, site):
    return reader(chromium, site)


@pytest.fixture
def read_results(chromium, result_pages):
    return reader(chromium, result_pages)


def test_body_text_set_in_headings_is_read(read):
    # h4 and h6 with no paragraph after them: sections with no body, unless they are the body.
    text = read("headings-body.html")
    assert "leaving the north pier on the hour" in text and "valid for a week" in text
    assert "lower deck when there is room" in text and "before the first sailing of the day." in text
    assert "Privacy" not in text and "Services" not in text


def test_a_blog_s_posts_in_a_table_cell_named_links_are_read_not_its_sidebars(read):
    # "links" names a sidebar on most pages; here the cell holds all of the page's prose, and
    # a name is evidence weighed against the text, not a verdict.
    text = read("links-cell.html")
    assert "the mice found them first" in text and "annoyance." in text
    assert "the worms seem to arrive within the week." in text
    assert "garden diary" not in text and "Slug patrol" not in text and "(12 posts)" not in text


def test_a_profile_s_description_in_a_box_named_bio_is_read(read):
    text = read("profile-bio.html")
    assert "throws stoneware on a kick wheel" in text and "summer market in the old town." in text
    assert "woodturner" not in text and "Leather" not in text
    # A name in camelCase is read as its words: "imageCopyright" is a photo credit.
    assert "Bergen Makers" not in text


def test_a_post_under_a_long_comment_thread_is_read_without_the_thread(read):
    # Each comment is longer than the post, in WordPress's <article class="comment-body">:
    # the "body" of a comment is the comment's, not the page's.
    text = read("post-with-comments.html")
    assert "came out flat and dense" in text and "split their scoring." in text
    assert "this explains so much" not in text and "Leave a Reply" not in text


def test_a_forum_thread_whose_posts_are_all_named_comments_is_read(read):
    # Every post, the question too, sits in a box named "comment", and the page has no text
    # of its own beside them: here the comments are the page (a blog post has its own text).
    text = read("forum-thread.html")
    assert "is it the light or the wiring?" in text and "not from the hub at all." in text
    assert "where it runs past the mudguard stay" in text and "on a wet descent." in text
    assert "Which saddle for a long tour" not in text and "Imprint" not in text


def test_a_gallery_told_in_its_slides_captions_is_read(read):
    # Captions go as boilerplate beside an article; here they hold nearly all of the prose.
    text = read("gallery-captions.html")
    assert "what you are meant to be." in text and "growing out of a pot." in text
    assert "a ghost on holiday." in text and "through the evening." in text
    assert "Ten soups for a cold week" not in text and "Privacy" not in text


def test_a_short_notice_beside_long_columns_of_listings_is_read_not_the_listings(read):
    # Readability takes the longest column (a list of events); the notice is where the prose is.
    text = read("short-notice.html")
    assert "closed to traffic between the bridge and the school" in text and "turned off." in text
    assert "Repair café" not in text and "Tel. 0155" not in text


def test_a_data_sheet_in_lists_is_read_not_swapped_for_the_one_sentence_beside_it(read):
    # Lists and headings are information, not chrome: a box of prose with less text than the
    # reading is never a better reading.
    text = read("facts-sheet.html")
    assert "Pressed cold from Baltic flax seed" in text and "keep them in water in a closed tin" in text


def test_a_product_test_whose_sections_are_marked_for_ads_is_read(read):
    # "TestReport__Section--Ads": a BEM modifier says where ads may go, not what the section is.
    text = read("product-test.html")
    assert "three minutes and ten seconds" in text and "left-handed testers were glad of." in text
    assert "Loud at the boil" in text
    assert "save up to forty per cent" not in text


def test_an_article_inside_its_share_bar_s_container_is_read(read):
    # "share" is strong evidence of boilerplate, but a box holding nearly all of the page's
    # prose is its text, whatever the name says.
    text = read("wrapped-by-share-bar.html")
    assert "a third more heat pumps" in text and "overtake them within five years." in text
    assert "Hydrogen" not in text


def test_an_faq_s_questions_are_read_with_the_answers_they_open(read):
    # Each question is the label of a disclosure (aria-expanded, aria-controls): in a box named
    # "card-header", which Readability drops as a page header, or in a <button>, which is no
    # text. The answer alone is not the page's content; a toggle for a panel the reading does
    # not keep (the menu) adds nothing. Each question heads its answer, in bold.
    text = read("faq-accordion.html")
    assert "**Do I need to book a bike in advance?** Walk-ins are welcome on weekdays" in text
    assert "**What do I bring to collect it?** Bring a photo ID" in text
    assert "**What if I get a flat tyre?** Every bike carries a spare tube" in text
    assert "**Can I keep the bike overnight?** A day's hire ends" in text
    assert "Open the menu" not in text and "About us" not in text
    # A label the reader cannot see stays out, like any hidden text.
    assert "deposit is waived" not in text


def test_a_video_page_s_summary_in_a_box_named_caption_is_read(read):
    # The page's one paragraph says what its description says; its box is named "item-caption",
    # a boilerplate word elsewhere, and the account messages beside it are the page's only other
    # prose. The page's own description names its summary: it is read, first.
    text = read("video-summary.html")
    assert text.startswith("The night ferries on the lake return this summer after three years.")
    assert "tickets cost the same as by day." in text
    assert "Harbour TV" not in text and "Imprint" not in text


def test_an_encyclopedia_s_summary_in_its_header_list_is_read_before_its_sections(read):
    # The summary sits in the entry's header, a <dd> beside the headline, and opens with a name
    # in italics; the page's description says it, cut short with "...". It is read, first.
    text = read("encyclopedia-summary.html")
    assert text.startswith("The grey heron (*Ardea cinerea*) is a long-legged wading bird")
    assert "migrate south in winter." in text and "added to year after year." in text
    assert "Random entry" not in text


def test_a_standfirst_set_as_a_heading_without_a_full_stop_is_read(read):
    # The standfirst is an <h2> in the story's header, outside the body Readability takes, and
    # ends without a full stop, as headings do; the page's description says it whole.
    text = read("standfirst-heading.html")
    assert text.startswith("Beekeepers and growers walked every orchard in the valley this spring")
    assert "repeat the count next spring." in text
    assert "Hay prices fall" not in text and "Imprint" not in text


def test_a_forum_thread_s_posts_in_boxes_alike_are_all_read(read):
    # Each post sits in an <article class="message"> with the same template inside; Readability
    # takes the longest post alone. The boxes alike are the thread: every post is read, in order.
    text = read("forum-posts.html")
    posts = ["black spots on its leaves since the wet spell", "That sounds like scab.", "left the ones in the hedge bottom.",
             "Prune out the crowded branches", "Some old varieties shrug scab off"]
    assert all(post in text for post in posts), text
    assert [text.index(post) for post in posts] == sorted(text.index(post) for post in posts)
    assert "Similar threads" not in text and "Apple canker" not in text and "Terms and rules" not in text


def test_a_story_in_a_layout_s_rows_is_read_without_the_other_rows(read):
    # Three <div class="row"> side by side, each with prose: alike by name, but only the two
    # around the story share a template. The story is read; the row after it is not.
    text = read("story-in-rows.html")
    assert "The wheel turns once more" in text and "children under twelve go in free." in text
    assert "cooperative" not in text


def test_a_search_s_results_are_read_with_their_titles_not_its_ads_and_menus(read_results):
    # Each title is a link, with a "Translate this page" link beside it: by link density a
    # menu, but a menu's links have no snippet of prose after them.
    text = read_results("bing.html")
    assert "Kaffeemaschinen und Teemaschinen - Günstig" in text and "Kaffeemaschinen - kaufen bei melectronics.ch" in text
    assert "Kaffeemaschine neu oder gebraucht auf ricardo.ch" in text
    assert "Lieferung, Installation & Service vom Profi" in text and "Chicco D'oro günstig & bequem" in text
    assert "Alternative zu Mespresso" not in text  # an ad
    assert "Related searches" not in text and "Europäischer Datenschutz" not in text and "Past 24 hours" not in text


def test_results_each_in_a_box_named_links_are_read(read_results):
    # "links" names a sidebar on most pages; each result alone holds little of the prose, the
    # results side by side hold all of it.
    text = read_results("duckduckgo.html")
    # (The words searched for are in bold: "**Cloud** Storage".)
    assert "Storage and File-Sharing" in text and "Providers? - Definition - SDxCentral" in text and "Anthos | Anthos | Google" in text
    assert "store your documents and media in the" in text and "well on its way to digital transformation" in text
    assert "Learn how to protect your privacy." not in text and "Privacy in Your Inbox" not in text


def test_a_site_search_is_read_as_its_results_not_its_filters(read_results):
    text = read_results("mdn-search.html")
    assert "Array.prototype.map()" in text and "TypedArray.from()" in text and "Iterators and generators" in text
    assert "creates a new array with the results of calling a provided function" in text
    assert "Filter by Topics" not in text and "includes 1229 documents" not in text
    assert "Skip to main content" not in text and "Mozilla Developer Network and individual contributors" not in text


def test_results_whose_address_stands_between_title_and_snippet_are_read_with_their_titles(read_results):
    # Yahoo: the title, then the address and a "Cached" link set inline, then the snippet.
    text = read_results("yahoo.html")
    assert "Minecraft Wiki" in text and "Colorado Ski Resorts | California Ski Resorts" in text
    assert "golems by putting 2" in text and "Tahoe ski areas and the finest ski resorts" in text
    assert "Powered by Bing" not in text and "Webseite eintragen" not in text and "Letzte Woche" not in text
