"""How bench/kinds/ was made (run once; kept so the set can be checked or grown).

    python bench/kinds/collect.py GO_TRAFILATURA_CHECKOUT READABILITY_CHECKOUT TRAFILATURA_CHECKOUT \
        SE_SCRAPER_CHECKOUT SCRAPE_MDN_CHECKOUT GOOGLESCRAPER_CHECKOUT

From go-trafilatura (Apache-2.0; its test pages and expectations are ported from trafilatura's
realworld tests, Apache-2.0): the page files of `test-files/mock` with the strings
`realworld_test.go` asserts the extraction contains (`with`) or does not (`without`), for the
pages chosen below by kind. From Mozilla Readability (Apache-2.0): `test/test-pages/<name>/
source.html`, with snippets taken from its `expected.html` (`with`: a 40-character piece of the
first, middle and last paragraph of 60 characters or more) and from the source's text that the
expected extraction leaves out inside the page's <nav>, <header> and <footer> (`without`: up to
three lines of 15 characters or more, spread over the page: elsewhere, what Readability left out
may still be content). From trafilatura (Apache-2.0): pages of its own evaluation
(`tests/eval/`) with the `with` and `without` strings of `tests/evaldata.json`, for kinds the
others lack (forum threads). Pages of the 475-page evaluation set are never taken (file names
compared).

Search-result pages (search_results.py): the result pages of Bing, Google and DuckDuckGo that
NikolaiT/se-scraper (Apache-2.0) saved for its parser's tests (`test/static_tests/html/`, removed
from the repository in 4b581bd, so taken from the commit before), those of Ask, Yahoo and Baidu
that NikolaiT/GoogleScraper (Apache-2.0) keeps for its parser's (`Tests/data/`), and the MDN site search that
brigand/scrape-mdn (MIT; MDN's text CC-BY-SA 2.5) parses in its test. A reader of such a page came
for the results, so `with` is the title and a piece of the snippet of the first, middle and last
result, each result found by the block its source's own parser reads (`src/modules/*.js`,
`GoogleScraper/parsing.py`, `src/parseSearch.js`); `without` is what the page marks as ads (the parser's ad blocks) and its
chrome: the search box and its header, the filters, related searches and the footer.
"""

from __future__ import annotations

import html.parser
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# kind -> pages, by what the page is, not by how it reads today.
GO_TRAFILATURA = {
    "product page": ["ebrosia.de.zinfandel.html", "chip.de.beef.html", "otto.de.twoforfashion.html", "incurvy.de.wellness.html"],
    "documentation and reference": ["en.wikipedia.org.tsne.html", "bmjv.de.konsum.html", "simplyscience.ch.erdoel.html",
                                    "rs-ingenieure.de.tragwerksplanung.html", "fairkom.eu.about.html", "psl.eu.luniversite.html"],
    "long comment thread": ["internet-law.de.pseudonymen.html", "moritz-meyer.net.vreni.html", "denkanstoos.com.2012.html",
                            "kulinariaathome.com.mandelplätzchen.html", "buchperlen.wordpress.com.html", "jovelstefan.de.gefallt.html"],
    "listing": ["womencantalksports.com.top10.html", "basicthinking.de.tweets.html"],
    "old table layout": ["schleifen.ucoz.de.briefe.html"],
}
# Forum threads: a question and its answers, a board's pinned post under its forum's menus, a
# board's thread of replies. Listings: ranked and numbered lists (a top 100 with readers'
# comments, a health explainer's ten ways, a joke collection, a costume gallery, a slideshow).
TRAFILATURA = {
    "forum thread": ["reddit.com.init.html", "wolfsrebellen-netz.forumieren.com.regeln.html",
                     "d43f330cbaf74e92b9aec85e937cb904.html"],
    "listing": ["hearya.com.metal.html", "healthline.com.fat.html", "redtri.com.jokes.html",
                "popsugar.co.uk.halloween.html", "economictimes.indiatimes.com.slideshow.html"],
}
READABILITY = {
    "documentation and reference": ["mercurial", "ehow-1", "daringfireball-1"],
    "old table layout": ["table-style-attributes"],
}


def git_show(checkout: Path, path: str, commit: str = "HEAD") -> bytes:
    return subprocess.run(["git", f"--git-dir={checkout}", "show", f"{commit}:{path}"], capture_output=True, check=True).stdout


