"""The content scripts of the page tools (extension/content/) alone, in real headless Chromium.

Pages are served over HTTP; the content scripts are injected into an isolated world through
the DevTools protocol, as the service worker injects them (tests/helpers/page_tools.py), so
each tool's details are tested fast and without the rest of the extension. The same tools
through the whole extension (Python, service worker, side panel) are tested in
test_page_corpus.py (read_page on 22 real pages), test_page_tools.py and
test_page_actions.py. Our own small pages are in tests/e2e/pages/.
"""

import inspect
import json
import re
import sys
from pathlib import Path

import pytest
from selenium.webdriver.support.wait import WebDriverWait

from tests.helpers.page_tools import PageToolFailed, PageTools

pytestmark = pytest.mark.e2e

CORPUS_DIR = Path(__file__).parent / "pages" / "readability"  # vendored, with its license


@pytest.fixture
def open_page(chromium, site):
    """Load one of our pages and return its injected tools."""
    def open_(name):
        chromium.get(site.url(name))
        return PageTools(chromium).inject()
    return open_


def main_world(chromium, script):
    """Run JavaScript as the page itself (not the tools' isolated world) and return its value."""
    return chromium.execute_script(script)


def wait_for_frames(chromium):
    """Eager page loads return before iframes load; wait for both of frame.html's frames."""
    WebDriverWait(chromium, 10).until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('iframe')].every(f => {"
        " try { return !f.contentDocument || f.contentDocument.readyState === 'complete' && f.contentDocument.body.childElementCount > 0 }"
        " catch { return true } })"))
    # The cross-origin frame must have loaded too, or "it was skipped" proves nothing.
    WebDriverWait(chromium, 10).until(lambda d: d.execute_script(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('frame-other.html'))"))


def read_all_pages(tools, **args):
    first = tools("read_page", **args)
    rest = [tools("read_page", page=n, **args)["markdown"] for n in range(2, first["pages"] + 1)]
    return first, "\n\n".join([first["markdown"], *rest])


def test_each_tool_defaults_its_arguments_as_the_python_tool_does(open_page):
    """A user tool gets the same from page.run_page_tool("read_page") as from page.read_page(): the
    content scripts once cut parts at 6,000 tokens and page_html at 20,000 characters, where
    Python asks for 4,000 and 15,000."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))  # not installed (as in tests/unit)
    from tabagent.app.page_tools import READING, PageReader
    from tabagent.app.wire import PAGE_TOOL_DEFAULTS
    js = open_page("article.html").evaluate(
        "Object.fromEntries(Object.entries(TabAgentTest.tools).map(([name, tool]) => [name,"
        " Object.fromEntries(Object.entries(tool.params).filter(([, p]) => typeof p.def !== 'symbol')"
        ".map(([key, p]) => [key, p.def]))]))")
    compared = 0
    for name in set(READING) & set(js):
        for key, param in inspect.signature(getattr(PageReader, name)).parameters.items():
            # None in Python's signature: the tool puts wire.py's default in its place.
            python = PAGE_TOOL_DEFAULTS.get(name, {}).get(key, param.default)
            if key in js[name] and param.default is not inspect.Parameter.empty:
                assert js[name][key] == python, (name, key)
                compared += 1
    assert compared > 15 and js["read_page"]["max_tokens"] == PAGE_TOOL_DEFAULTS["read_page"]["max_tokens"]
    assert js["page_html"]["max_chars"] == PAGE_TOOL_DEFAULTS["page_html"]["max_chars"]


# --- read_page: format, pages, fallback, frames -----------------------------------------

def test_read_page_returns_markdown_and_metadata(open_page, site):
    page = open_page("article.html")("read_page")
    assert page["title"] == "Growing Tomatoes on a Balcony"
    assert page["url"] == site.url("article.html")
    assert (page["byline"], page["lang"], page["dir"]) == ("Ada Gardener", "en", "ltr")
    assert page["excerpt"] == "How to grow tomatoes in pots, from seed to harvest."
    assert (page["page"], page["pages"], page["extracted_by"]) == (1, 1, "readability")
    md = page["markdown"]
    assert page["length"] == len(md)
    assert "## Choosing a variety" in md and "### Logging moisture" in md
    assert re.search(r"^-\s+Tiny Tim, a dwarf cherry tomato$", md, re.M)
    # Links are their text (list_links has the addresses).
    assert "See the watering notes for a printable calendar, or read the research summary." in " ".join(md.split())
    assert "](" not in md and "example.org" not in md
    assert "| Month | Litres per week |\n| --- | --- |\n| May | 4 |\n| July | 9 |" in md
    assert '```python\ndef log(reading):\n    print(f"moisture={reading}")\n```' in md
    assert "Copyright Balcony Gardens" not in md and "Home" not in md  # page chrome left out
    # A section on comments in code is the text (only a line that opens readers' comments,
    # "2 comments on …", "Leave a reply", ends it).
    assert "### Comments" in md and "ripening indoors" in md


def test_markdown_spends_tokens_on_content(open_page):
    tools = open_page("article.html")
    to_markdown = lambda html: tools.evaluate(f"TabAgentTest.markdown.toMarkdown({json.dumps(html)})")
    # A link is its text; an image is its alt text, only when that says something.
    assert to_markdown('<p>Read <a href="https://example.org/x">the report</a> now.</p>') == "Read the report now."
    images = ('<p><img src="a.png" alt="Sales doubled between 2020 and 2024"><img src="b.png" alt="">'
              '<img src="c.png" alt="logo"><img src="IMG_2041.jpg" alt="IMG_2041.jpg"><img src="d.png"></p>')
    assert to_markdown(images) == "![Sales doubled between 2020 and 2024]()"
    assert to_markdown('<figure><img src="a.png" alt="A cat"><figcaption>A cat on a mat</figcaption></figure>') == "A cat on a mat"
    # Ruby annotations (the reading above the characters) are not run into the words.
    assert to_markdown("<p><ruby>東京<rp>(</rp><rt>とうきょう</rt><rp>)</rp></ruby>に<ruby>行<rt>い</rt></ruby>く</p>") == "東京に行く"
    # Lists with one space after the marker; escapes only where a line would change meaning.
    assert to_markdown("<ul><li>one</li><li>two</li></ul><ol start='3'><li>three</li></ol>") == "- one\n- two\n\n3. three"
    assert to_markdown("<p>snake_case *stars* [brackets] 2 + 2</p>") == "snake_case *stars* [brackets] 2 + 2"
    # ... and a star inside a word, which would pair with the next one as emphasis.
    assert to_markdown("<p>Schüler*innen und <b>Kund*innen</b>, 2*3</p>") == "Schüler\\*innen und **Kund\\*innen**, 2\\*3"
    assert to_markdown("<p># not a heading</p><p>1. not a list</p>") == "\\# not a heading\n\n1\\. not a list"
    # Emphasis inside a word, or beside Chinese: "_" there is no emphasis in CommonMark, "*" is.
    assert to_markdown("<p><em>Haus</em>tür und <em>number</em>的缩写</p>") == "*Haus*tür und *number*的缩写"
    # A letter saved as its base and a combining mark is the letter a user types: "geprüft",
    # not "gepru" + U+0308 (find_in_page and the model's tokens see different text).
    assert to_markdown("<p>Gepru\u0308ft: Sa\u0301nchez, cafe\u0301</p>") == "Gepr\u00fcft: S\u00e1nchez, caf\u00e9"
    # Headings, tables and code blocks stay.
    assert to_markdown("<h2>Results</h2><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>") == \
        "## Results\n\n| A | B |\n| --- | --- |\n| 1 | 2 |"
    # ... without the spacer rows and gutter columns of a page laid out with tables; a table
    # used for layout (one row, one column left) is its blocks.
    spaced = ("<table><tr><th>Name</th><th></th><th>Age</th></tr><tr><td></td><td></td><td>&nbsp;</td></tr>"
              "<tr><td>Ada</td><td><img src='spacer.gif'></td><td>36</td></tr><tr><td>Alan</td><td></td><td>41</td></tr></table>")
    assert to_markdown(spaced) == "| Name | Age |\n| --- | --- |\n| Ada | 36 |\n| Alan | 41 |"
    cover = "<table><tr><td><img src='c.jpg' alt='Cover: Purple'></td><td>&nbsp;</td><td>Album: Purple</td></tr></table>"
    assert to_markdown(cover) == "![Cover: Purple]() Album: Purple"
    nested = "<table><tr><td><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></td><td>Side</td></tr></table>"
    assert to_markdown(nested) == "| A | B |\n| --- | --- |\n| 1 | 2 |\n\nSide"
    quote = "<table><tr><td>“</td><td>“Thank you! I love it.”</td></tr><tr><td>“</td><td></td></tr></table>"
    assert to_markdown(quote) == "“Thank you! I love it.”"
    assert to_markdown('<pre><code class="language-js">let a = b_c * 2;</code></pre>') == "```js\nlet a = b_c * 2;\n```"


def test_markdown_leaves_an_element_as_it_was_unless_it_is_read_page_s_own_copy(open_page):
    # Turndown trims the whitespace of what it converts: a page's own element is converted from
    # a copy, and read_page's copy of the article (consume) as it is, with no copy more.
    tools = open_page("article.html")
    result = tools.evaluate("""(() => {
      const box = document.createElement("div");
      box.innerHTML = "<p>  Spaced   <b> words </b>  here. </p>";
      document.body.append(box);
      const before = box.innerHTML;
      const copied = TabAgentTest.markdown.toMarkdown(box);
      const kept = box.innerHTML === before;
      const copy = box.cloneNode(true);
      box.remove();
      const clone = Node.prototype.cloneNode;
      let clones = 0;
      Node.prototype.cloneNode = function (...args) { clones++; return clone.apply(this, args); };
      try {
        const consumed = TabAgentTest.markdown.toMarkdown(copy, { consume: true });
        return { copied, kept, consumed, clones, patched: Object.hasOwn(copy, "cloneNode") };
      } finally {
        Node.prototype.cloneNode = clone;
      }
    })()""")
    assert result == {"copied": "Spaced **words** here.", "kept": True, "consumed": "Spaced **words** here.",
                      "clones": 0, "patched": False}


def test_read_page_pages_split_between_paragraphs(chromium, corpus):
    chromium.get(corpus.url("wikipedia/source.html"))
    tools = PageTools(chromium).inject()
    whole = tools("read_page", max_tokens=100000)
    first, joined = read_all_pages(tools, max_tokens=1000)
    assert whole["pages"] == 1 and first["pages"] > 5
    assert joined.split() == whole["markdown"].split()  # nothing lost, nothing reordered
    assert "page=2" in first["note"]
    text = whole["markdown"]
    for n in range(1, first["pages"] + 1):
        part = tools("read_page", page=n, max_tokens=1000)["markdown"]
        assert len(part) <= 1000 * 4
        # Each page is a run of whole lines of the full text: cut between blocks, or between
        # the lines of a block too long for one page (the list of references), never mid-line.
        start = text.index(part)
        end = start + len(part)
        assert (start == 0 or text[start - 1] == "\n") and (end == len(text) or text[end] == "\n")
    answer = tools.run("read_page", {"page": first["pages"] + 1, "max_tokens": 1000})
    assert not answer["ok"] and f"has {first['pages']} pages" in answer["error"]


def test_pages_break_between_paragraphs_and_keep_code_blocks_whole(open_page):
    tools = open_page("article.html")
    paginate = lambda text, chars: tools.evaluate(f"TabAgentTest.pagination.paginate({json.dumps(text)}, {chars})")
    assert paginate("aaaa\n\nbbbb\n\ncccc", 10) == ["aaaa\n\nbbbb", "cccc"]
    code = "```\nline 1\n\nline 2\n```"
    assert paginate(f"intro\n\n{code}\n\nafter", 25) == ["intro", code, "after"]
    assert paginate("one line\nanother line", 12) == ["one line", "another line"]
    assert paginate("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]
    assert paginate("", 10) == [""]


def test_read_page_keeps_the_lead_and_leaves_out_what_points_elsewhere(open_page):
    page = open_page("news.html")("read_page")
    text = " ".join(page["markdown"].split())
    # The standfirst above the story's first paragraph is the article's lead.
    assert "more than six thousand people came through them on the first day alone." in text
    assert text.index("six thousand people") < text.index("old bus depot")
    assert "thousands come through" not in text  # the headline is the title, not the lead
    # What the site says about the visit is neither the lead nor the text.
    assert "outdated browser" not in text and "not logged in" not in text and "users are online" not in text
    # A "caption" of several sentences (a video's description) is text; a short one is not.
    # (A line all in bold before a paragraph heads it, like a heading: "A card for all".)
    for kept in ("old bus depot", "crate by crate", "Cheaper than planned", "steel frame", "proof of address", "put two hives.",
                 "on its Instagram page.", "**A card for all** Membership is free"):
        assert kept in text
    # The line that dates the story is not its text, but its date is the page's when nothing
    # else dates it; a date the text gives under a label stays.
    assert "Posted" not in text and page["published_time"] == "March 12, 2024"
    assert "4 min read" not in text  # a label, though an icon stands beside it
    assert "Guided tours: March 16, 2024 at 11:00" in text
    # A line pointing to more stories goes, with the list of links after it; a list of text
    # keeps its heading, whatever the heading says.
    for left_out in ("More from our coverage", "More from the archive", "oldest bookshop", "bus depot was like"):
        assert left_out not in text, left_out
    assert "### Recommended reading - The Library Book, by Susan Orlean" in text
    # A box of other stories named so beside a content word ("post-related"), and the site's
    # disclaimer, are not the story.
    assert "oldest bookshop" not in text and "paid links" not in text
    # A photo credit, a line that is one link to another story, and what follows the last
    # sentence (the heading of a section that was links, "Share this") are not the text.
    # A heading whose section was only boilerplate ("Related coverage") goes with it, and so does
    # the site's calls at the end to follow it, rate the story or sign up, and its closing
    # notes (the licence), however many follow each other and also as the last line of a
    # paragraph (after a <br>), while a mere mention of Instagram stays,
    # the advertising disclosure the story opens with, and a widget's "Loading…" that no script
    # replaced.
    for left_out in ("Jane Doe", "What will happen to the old library", "More on this story", "Share this", "Copyright",
                     "Related coverage", "Follow City Press", "Was this article helpful", "licensed under", "Never miss",
                     "Let us know in the comments", "This entry was posted",
                     "affiliate links", "Loading the map"):
        assert left_out not in text, left_out
    # A line naming one other story or pointing to one ("ALSO READ: …", "… click here."), a
    # sign-up call for the newsletter wherever it stands, and a line opening with a credit.
    # So does a cookie banner that no class names, at either end.
    for left_out in ("ALSO READ", "reading rooms of the old library", "click here", "City Press newsletter", "Header image",
                     "We use cookies"):
        assert left_out not in text, left_out
    # Readers' comments that no class names go from the line that opens them.
    for left_out in ("2 comments on", "reading tent was already full", "out of order all weekend"):
        assert left_out not in text, left_out


def test_read_page_reads_a_story_in_a_teaser_box_but_not_the_teasers(open_page):
    text = " ".join(open_page("teaser-story.html")("read_page")["markdown"].split())
    assert "from their first length without a float" in text and "drew the first pages themselves." in text
    assert "Winter gala" not in text and "Pool closed" not in text and "school pool" not in text


def test_related_posts_marked_as_articles_do_not_hide_the_page_s_content(open_page):
    # Teasers each in an <article> are a list of other stories, not the page's article: they
    # go, and the page's <main> is read, lead and all, not the first teaser.
    page = open_page("trail-guide.html")("read_page")
    text = " ".join(page["markdown"].split())
    assert "riders who want long descents" in text and "open for lunch." in text
    assert "Five lakes" not in text and "playground" not in text
    # The line pointing to them goes too, beside an icon's empty box.
    assert "More stories" not in text
    # Text loose between blocks is judged as a line too: a newsletter call, a byline.
    assert "Sign up to our newsletter" not in text and "Jane Rider" not in text
    # ... and a loose date line goes with its date kept as the page's, like any date line.
    assert "Updated" not in text and page["published_time"] == "June 2, 2024"
    assert "children under twelve ride for free" in text and "which of the huts" in text


def test_a_page_laid_out_in_a_table_loses_its_closing_call_but_a_table_of_data_keeps_its_cells(open_page):
    # Old sites set the whole page in a table: a cell holding the article is layout, so its
    # closing call goes like any other; a cell of a table of data is never taken for a call.
    text = " ".join(open_page("old-site.html")("read_page")["markdown"].split())
    assert "weakly and effusively sentimental" in text and "already left the cinema." in text
    assert "| Donate | to give, usually money |" in text
    assert "under a Creative Commons licence, which says in plain words" in text  # about licences, not one
    assert "Help us continue" not in text


def test_the_values_a_page_ends_with_are_read_but_its_trailing_labels_are_not(open_page):
    # Short lines after the last sentence are mostly labels ("Share this page", a comment
    # count); a line that gives a value (an order number, a total) is the page's information.
    text = " ".join(open_page("receipt.html")("read_page")["markdown"].split())
    assert "within two working days" in text
    assert "Order number: 40213" in text and "Total: 45.00 EUR" in text
    assert "Comments: 3" not in text and "Share this page" not in text


def test_a_live_ticker_s_entries_are_read_but_readers_comments_are_not(open_page):
    # Sites name a live ticker's entries "comments" too ("live-match-comment").
    text = " ".join(open_page("match-ticker.html")("read_page")["markdown"].split())
    assert "Full time at the harbour!" in text and "Kick-off in a full stadium" in text
    assert "what a match" not in text and "a draw is fine by me" not in text
    # A reader's long comment in an <article class="comment"> does not make the thread the article.
    assert "thirty years" not in text


def test_a_subheading_set_in_italics_over_its_list_is_read_not_dropped_as_a_label(open_page):
    # A short line all in <em> or <i> right before a list of text heads it, as one in bold does;
    # the same line before no text ("Advertisement" over an ad's box) is a label.
    text = " ".join(open_page("packing-list.html")("read_page")["markdown"].split())
    assert "*In the day pack* - A waterproof jacket" in text
    assert "*In the bag that goes ahead* - A change of shoes" in text
    assert "Advertisement" not in text and "new boots." in text


def test_a_short_chinese_subheading_is_read_as_text_not_dropped_as_a_label(open_page):
    # Eight Chinese characters say as much as a line of Latin text: not a stray label.
    text = " ".join(open_page("chinese-story.html")("read_page")["markdown"].split())
    assert "“数字”走进阅览室" in text and "孩子们的新去处" in text
    assert "新馆面积是旧馆的两倍" in text and "版权所有" not in text


def test_a_recipe_is_read_with_its_ingredients_from_their_own_box(open_page):
    # The method is the article Readability finds; the ingredients beside it join it, first.
    text = " ".join(open_page("recipe.html")("read_page")["markdown"].split())
    assert "500 g flour" in text and "3 tbsp honey" in text and "until the almonds are golden." in text
    assert text.index("500 g flour") < text.index("Warm the milk")
    # A hidden "ingredients" box (text planted for the model, not the reader) is not one of them.
    assert "open tabs" not in text


def test_a_paper_is_read_with_its_abstract_before_the_references_readability_picks(open_page):
    # Behind a paywall a paper's page holds its abstract and a long list of references, and
    # Readability takes the references: the abstract, in a section of its own, joins first.
    # (All of it in one part: the default part, 4,000 tokens, ends before the references.)
    text = " ".join(open_page("paper.html")("read_page", max_tokens=100000)["markdown"].split())
    assert "## Abstract ### Purpose of the review The purpose of the review is to summarise" in text
    assert text.index("strontium ranelate and dapsone.") < text.index("1. Shear NH, et al.")
    assert "review@example.com" not in text  # a hidden "abstract" planted for the model


def test_read_page_reads_a_product_in_its_form_but_not_the_sign_up_form(open_page):
    text = " ".join(open_page("product.html")("read_page")["markdown"].split())
    assert "embroidered with your pet's name" in text and "so that claws do not pull them apart." in text
    assert "Subscribe to our letter" not in text and "Copyright" not in text


def test_read_page_falls_back_to_the_visible_body(open_page):
    page = open_page("tables.html")("read_page")
    assert page["extracted_by"] == "page body"
    assert "| Region | Sales / 2023 | Sales / 2024 |" in page["markdown"]
    assert "| West | 8 | 9 |" in page["markdown"]  # rowspan value repeated on the next row
    assert "| Figures in millions |  |  |" in page["markdown"]  # colspan shown once
    assert "| 1 | 2 \\| 3 |" in page["markdown"]
    assert "hidden" not in page["markdown"]


def test_read_page_reads_a_live_page_as_its_reader_sees_it(open_page, chromium):
    tools = open_page("live.html")
    WebDriverWait(chromium, 10).until(lambda d: d.execute_script("return document.body.dataset.ready === 'yes'"))
    md = tools("read_page")["markdown"]
    assert "Europe's night trains are returning" in md and "Loading…" not in md  # put in place by script
    assert "Shadow text of the card: the Vienna to Paris line" in md  # inside a web component
    assert "sleeper cabins sell out weeks ahead" in md  # the page's text in the component's slot
    assert "cookies" not in md and "Accept all" not in md  # the consent banner over it
    # Sections below the fold that a scroll-reveal script has hidden until the reader gets
    # there are read; text hidden with no entrance to make is not.
    assert "Sleeper fares start at 59 euros" in md and "a private cabin sleeps up to three" in md
    assert "Agent note" not in md
    assert "Copyright" not in md and "Travel" not in md


def test_answers_folded_behind_a_click_are_read_but_hidden_text_is_not(open_page):
    # A closed <details> and hidden="until-found" show their text on a click or a find in
    # page: it is the page's content. display:none stays out.
    text = " ".join(open_page("faq.html")("read_page")["markdown"].split())
    assert "Who can get a library card?" in text and "get a card for free at any branch." in text
    assert "such as a recent utility bill." in text
    assert "Loans can be renewed twice online" in text
    assert "Staff only" not in text


@pytest.mark.parametrize("name, sentence", [
    ("unstyled-dark.html", "Boat tours leave every half hour"),  # black on the black body, beside a white box
    ("unstyled-tiny.html", "Bonfires are allowed only from October"),  # all text at font-size 0
])
def test_a_page_whose_stylesheet_did_not_load_is_read_not_taken_for_hidden(open_page, name, sentence):
    # Hidden text is what a page hides from its reader; a whole page drawn unreadably is a
    # page whose stylesheet is missing, and its reader sees it styled.
    assert sentence in " ".join(open_page(name)("read_page")["markdown"].split())


def test_read_page_reads_same_origin_frames_only(open_page, chromium):
    tools = open_page("frame.html")
    wait_for_frames(chromium)
    md = tools("read_page")["markdown"]
    assert "The outer page introduces" in md
    assert "The inner frame reports that the harvest doubled this year." in md
    assert "another origin" not in md


# --- get_selection --------------------------------------------------------------------------

def test_get_selection_returns_text_and_surroundings(open_page, chromium):
    tools = open_page("actions.html")
    assert tools("get_selection")["text"] == ""
    main_world(chromium, """
        const text = document.getElementById('quote').firstChild;
        const start = text.data.indexOf('quick brown fox');
        getSelection().setBaseAndExtent(text, start, text, start + 'quick brown fox'.length);""")
    selection = tools("get_selection", context_chars=20)
    assert selection["text"] == "quick brown fox"
    assert selection["before"] == "the selection. The"  # no half word at the cut
    assert selection["after"] == "jumps over the lazy"
    assert tools("query_page", selector=selection["locator"])["results"][0]["attributes"]["id"] == "quote"


def test_get_selection_inside_a_text_field(open_page, chromium):
    tools = open_page("actions.html")
    main_world(chromium, "const f = document.getElementById('notes'); f.focus(); f.setSelectionRange(5, 8);")
    selection = tools("get_selection")
    assert (selection["before"], selection["text"], selection["after"]) == ("line", "one", "")
    assert selection["element"] == "text area “Notes”"


# --- find_in_page, then act on its locator -----------------------------------------------

def test_find_in_page_gives_context_and_a_locator_click_accepts(open_page, chromium):
    tools = open_page("actions.html")
    found = tools("find_in_page", query="subscribe")
    assert found["count"] == 1
    match = found["matches"][0]
    assert match["match"] == "Subscribe" and match["element"] == "button “Subscribe”"
    assert match["visible"] is True
    assert "lazy dog. After the selection." in match["before"]  # the previous block, after a line break
    clicked = tools("click", locator=match["locator"])
    assert clicked["summary"] == "Click the button “Subscribe”."
    assert main_world(chromium, "return document.getElementById('log').textContent") == "subscribed after 1 press"


def test_find_in_page_caps_matches_and_matches_across_elements(open_page):
    tools = open_page("article.html")
    capped = tools("find_in_page", query="the", max_results=2)
    assert len(capped["matches"]) == 2 and capped["count"] > 2 and "Showing 2 of" in capped["note"]
    across = tools("find_in_page", query="watering   notes for a")  # link text, then plain text
    assert across["count"] == 1 and across["matches"][0]["element"] == "link “watering notes”"
    assert "does not occur" in tools("find_in_page", query="zucchini")["note"]


def test_find_in_page_searches_same_origin_frames(open_page, chromium):
    tools = open_page("frame.html")
    wait_for_frames(chromium)
    match = tools("find_in_page", query="Inner button")["matches"][0]
    assert match["element"] == "button “Inner button” (inside a frame)"
    tools("click", locator=match["locator"])
    assert main_world(chromium, "return document.getElementById('same').contentDocument.getElementById('inner-button').textContent") == "Pressed inside"
    assert tools("find_in_page", query="another origin")["count"] == 0


# --- query_page, list_links, extract_tables, page_html -----------------------------------

def test_query_page_returns_text_and_chosen_attributes(open_page, site):
    tools = open_page("article.html")
    items = tools("query_page", selector="article li")
    assert items["count"] == 3 and items["results"][0]["text"] == "Tiny Tim, a dwarf cherry tomato"
    link = tools("query_page", selector="article a", attributes=["href"])["results"][0]
    assert link["attributes"] == {"href": site.url("watering.html")}
    capped = tools("query_page", selector="p", max_results=1, max_chars=10)
    assert len(capped["results"]) == 1 and capped["results"][0]["text"] == "Tomatoes a…"
    assert "Showing 1 of" in capped["note"] and "max_chars" in capped["note"]
    answer = tools.run("query_page", {"selector": "p[["})
    assert answer == {"ok": False, "error": "“p[[” is neither a locator (like “ta-12”) nor a valid CSS selector."}


def test_list_links_are_absolute_and_say_whether_they_stay_on_the_site(open_page, site):
    links = open_page("links.html")("list_links")["links"]
    by_text = {link["text"]: link for link in links}
    assert by_text["About us"]["url"] == site.url("about.html") and by_text["About us"]["internal"]
    assert by_text["Install guide"]["url"] == site.origin + "/docs/start.html#install"
    assert by_text["external paper"] == {**by_text["external paper"], "url": "https://example.org/paper", "internal": False}
    assert by_text["Wikipedia logo"]["url"] == "https://www.wikipedia.org/"  # named by its image
    assert by_text["write to us"]["internal"] is False
    assert "Does nothing" not in by_text  # javascript: links lead nowhere
    assert len(links) == 6  # the footer's repeat of "About us" is listed once


def test_list_links_filter_and_scope(open_page):
    tools = open_page("links.html")
    assert [l["text"] for l in tools("list_links", scope="external")["links"]] == ["external paper", "Wikipedia logo", "write to us"]
    assert [l["text"] for l in tools("list_links", filter="WIKI")["links"]] == ["Wikipedia logo"]
    capped = tools("list_links", max_results=2)
    assert len(capped["links"]) == 2 and capped["count"] == 6 and "Showing 2 of 6" in capped["note"]


def test_extract_tables_as_rows_with_headers(open_page):
    tables = open_page("tables.html")("extract_tables")
    assert tables["count"] == 3  # the role=presentation layout table is not data
    sales, people, plain = tables["tables"]
    assert sales["caption"] == "Quarterly sales"
    assert sales["headers"] == ["Region", "Sales / 2023", "Sales / 2024"]
    assert sales["rows"] == [["North", "10", "12"], ["South", "7", "9"], ["West", "5", "6"], ["West", "8", "9"],
                             ["Figures in millions"] * 3]
    assert people["headers"] == ["Name", "Age"] and people["rows"] == [["Ada", "36"], ["Alan", "41"]]
    assert plain["headers"] is None and plain["rows"] == [["x", "y"], ["1", "2 | 3"]]


def test_extract_tables_caps_and_reads_frames(open_page, chromium):
    tools = open_page("tables.html")
    capped = tools("extract_tables", selector="#sales", max_rows=2)
    assert capped["tables"][0]["rows"] == [["North", "10", "12"], ["South", "7", "9"]]
    assert capped["tables"][0]["row_count"] == 5 and "Showing 2 of 5 rows" in capped["tables"][0]["note"]
    inside = tools("extract_tables", selector="body", max_tables=1)  # the tables inside an element
    assert inside["count"] == 3 and inside["tables"][0]["caption"] == "Quarterly sales" and "Showing 1 of 3" in inside["note"]
    tools = open_page("frame.html")
    wait_for_frames(chromium)
    assert tools("extract_tables")["tables"][0]["rows"] == [["Beans", "14"]]


def test_page_html_is_bounded_and_drops_scripts(open_page):
    tools = open_page("actions.html")
    form = tools("page_html", selector="#signup")
    assert form["count"] == 1 and form["html"].startswith('<form id="signup"') and not form["truncated"]
    whole = tools("page_html", max_chars=500)
    assert whole["truncated"] and len(whole["html"]) <= 501 and whole["length"] > 500
    assert "only the first 500" in whole["note"]
    full = tools("page_html", max_chars=100000)
    assert "<script" not in full["html"] and "Subscribe" in full["html"]
    assert "<script" in tools("page_html", max_chars=100000, keep_scripts=True)["html"]


# --- actions: type_text, scroll, describe_action ------------------------------------------

def test_type_text_types_like_a_user(open_page, chromium):
    tools = open_page("actions.html")
    typed = tools("type_text", locator="#email", text="ada@example.org")
    assert typed["value"] == "ada@example.org"
    assert main_world(chromium, "return document.getElementById('mirror').textContent") == "1:ada@example.org"
    tools("type_text", locator="#notes", text=" and two", clear=False)
    assert main_world(chromium, "return document.getElementById('notes').value") == "line one and two"
    tools("type_text", locator="#editor", text="New draft")
    assert main_world(chromium, "return document.getElementById('editor').textContent") == "New draft"
    submitted = tools("type_text", locator="#email", text="alan@example.org", submit=True)
    assert submitted["submitted"] is True
    assert main_world(chromium, "return document.getElementById('log').textContent") == "submitted alan@example.org"
    tools("type_text", locator="#search", text="tomatoes", submit=True)  # no form: Enter is pressed
    assert main_world(chromium, "return document.getElementById('log').textContent") == "searched tomatoes"


def test_actions_refuse_what_a_user_could_not_do(open_page):
    tools = open_page("actions.html")
    assert tools.run("click", {"locator": "#off"})["error"] == "The button “Disabled button” is disabled, so it cannot be clicked."
    assert "is hidden on the page" in tools.run("click", {"locator": "#ghost"})["error"]
    assert "is not a text field" in tools.run("type_text", {"locator": "#subscribe", "text": "x"})["error"]
    assert tools.run("click", {"locator": "#nothing"})["error"] == "Nothing on the page matches “#nothing”."
    assert "There is no element ta-999 on this page" in tools.run("click", {"locator": "ta-999"})["error"]


def test_scroll(open_page, chromium):
    tools = open_page("actions.html")
    down = tools("scroll", to="down")
    assert down["scroll_y"] > 0 and not down["at_top"]
    assert main_world(chromium, "return Math.round(scrollY)") == down["scroll_y"]
    assert tools("scroll", to="bottom")["at_bottom"]
    assert tools("scroll", to="top")["scroll_y"] == 0
    assert tools("scroll", to=250)["scroll_y"] == 250
    end = tools("scroll", to="#end")
    assert end["element"]["name"] == "End of the page"
    assert main_world(chromium, "const r = document.getElementById('end').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight")
    assert "should be" in tools.run("scroll", {"to": True})["error"]


def test_describe_action_says_what_will_happen_without_doing_it(open_page, chromium, site):
    tools = open_page("actions.html")
    link = tools("describe_action", name="click", args={"locator": "#docs"})
    assert link["summary"] == f"Click the link “Read the docs”, which opens {site.url('docs.html')}."
    assert link["url"] == site.url("docs.html") and link["element"]["role"] == "link"
    typing = tools("describe_action", name="type_text", args={"locator": "#email", "text": "ada@example.org", "submit": True})
    assert typing["text"] == "ada@example.org" and typing["element"]["name"] == "Email"
    assert typing["summary"] == (f"Type “ada@example.org” into the text field “Email”, replacing “old@example.org”, "
                                 f"then submit the form (to {site.url('signup-done.html')}).")
    assert tools("describe_action", name="scroll", args={"to": "bottom"})["summary"] == "Scroll to the bottom of the page."
    assert tools("describe_action", name="click", args={"locator": "#subscribe"})["element"]["locator"].startswith("ta-")
    assert main_world(chromium, "return [document.getElementById('log').textContent, document.getElementById('email').value, scrollY]") == \
        ["nothing yet", "old@example.org", 0]
    assert "not one of them" in tools.run("describe_action", {"name": "navigate", "args": {}})["error"]


def test_describe_action_finds_a_workflows_element_by_its_recorded_place(open_page, chromium):
    tools = open_page("actions.html")
    seen = tools("describe_action", name="click", args={"locator": "#docs"})["element"]
    found = tools("describe_action", name="click", args={}, at=seen["place"])
    assert found["element"]["locator"] == seen["locator"] and found["plan_id"]
    assert found["summary"].startswith("Click the link “Read the docs”")
    # not there as recorded: nothing described, nothing held, and the page's count said
    for moved in ({"nth": 2}, {"count": 2}, {"name": "Read the blog"}):
        said = tools("describe_action", name="click", args={}, at={**seen["place"], **moved})
        assert "plan_id" not in said and "element" not in said
        assert said["not_at_place"] == {"count": 0 if "name" in moved else 1, "there": 0}, moved
    assert main_world(chromium, "return document.getElementById('log').textContent") == "nothing yet"


# --- the entry point's contract --------------------------------------------------------------

def test_errors_are_sentences_not_exceptions(open_page):
    tools = open_page("article.html")
    unknown = tools.run("read_everything")
    assert unknown["ok"] is False and unknown["error"].startswith("There is no page tool named “read_everything”; the page tools are: ")
    assert tools.run("query_page", {"css_selector": "p"})["error"] == \
        "query_page has no argument “css_selector”; it takes: selector, attributes, max_results, max_chars."
    assert tools.run("find_in_page", {})["error"] == "find_in_page needs “query” (string)."
    assert tools.run("read_page", {"page": "2"})["error"] == 'read_page: “page” should be a number, not "2".'
    with pytest.raises(PageToolFailed):
        tools("find_in_page", query="   ")


def test_injecting_twice_keeps_locators(open_page, chromium):
    tools = open_page("actions.html")
    first = tools("find_in_page", query="Subscribe")["matches"][0]["locator"]
    tools.inject()
    assert tools("find_in_page", query="Subscribe")["matches"][0]["locator"] == first
    assert tools("find_in_page", query="Read the docs")["matches"][0]["locator"] != first


def test_locator_survives_the_page_redrawing_the_element(open_page, chromium):
    tools = open_page("actions.html")
    locator = tools("find_in_page", query="Subscribe")["matches"][0]["locator"]
    # A framework re-rendering the button: same place, same text, a new node without our mark.
    main_world(chromium, """
        const old = document.getElementById('subscribe');
        const fresh = document.createElement('button');
        fresh.id = 'subscribe'; fresh.textContent = 'Subscribe';
        fresh.onclick = () => { document.getElementById('log').textContent = 'fresh button'; };
        old.replaceWith(fresh);""")
    tools("click", locator=locator)
    assert main_world(chromium, "return document.getElementById('log').textContent") == "fresh button"
