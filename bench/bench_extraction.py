"""How well read_page finds a page's main content, side by side with the reference extractors.

The evaluation set is ../shared/testdata/extraction-eval (475 real pages with trafilatura's
snippets and metric: see its README). Each page is served from 127.0.0.1 and read in headless
Chromium twice, with the page's scripts off (the HTML as served) and on (the live page);
read_page's Markdown is reduced to the text a reader sees and scored. Beside it, on the same
pages and in the same run: trafilatura 2.3.1 on CPython (requirements-bench.txt) and
Readability.js alone (its textContent, on the scripts-off page). A live page whose scripts send
the tab elsewhere (to https://, or to the site's own host: neither answers here) is kept where
it is and read as far as it had loaded; those pages are named, and scripts on and off are also
compared without them.

The pages are split in two fixed halves by a salted hash of their file name (drawn anew in
issue 24): "dev" (what the extraction was tuned on) and "held-out" (only measured); both are
printed. Per-kind scores of pages this set lacks: bench/bench_kinds.py.

    python bench/bench_extraction.py [--split dev] [--limit 50] [--no-scripts-on] [--dump DIR]

Prints a Markdown table: precision, recall and F per extractor and half; read_page's Markdown
characters per character of reader text; read_page's time on the largest page; and, on Mozilla
Readability's 47 test pages (../shared/testdata/pages), how much of its reference text
read_page keeps and whether the titles match.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import signal
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.helpers

from tests.helpers.extraction_score import normalise, reader_text, score, split_of, total  # noqa: E402
from tests.helpers.page_reader import PageReader  # noqa: E402
from tests.helpers.word_recall import html_text, word_recall  # noqa: E402

from extraction_goal import print_goal  # noqa: E402

# ../shared beside the repository (or beside the worktrees' folder).
EVAL = next((p / "shared/testdata/extraction-eval" for p in (ROOT.parent, ROOT.parent.parent)
             if (p / "shared/testdata/extraction-eval/evaldata.json").is_file()), None)
# Mozilla Readability's 47 test pages with its reference extraction and title of each.
READABILITY_PAGES = next((p / "shared/testdata/pages" for p in (ROOT.parent, ROOT.parent.parent)
                          if (p / "shared/testdata/pages").is_dir()), None)
GOAL = {"ratio": 1.15, "ms": 300, "recall": 0.99}  # issue 24's goal for F: extraction_goal.py


class EvalPages(http.server.SimpleHTTPRequestHandler):
    """Serves the saved pages as their site would have: UTF-8 is said in the header when the
    bytes are UTF-8; otherwise the page's own <meta charset> (or the browser's guess) decides."""

    def log_message(self, *args):
        pass

    def guess_type(self, path):
        kind = super().guess_type(path)
        if kind != "text/html":
            return kind
        try:
            Path(path).read_bytes().decode("utf-8")
            return "text/html; charset=utf-8"
        except (UnicodeDecodeError, OSError):
            return "text/html"

    def send_error(self, code, message=None, explain=None):
        # A page that sends a browser without scripts elsewhere (a <noscript> meta
        # refresh to "please turn JavaScript on") is not itself read then; a 204 leaves the
        # browser on the page under test, as trafilatura, reading the file, is.
        if code == 404:
            self.send_response(204)
            self.end_headers()
            return
        super().send_error(code, message, explain)


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a page that stops loading mid-answer (the next page was opened): not news


def serve(folder: Path):
    server = QuietServer(("127.0.0.1", 0), functools.partial(EvalPages, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_trafilatura(pages, cache: Path):
    try:
        import trafilatura
    except ImportError:
        print("bench_extraction: trafilatura is not installed (make bench installs requirements-bench.txt)", file=sys.stderr)
        return "trafilatura (not installed)", {}

    key = f"trafilatura-{trafilatura.__version__}"
    saved = json.loads(cache.read_text()) if cache.is_file() else {}
    texts = saved.get(key, {})
    for entry in pages:
        if entry["file"] not in texts:
            html = (EVAL / "html" / entry["file"]).read_bytes()
            texts[entry["file"]] = trafilatura.extract(html, include_comments=False) or ""
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({key: texts}))
    return key, texts


def read_in_browser(pages, scripts_on: bool, dump: Path | None):
    """{"read_page (scripts off)": {file: text}, ...} and Markdown/text character counts."""
    texts = {"read_page, scripts off": {}, "Readability.js alone": {}}
    if scripts_on:
        texts["read_page, scripts on"] = {}
    sizes = {"markdown": 0, "text": 0}
    failures = []
    left = {}  # file: where its scripts tried to take the tab
    server = serve(EVAL / "html")
    try:
        with PageReader() as reader:
            for i, entry in enumerate(pages, 1):
                url = f"http://127.0.0.1:{server.server_address[1]}/{entry['file']}"
                for on in ([False, True] if scripts_on else [False]):
                    try:
                        result = reader.read(url, scripts=on)
                    except Exception as error:  # a page that hangs or crashes scores as empty
                        result = {"error": str(error)}
                        reader.fresh_tab()
                    if result.get("left_for"):
                        left[entry["file"]] = result["left_for"]
                    if "error" in result:
                        failures.append(f"{entry['file']} (scripts {'on' if on else 'off'}): {result['error']}")
                        result = {"markdown": "", "readability": ""}
                    text = reader_text(result["markdown"])
                    texts[f"read_page, scripts {'on' if on else 'off'}"][entry["file"]] = text
                    if not on:
                        texts["Readability.js alone"][entry["file"]] = result["readability"] or ""
                        sizes["markdown"] += len(result["markdown"])
                        sizes["text"] += len(normalise(text))
                        if dump:
                            (dump / (entry["file"] + ".md")).write_text(result["markdown"])
                if i % 50 == 0:
                    print(f"  {i}/{len(pages)} pages read", file=sys.stderr, flush=True)
            largest = max(pages, key=lambda e: (EVAL / "html" / e["file"]).stat().st_size)
            times = reader.time_read(f"http://127.0.0.1:{server.server_address[1]}/{largest['file']}")
    finally:
        server.shutdown()
        server.server_close()
    return texts, sizes, failures, left, (largest["file"], times)


def read_readability_pages():
    """{page: (word recall of Readability's reference text, title exact)} on its test pages."""
    names = sorted(p.name for p in READABILITY_PAGES.iterdir() if (p / "source.html").is_file())
    found = {}
    server = serve(READABILITY_PAGES)
    try:
        with PageReader() as reader:
            for name in names:
                result = reader.read(f"http://127.0.0.1:{server.server_address[1]}/{name}/source.html")
                expected = html_text((READABILITY_PAGES / name / "expected.html").read_text(encoding="utf-8"))
                recall, _ = word_recall(expected, result.get("markdown", ""))
                title = json.loads((READABILITY_PAGES / name / "expected-metadata.json").read_text(encoding="utf-8"))["title"]
                found[name] = (recall, " ".join((result.get("title") or "").split()) == " ".join(title.split()))
    finally:
        server.shutdown()
        server.server_close()
    return found


def print_pages_that_left(pages, texts, left):
    """Pages whose scripts send the tab to https:// or to their own host, neither of which
    answers here (on the real site they stay): the live reading of those is what the page had
    parsed when it left. Scripts on and off are also compared without them."""
    stayed = [e for e in pages if e["file"] not in left]
    f = {on: total([score(texts[f"read_page, scripts {on}"].get(e["file"], ""), e["with"], e["without"]) for e in stayed]).f
         for on in ("off", "on")}
    print(f"\nThe scripts of {len(left)} page(s) leave for an address not served here "
          f"({', '.join(sorted(left)[:6])}{', ...' if len(left) > 6 else ''}); on the other {len(stayed)}, "
          f"read_page scores F {f['off']:.3f} with scripts off and {f['on']:.3f} with them on.")


def print_readability_pages(found):
    recalls = [recall for recall, _ in found.values()]
    low = sorted((recall, name) for name, (recall, _) in found.items() if recall < GOAL["recall"])
    print(f"\nOn Mozilla Readability's {len(found)} test pages (word recall of its reference extraction):\n")
    print("| read_page | value | goal |\n|---|---|---|")
    print(f"| mean word recall | {statistics.mean(recalls):.4f} | >= {GOAL['recall']} |")
    print(f"| pages at or above {GOAL['recall']} | {len(recalls) - len(low)} of {len(recalls)} | |")
    print(f"| lowest | {', '.join(f'{name} {recall:.3f}' for recall, name in low[:5]) or '-'} | |")
    print(f"| exact titles | {sum(exact for _, exact in found.values())} of {len(found)} | all |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=["dev", "held-out", "all"], default="all")
    parser.add_argument("--limit", type=int, default=0, help="only the first N pages (of the split)")
    parser.add_argument("--no-scripts-on", action="store_true", help="skip the scripts-on reading")
    parser.add_argument("--dump", type=Path, help="write read_page's Markdown per page into this folder")
    parser.add_argument("--scores", type=Path, help="write per-page counts as JSON into this file")
    args = parser.parse_args()
    # Stopped with kill: leave through PageReader's clean-up, so no Chromium is left behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    if EVAL is None:
        print("bench_extraction: ../shared/testdata/extraction-eval is absent; nothing measured")
        return 0

    data = json.loads((EVAL / "evaldata.json").read_text())
    pages = [entry for entry in data.values() if args.split == "all" or split_of(entry["file"]) == args.split]
    if args.limit:
        pages = pages[: args.limit]
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    texts, sizes, failures, left, (largest, times) = read_in_browser(pages, not args.no_scripts_on, args.dump)
    name, trafilatura_texts = run_trafilatura(pages, ROOT / ".cache/bench/trafilatura.json")
    texts[name] = trafilatura_texts

    halves = ["dev", "held-out", "all"] if args.split == "all" else [args.split]
    print(f"Main-content extraction on {len(pages)} pages of {EVAL.name} "
          f"({time.monotonic() - started:.0f} s); trafilatura's metric, snippets counted over all pages\n")
    print("| extractor | " + " | ".join(f"{h}: P | R | F" for h in halves) + " |")
    print("|---|" + "---|---|---|" * len(halves))
    per_page = {}
    for extractor, by_file in texts.items():
        cells = []
        for half in halves:
            chosen = [e for e in pages if half == "all" or split_of(e["file"]) == half]
            counts = [score(by_file.get(e["file"], ""), e["with"], e["without"]) for e in chosen]
            c = total(counts)
            cells.append(f"{c.precision:.3f} | {c.recall:.3f} | **{c.f:.3f}**")
        per_page[extractor] = {e["file"]: vars(score(by_file.get(e["file"], ""), e["with"], e["without"])) for e in pages}
        print(f"| {extractor} | " + " | ".join(cells) + " |")
    if left:
        print_pages_that_left(pages, texts, left)
    ratio = sizes["markdown"] / max(1, sizes["text"])
    print_goal(pages, texts, name, left)
    print("\n| read_page | value | goal |\n|---|---|---|")
    print(f"| Markdown chars per char of reader text | {ratio:.3f} | <= {GOAL['ratio']} |")
    print(f"| time on the largest page ({largest}, {(EVAL / 'html' / largest).stat().st_size // 1024} KB), "
          f"median of {len(times)} (min-max) | {statistics.median(times):.0f} ms ({min(times):.0f}-{max(times):.0f}) "
          f"| < {GOAL['ms']} ms |")
    if READABILITY_PAGES and not args.limit:
        print_readability_pages(read_readability_pages())
    if args.scores:
        args.scores.write_text(json.dumps(per_page, indent=1))
    if failures:
        print("\npages read_page could not read:\n" + "\n".join(failures[:20]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