def go_expectations(checkout: Path) -> dict:
    """{file: {"with": [...], "without": [...]}} from realworld_test.go's default extractions."""
    urls = dict(re.findall(r'"([^"]+)":\s*"([^"]+)"', git_show(checkout, "realworld-mock_test.go").decode()))
    found, current = {}, None
    for line in git_show(checkout, "realworld_test.go").decode().split("\n"):
        if m := re.search(r'result = extractMockFile\(rwMockFiles, "([^"]+)"(.*)\)', line):
            current = None if m.group(2).strip() else urls.get(m.group(1))  # other options: skipped
            if current:
                found.setdefault(current, {"with": [], "without": []})
        elif "result =" in line:
            current = None
        elif current and (m := re.search(r'assert\.(True|False)\(t, resContains\(result, "((?:[^"\\]|\\.)*)"\)\)', line)):
            found[current]["with" if m.group(1) == "True" else "without"].append(json.loads(f'"{m.group(2)}"'))
    return found


class Lines(html.parser.HTMLParser):
    """The text of an HTML document, one line per block, without scripts and styles."""
    BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "a", "dd", "dt", "pre", "blockquote", "br", "tr"}

    CHROME = ("nav", "header", "footer")

    def __init__(self):
        super().__init__()
        self.lines, self.chrome, self.skip, self.inside = [""], [False], 0, 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style", "noscript", "template")
        self.inside += tag in self.CHROME
        if tag in self.BLOCKS:
            self.lines.append("")
            self.chrome.append(self.inside > 0)

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style", "noscript", "template") and self.skip > 0
        self.inside -= tag in self.CHROME and self.inside > 0
        if tag in self.BLOCKS:
            self.lines.append("")
            self.chrome.append(self.inside > 0)

    def handle_data(self, data):
        if not self.skip:
            self.lines[-1] += data


def lines_of(markup: str, chrome_only: bool = False) -> list[str]:
    parser = Lines()
    parser.feed(markup)
    lines = zip((" ".join(line.split()) for line in parser.lines), parser.chrome)
    return [line for line, chrome in lines if line and (chrome or not chrome_only)]


def spread(items: list, n: int) -> list:
    return items if len(items) <= n else [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def readability_snippets(source: str, expected: str) -> dict:
    kept = lines_of(expected)
    text = " ".join(kept)
    paragraphs = [line for line in kept if len(line) >= 60]
    with_ = [p[len(p) // 2 - 20: len(p) // 2 + 20].strip() for p in spread(paragraphs, 3)]
    # (The page's title is read_page's own field, and a header may repeat it as the heading.)
    title = " ".join((re.search(r"<title[^>]*>(.*?)</title>", source, re.S | re.I) or re.match("", "")).group(0).split())
    left_out = [line for line in lines_of(source, chrome_only=True) if len(line) >= 15 and line not in text and line not in title]
    return {"with": with_, "without": spread(left_out, 3)}


def main() -> int:
    go, readability, trafilatura, se_scraper, scrape_mdn, google_scraper = (Path(arg) for arg in sys.argv[1:7])
    # ../shared beside the repository, or beside the worktrees' folder (as bench_extraction.py looks).
    evaluation = next(p / "shared/testdata/extraction-eval/evaldata.json" for p in HERE.parents[2:4]
                      if (p / "shared/testdata/extraction-eval/evaldata.json").is_file())
    taken = {e["file"] for e in json.loads(evaluation.read_text()).values()}
    (HERE / "html").mkdir(exist_ok=True)
    data, expectations = {}, go_expectations(go)
    for kind, files in GO_TRAFILATURA.items():
        for file in files:
            assert file not in taken and file in expectations, file
            (HERE / "html" / file).write_bytes(git_show(go, f"test-files/mock/{file}"))
            data[file] = {"file": file, "kind": kind, "source": "go-trafilatura test-files/mock, realworld_test.go", **expectations[file]}
    evaluated = {e["file"]: e for e in json.loads(git_show(trafilatura, "tests/evaldata.json")).values()}
    for kind, files in TRAFILATURA.items():
        for file in files:
            assert file not in taken and file in evaluated, file
            (HERE / "html" / file).write_bytes(git_show(trafilatura, f"tests/eval/{file}"))
            data[file] = {"file": file, "kind": kind, "source": "trafilatura tests/eval, tests/evaldata.json",
                          "with": evaluated[file]["with"], "without": evaluated[file]["without"]}
    for kind, names in READABILITY.items():
        for name in names:
            source = git_show(readability, f"test/test-pages/{name}/source.html")
            expected = git_show(readability, f"test/test-pages/{name}/expected.html").decode("utf-8")
            file = f"readability-{name}.html"
            (HERE / "html" / file).write_bytes(source)
            data[file] = {"file": file, "kind": kind, "source": f"mozilla/readability test/test-pages/{name}",
                          **readability_snippets(source.decode("utf-8", "replace"), expected)}
    import search_results  # beside this file; it reads pages with this file's helpers
    data.update(search_results.collect(se_scraper, scrape_mdn, google_scraper, taken))
    (HERE / "evaldata.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
