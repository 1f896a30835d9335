"""The search-result pages of bench/kinds/ (run by collect.py; its docstring says why these).

A result page is read for its results, so each page's `with` strings come from the result blocks
its source's own parser reads, and its `without` strings from what the page marks as ads (the
parser's ad blocks) and from its chrome (the search box, filters, related searches, footer),
found by the page's own ids and landmarks.
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html

from collect import HERE, git_show, lines_of, spread

# se-scraper removed its saved pages in 4b581bd ("removed static tests because they are too
# large"); this is the commit before, which its static tests ran on.
SE_SCRAPER_COMMIT = "21378dab026466716bee9551058141fce77b2854"
SE_SCRAPER_PAGES = {"bing.html": "bing", "bing2.html": "bing", "duckduckgo1.html": "duckduckgo",
                    "google3.html": "google", "google6.html": "google"}

# GoogleScraper (the same author's Python scraper, Apache-2.0) keeps result pages of other
# engines for its parser's tests (`Tests/data/uncompressed_serp_pages/`): Ask, Yahoo, Baidu.
GOOGLESCRAPER_COMMIT = "2e1ba10713a1cf0266a64ae21d6629ff515a8227"
GOOGLESCRAPER_PAGES = {"fellow_ask_de_ip.html": "ask", "snow_yahoo_de_ip.html": "yahoo", "number_baidu_de_ip.html": "baidu"}

# The blocks each parser reads (selectors as in se-scraper's src/modules/<engine>.js and
# scrape-mdn's src/parseSearch.js; Google's title is the `.r a` link's <h3>, without the
# address the link also holds), and the page's chrome, by the ids the saved pages use.
ENGINES = {
    "bing": {"result": "#b_content #b_results .b_algo", "title": "h2", "snippet": ".b_caption p",
             "ad": ".b_ad .sb_add", "ad_title": "h2 a",
             "chrome": ["#b_header", "#b_tween", ".b_rs", "#b_footer"]},
    "duckduckgo": {"result": "#links .result__body", "title": ".result__title .result__a", "snippet": ".result__snippet",
                   "ad": ".results--ads .result", "ad_title": ".result__title .result__a",
                   "chrome": ["#header_wrapper", "#duckbar", ".footer"]},
    "google": {"result": "#center_col .g", "title": ".r a h3", "snippet": "span.st",
               "ad": "#tads .ads-ad", "ad_title": "a h3",
               "chrome": ["#searchform", "#hdtb", "#brs", "#footcnt"]},
    # (GoogleScraper's GoogleScraper/parsing.py, the variant of each that finds these pages' results.)
    "ask": {"result": "#midblock .ptbs.ur", "title": ".txt_lg.b", "snippet": ".abstract", "ad": None,
            "chrome": ["#nav", ".relmod", "#rightblock", "#serp_ftr"]},
    "yahoo": {"result": "#main .res", "title": "div h3 a", "snippet": "div.abstr", "ad": None,
              "chrome": ["#sticky-hd", "#sidebar", "#ft"]},
    "baidu": {"result": "#content_left .result", "title": "h3 a", "snippet": ".c-abstract", "ad": None,
              "chrome": ["#head", "#s_tab", "#content_right", "#rs", "#foot"]},
    "mdn": {"result": ".result-list .result-list-item", "title": "h4 a", "snippet": "p",
            "ad": None, "chrome": ["#main-header", "#nav-access", "footer", ".search-results-filters"]},
}


def xpath(selector: str) -> str:
    """The descendant selectors above (`#id`, `.class`, `tag`, `tag.class`) as XPath."""
    steps = []
    for part in selector.split():
        tag, rest = re.fullmatch(r"([a-z0-9]*)(.*)", part).groups()
        tests = [f"@id='{name}'" if sign == "#" else f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"
                 for sign, name in re.findall(r"([#.])([\w-]+)", rest)]
        steps.append((tag or "*") + "".join(f"[{test}]" for test in tests))
    return ".//" + "//".join(steps)


def text_of(element, selector: str) -> str:
    found = element.xpath(xpath(selector))
    return " ".join(found[0].text_content().split()) if found else ""


def ads(root, engine: dict) -> list:
    return root.xpath(xpath(engine["ad"])) if engine["ad"] else []


def results(root, engine: dict) -> list[tuple[str, str]]:
    """(title, snippet) of each result with both, in page order, each title once. An ad the
    result selector also matches (DuckDuckGo's ads below the results sit inside #links) is an ad."""
    found, marked = {}, set(ads(root, engine))
    for block in root.xpath(xpath(engine["result"])):
        if marked.intersection(block.iterancestors()) or block in marked:
            continue
        title, snippet = text_of(block, engine["title"]), text_of(block, engine["snippet"])
        if len(title) >= 8 and len(snippet) >= 40:
            found.setdefault(title, snippet)
    return list(found.items())


def piece(snippet: str) -> str:
    """40 characters or so from the middle of a snippet, cut at spaces: the snippet's ends are
    where a page shortens it ("...") or prefixes a date. (Chinese has few spaces to cut at: 16
    characters of its middle.)"""
    words, middle = snippet.split(), len(snippet) // 2
    if len(words) <= 6:
        return snippet[middle - 8: middle + 8].strip() if len(snippet) > 24 else snippet
    start = snippet.rfind(" ", 0, max(middle - 20, 0)) + 1
    end = snippet.find(" ", middle + 20)
    cut = snippet[start:end if end > 0 else None].strip()
    return cut if len(cut) <= 80 else snippet[middle - 8: middle + 8].strip()  # (spaces far apart)


def shortened(line: str) -> str:
    """A long line of chrome (a filter list run together) by its first words: the whole of it
    would be found only in an extraction that kept it whole."""
    return line if len(line) <= 80 else line[:60].rsplit(" ", 1)[0]


def snippets(markup: bytes, engine: dict) -> dict:
    root = lxml.html.fromstring(markup)
    for element in root.xpath("//script | //style | //noscript"):
        element.drop_tree()
    found = results(root, engine)
    assert len(found) >= 3, "a result page with fewer than three results"
    with_ = [text for title, snippet in spread(found, 3) for text in (title, piece(snippet))]
    content = " ".join(f"{title} {snippet}" for title, snippet in found)
    titles = [text_of(ad, engine["ad_title"]) for ad in ads(root, engine)]
    without = spread([title for title in titles if len(title) >= 12], 2)
    for selector in engine["chrome"]:
        for element in root.xpath(xpath(selector)):
            lines = [shortened(line) for line in lines_of(lxml.html.tostring(element, encoding="unicode"))]
            without += spread([line for line in lines if len(line) >= 12 and line not in content and line not in without], 2)
    return {"with": with_, "without": without}


def stylesheets(markup: bytes) -> list[str]:
    """The page's own saved stylesheets (`./<name>_files/...`): what it looks like decides what
    read_page counts as seen. Its scripts and pictures are left behind (the bench reads with
    scripts off, and pictures hold no text)."""
    links = re.findall(rb"<link[^>]+>", markup)
    return [m.group(1).decode() for link in links if b"stylesheet" in link
            and (m := re.search(rb'href="\./([^"]+_files/[^"]+)"', link))]


# What must go: DuckDuckGo's <noscript> sends a reader without scripts (the bench reads with
# scripts off) on to its script-free results at once, a page that was not saved.
REDIRECT = re.compile(rb'<meta http-equiv="refresh" content="0;URL=/html\?[^"]*">')


def collect(se_scraper: Path, scrape_mdn: Path, google_scraper: Path, taken: set) -> dict:
    """Writes the pages to html/ and returns their evaldata entries."""
    data = {}
    for name, engine in GOOGLESCRAPER_PAGES.items():
        markup = git_show(google_scraper, f"Tests/data/uncompressed_serp_pages/{name}", GOOGLESCRAPER_COMMIT)
        file = f"googlescraper.{name}"
        assert file not in taken, file
        (HERE / "html" / file).write_bytes(markup)
        data[file] = {"file": file, "kind": "search results", "source": f"NikolaiT/GoogleScraper Tests/data/uncompressed_serp_pages/"
                      f"{name}, GoogleScraper/parsing.py", **snippets(markup, ENGINES[engine])}
    for name, engine in SE_SCRAPER_PAGES.items():
        markup = REDIRECT.sub(b"", git_show(se_scraper, f"test/static_tests/html/{name}", SE_SCRAPER_COMMIT))
        file = f"se-scraper.{name}"
        assert file not in taken, file
        (HERE / "html" / file).write_bytes(markup)
        for sheet in stylesheets(markup):
            (HERE / "html" / sheet).parent.mkdir(exist_ok=True)
            (HERE / "html" / sheet).write_bytes(git_show(se_scraper, f"test/static_tests/html/{sheet}", SE_SCRAPER_COMMIT))
        data[file] = {"file": file, "kind": "search results", "source": f"NikolaiT/se-scraper test/static_tests/html/{name}, "
                      f"src/modules/{engine}.js", **snippets(markup, ENGINES[engine])}
    markup, file = git_show(scrape_mdn, "fixtures/search.html"), "scrape-mdn.search.html"
    assert file not in taken, file
    (HERE / "html" / file).write_bytes(markup)
    data[file] = {"file": file, "kind": "search results", "source": "brigand/scrape-mdn fixtures/search.html, src/parseSearch.js",
                  **snippets(markup, ENGINES["mdn"])}
    return data
