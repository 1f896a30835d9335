"""Whether a change to the content scripts changed what read_page reads, on every page of the
evaluation set: the work tree's Markdown beside a git revision's, page by page.

A change made for speed should leave the reading as it was. Each page of the chosen half of
../shared/testdata/extraction-eval (scripts off, as bench_extraction.py reads it) is loaded
once and read in two isolated worlds of the same tab, one with the revision's content scripts
and one with the work tree's (the libraries, Readability and turndown, are the work tree's in both).

    python bench/same_markdown.py [--base 78c490a] [--split dev] [--limit 20]

Prints how many pages gave the same Markdown, and for each other page of the dev half the first
place where the two readings part (a held-out page that differs is counted, not named).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.helpers
sys.path.insert(0, str(ROOT / "bench"))  # for bench_extraction, compare_read_page

from bench_extraction import EVAL, serve  # noqa: E402
from compare_read_page import at_revision, content_scripts  # noqa: E402
from tests.helpers.content_bundle import FOR_TESTS  # noqa: E402
from tests.helpers.extraction_score import split_of  # noqa: E402
from tests.helpers.page_reader import READ, PageReader  # noqa: E402


def reading(reader, sources):
    reader.scripts = sources
    return reader._evaluate(READ, reader._world()).get("markdown", "")


def where_they_part(one: str, other: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))
    return f"at character {at}: {one[max(0, at - 40):at + 40]!r} / {other[max(0, at - 40):at + 40]!r}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD", help="git revision to compare the work tree with")
    parser.add_argument("--split", choices=["dev", "held-out", "all"], default="dev")
    parser.add_argument("--limit", type=int, default=0, help="only the first N pages")
    args = parser.parse_args()
    if EVAL is None:
        print("bench: ../shared/testdata/extraction-eval is absent", file=sys.stderr)
        return 1
    entries = json.loads((EVAL / "evaldata.json").read_text()).values()
    pages = [e for e in entries if args.split == "all" or split_of(e["file"]) == args.split][: args.limit or None]
    base, now = at_revision(args.base, FOR_TESTS), content_scripts(ROOT, FOR_TESTS)
    # Stopped with kill: leave through PageReader's clean-up, so no Chromium is left behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    server = serve(EVAL / "html")
    differ = []
    try:
        with PageReader() as reader:
            for entry in pages:
                reader.load(f"http://127.0.0.1:{server.server_address[1]}/{entry['file']}", scripts=False)
                before, after = reading(reader, base), reading(reader, now)
                # (A held-out page is counted, never named: that half stays unseen.)
                if before != after:
                    differ.append(f"- {entry['file']}: {where_they_part(before, after)}" if split_of(entry["file"]) == "dev"
                                  else "- a held-out page")
    finally:
        server.shutdown()
        server.server_close()
    print(f"read_page's Markdown, {args.base} against the work tree, {args.split} pages (scripts off): "
          f"{len(pages) - len(differ)} of {len(pages)} the same")
    print("\n".join(differ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
