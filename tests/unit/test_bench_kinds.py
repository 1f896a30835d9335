"""The development set of page kinds (bench/kinds/): every page is there, labelled by a kind,
with snippets to score, and its source and licence are named beside it."""

import json
import re
from pathlib import Path

KINDS = Path(__file__).resolve().parents[2] / "bench/kinds"


def test_every_page_has_a_kind_a_source_and_snippets():
    pages = json.loads((KINDS / "evaldata.json").read_text())
    assert 15 <= len(pages) <= 60  # tens, not hundreds
    for file, entry in pages.items():
        assert entry["file"] == file and (KINDS / "html" / file).is_file()
        assert entry["kind"] and entry["source"] and entry["with"], file
    assert len({entry["kind"] for entry in pages.values()}) >= 5


def test_the_licences_are_beside_the_pages():
    readme = (KINDS / "README.md").read_text()
    for licence in ("LICENSE-go-trafilatura.txt", "LICENSE-readability.md", "LICENSE-trafilatura.txt", "LICENSE-se-scraper.txt",
                    "LICENSE-GoogleScraper.txt"):
        assert (KINDS / licence).is_file() and licence in readme and "Apache License" in (KINDS / licence).read_text()
    assert "LICENSE-scrape-mdn.txt" in readme and "MIT license" in (KINDS / "LICENSE-scrape-mdn.txt").read_text()


def test_the_stylesheets_a_page_links_are_beside_it():
    # What a page shows decides what read_page reads: a saved page's own stylesheets come with it.
    for page in (KINDS / "html").glob("*.html"):
        for sheet in re.findall(r'<link[^>]+stylesheet[^>]+href="\./([^"]+)"', page.read_text(errors="replace")):
            assert (KINDS / "html" / sheet).is_file(), (page.name, sheet)


def test_search_result_pages_are_there_with_results_and_ads_to_score():
    pages = [e for e in json.loads((KINDS / "evaldata.json").read_text()).values() if e["kind"] == "search results"]
    assert len(pages) >= 5
    assert all(len(e["with"]) >= 6 and e["without"] for e in pages)


def test_no_page_of_the_vendored_evaluation_sample_is_a_kinds_page():
    sample = json.loads((KINDS.parents[1] / "tests/e2e/extraction/evaldata.json").read_text())
    assert not {e["file"] for e in sample.values()} & set(json.loads((KINDS / "evaldata.json").read_text()))
