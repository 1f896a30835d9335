"""read_page on the kinds of page the 475-page set lacks (bench/kinds/: product pages,
documentation, long comment threads, forum threads, listings, old table layouts, search
results), per kind, side by side with trafilatura and Readability.js on the same pages, with
trafilatura's metric.

    python bench/bench_kinds.py

Each page is served from 127.0.0.1 and read in headless Chromium with its scripts off (the HTML
as served); trafilatura reads the same file. Prints P, R and F per kind and extractor, and the
pages where read_page keeps under half the content while another extractor keeps 0.8 of it.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_extraction import serve  # noqa: E402  (beside this file)
from tests.helpers.extraction_score import reader_text, score, total  # noqa: E402
from tests.helpers.page_reader import PageReader  # noqa: E402

KINDS = ROOT / "bench/kinds"
EXTRACTORS = ("read_page", "trafilatura", "Readability.js")


def read_pages(pages) -> dict:
    """{extractor: {file: text}} for read_page and Readability.js, read in the browser."""
    texts = {"read_page": {}, "Readability.js": {}}
    server = serve(KINDS / "html")
    try:
        with PageReader() as reader:
            for entry in pages:
                try:
                    result = reader.read(f"http://127.0.0.1:{server.server_address[1]}/{entry['file']}", scripts=False)
                except Exception as error:  # a page that hangs scores as empty
                    print(f"bench_kinds: {entry['file']}: {error}", file=sys.stderr)
                    result = {}
                    reader.fresh_tab()
                texts["read_page"][entry["file"]] = reader_text(result.get("markdown", ""))
                texts["Readability.js"][entry["file"]] = result.get("readability") or ""
    finally:
        server.shutdown()
        server.server_close()
    return texts


def run_trafilatura(pages) -> dict:
    try:
        import trafilatura
    except ImportError:
        print("bench_kinds: trafilatura is not installed (make bench installs requirements-bench.txt)", file=sys.stderr)
        return {}
    return {e["file"]: trafilatura.extract((KINDS / "html" / e["file"]).read_bytes(), include_comments=False) or "" for e in pages}


def print_table(pages, texts):
    kinds = sorted({e["kind"] for e in pages}) + ["all kinds"]
    print("| kind | pages | " + " | ".join(f"{x}: P | R | F" for x in EXTRACTORS) + " |")
    print("|---|---|" + "---|---|---|" * len(EXTRACTORS))
    for kind in kinds:
        chosen = [e for e in pages if kind in ("all kinds", e["kind"])]
        cells = []
        for extractor in EXTRACTORS:
            c = total(score(texts.get(extractor, {}).get(e["file"], ""), e["with"], e["without"]) for e in chosen)
            cells.append(f"{c.precision:.3f} | {c.recall:.3f} | **{c.f:.3f}**")
        print(f"| {kind} | {len(chosen)} | " + " | ".join(cells) + " |")


def print_losses(pages, texts):
    """Pages read_page nearly empties where trafilatura or Readability.js keeps the text."""
    lost = []
    for e in pages:
        recall = {x: score(texts.get(x, {}).get(e["file"], ""), e["with"], e["without"]).recall for x in EXTRACTORS}
        if recall["read_page"] < 0.5 and max(recall["trafilatura"], recall["Readability.js"]) >= 0.8:
            lost.append(f"{e['file']} ({e['kind']}: read_page {recall['read_page']:.2f})")
    print(f"\nPages where read_page's recall is under 0.5 and another extractor's 0.8 or more: {', '.join(lost) or 'none'}.")


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    pages = list(json.loads((KINDS / "evaldata.json").read_text()).values())
    texts = read_pages(pages)
    texts["trafilatura"] = run_trafilatura(pages)
    print(f"Main-content extraction on {len(pages)} pages of kinds the evaluation set lacks (bench/kinds/), scripts off; "
          "trafilatura's metric, snippets counted over each kind's pages\n")
    print_table(pages, texts)
    print_losses(pages, texts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
