"""read_page through the whole extension on 22 real pages (vendored) of Mozilla Readability's test
corpus: each page is served from 127.0.0.1 and opened in a tab, and read_page is called by
hand from the side panel (call-tool: panel -> service worker -> offscreen Python -> service
worker -> content script and back), so the text scored is exactly what a model would read.
Each page must keep at least 90% of the words of Readability's reference extraction, in
every part read_page splits it into, and give the reference title.
"""

import json
import re
import statistics
from pathlib import Path

import pytest

from tests.helpers.word_recall import html_text, word_recall

from tests.helpers.page_content import article

pytestmark = pytest.mark.e2e

CORPUS_DIR = Path(__file__).parent / "pages" / "readability"  # vendored, with its license
CORPUS = sorted(p.name for p in CORPUS_DIR.iterdir() if (p / "source.html").is_file()) if CORPUS_DIR.is_dir() else []
MIN_RECALL = 0.9
# Readability's reference keeps the readers' comments under the post; read_page leaves
# comments out, as boilerplate (trafilatura's benchmark counts them so too). The post is all there.
# On mozilla-1 (a product page) it keeps the page's controls and link lines ("More ways to
# customize", "Try it now", "Learn more", "Next", "See what it can do for you"), which read_page
# leaves out as links; every sentence of the page is there.
MIN_RECALL_OF = {"firefox-nightly-blog": 0.85, "mozilla-1": 0.85}
RECALLS = {}  # page name -> recall, for the summary at the end


def read_whole_page(tabs):
    """(header fields of part 1, the Markdown of every part joined)."""
    fields, markdown = article(tabs.call_tool("read_page"))
    parts = int(re.search(r"page 1 of (\d+)", fields["Length"]).group(1))
    rest = [article(tabs.call_tool("read_page", page=n))[1] for n in range(2, parts + 1)]
    return fields, "\n\n".join([markdown, *rest])


def test_corpus_is_there():
    assert len(CORPUS) == 22, f"expected the 22 vendored pages in {CORPUS_DIR}"


@pytest.mark.parametrize("name", CORPUS)
def test_read_page_keeps_the_article(tabs, corpus, name, record_property):
    url = corpus.url(f"{name}/source.html")
    tabs.show(url)
    fields, markdown = read_whole_page(tabs)
    assert fields["URL"] == url
    expected = html_text((CORPUS_DIR / name / "expected.html").read_text(encoding="utf-8"))
    recall, missing = word_recall(expected, markdown)
    RECALLS[name] = recall
    record_property("recall", round(recall, 4))
    assert recall >= MIN_RECALL_OF.get(name, MIN_RECALL), f"{name}: recall {recall:.3f}; most missing: {missing.most_common(10)}"
    metadata = json.loads((CORPUS_DIR / name / "expected-metadata.json").read_text(encoding="utf-8"))
    assert " ".join(fields["Title"].split()) == " ".join(metadata["title"].split())


def test_mean_recall_over_the_corpus(record_property, capsys):
    if len(RECALLS) < len(CORPUS) or not CORPUS:
        pytest.skip("needs every corpus page measured in this run")
    mean = statistics.mean(RECALLS.values())
    worst = min(RECALLS, key=RECALLS.get)
    record_property("mean_recall", round(mean, 4))
    with capsys.disabled():
        print(f"\nread_page through the extension, word recall over {len(RECALLS)} pages: "
              f"mean {mean:.4f}, worst {worst} {RECALLS[worst]:.4f}")
    # Well above the per-page floor: a slip on many pages at once shows here even when
    # each page alone stays above 0.9.
    assert mean >= 0.97
