"""read_page's reading before and after a change, timed in turns in one tab.

On a machine shared with other work, two runs of bench_read_page.py a minute apart differ by
more than most changes make: the load moves between them. Here one tab holds both versions of
the content scripts, the work tree's and those of a git revision (`--base`), each under its own
namespace, and each round times the main-content extraction and the Markdown of one, then of the
other (in alternating order), so the load falls on both alike. Besides the time, each call's CPU
time on the tab's main thread (CDP Performance metrics in thread time), which other work on a
busy machine stretches far less. Also says whether the two gave the same Markdown on every run.
Each version's modules are bundled with their libraries (Readability, turndown) from the work
tree's node_modules; a revision from before the modules (extension/content/files.json) has its
classic scripts joined in that file's order instead.

    python bench/compare_read_page.py [--base 9a98cba] [--runs 15] [--page wikipedia --page pixnet]

Prints a Markdown table: median and minimum ms per page for each version, and the change, in
time and in CPU.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for bench_read_page

from bench_read_page import CORPUS, page_cpu_meter  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.content_bundle import bundle, temporary_tree  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# Each version's scripts run with a fresh TabAgentPage, which they capture as they load; it is
# then kept under the version's name.
LOAD = """
for (const [name, source] of [["base", arguments[0]], ["now", arguments[1]]]) {
  delete globalThis.TabAgentPage;
  (0, eval)(source);
  globalThis["tabagent_" + name] = globalThis.TabAgentPage;
}
"""
READ = """
const page = globalThis["tabagent_" + arguments[0]];
const started = performance.now();
const { content } = page.mainContent.extract(document);
const markdown = page.markdown.toMarkdown(content, { consume: true });
return [performance.now() - started, markdown];
"""


# A revision from before the modules listed its classic scripts, the libraries first.
LIBRARIES = {"extension/vendor/readability/Readability.js": "node_modules/@mozilla/readability/Readability.js",
             "extension/vendor/turndown/turndown.js": "node_modules/turndown/lib/turndown.browser.umd.js"}


# What READ calls, from the modules (a revision from before them set it in its scripts).
READING = """
import { extract } from "./main-content-choosing.js";
import { toMarkdown } from "./html-to-markdown.js";
globalThis.TabAgentPage = { mainContent: { extract }, markdown: { toMarkdown } };
"""


def content_scripts(tree: Path, entry: str = READING) -> str:
    """The content scripts of `tree` (the work tree, or a revision's copy) as one script that
    sets globalThis.TabAgentPage: bundled from `entry`, or joined in files.json's order."""
    listed = tree / "extension" / "content" / "files.json"
    if not listed.exists():
        return bundle(entry, tree)
    files = json.loads(listed.read_text())
    return "\n;\n".join((ROOT / LIBRARIES[path] if path in LIBRARIES else tree / path).read_text(encoding="utf-8") for path in files)


def at_revision(revision: str, entry: str = READING) -> str:
    tree = temporary_tree(revision)
    try:
        return content_scripts(tree, entry)
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def compare(browser, url, runs, scripts):
    driver = browser.driver
    driver.get(url)
    driver.execute_script(LOAD, *scripts)
    cpu = page_cpu_meter(browser, url)
    times, cpu_times, same = {"base": [], "now": []}, {"base": [], "now": []}, True
    for round_ in range(runs + 1):  # (round 0 warms both up)
        markdown = {}
        for version in ("base", "now") if round_ % 2 else ("now", "base"):
            before = cpu()
            ms, markdown[version] = driver.execute_script(READ, version)
            if round_:
                times[version].append(ms)
                cpu_times[version].append(cpu() - before)
        same &= markdown["base"] == markdown["now"]
    return times, cpu_times, same


def row(name, times, cpu_times, same):
    base, now = statistics.median(times["base"]), statistics.median(times["now"])
    cpu_base, cpu_now = statistics.median(cpu_times["base"]), statistics.median(cpu_times["now"])
    return (f"| {name} | {base:.1f} | {min(times['base']):.1f} | {now:.1f} | {min(times['now']):.1f} "
            f"| {100 * (now - base) / base:+.0f} % | {cpu_base:.1f} | {cpu_now:.1f} | {100 * (cpu_now - cpu_base) / cpu_base:+.0f} % "
            f"| {'yes' if same else 'NO'} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD", help="git revision to compare the work tree with")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--page", action="append", dest="pages", help="corpus page (repeatable)")
    args = parser.parse_args()
    build_checkout()
    scripts = (at_revision(args.base), content_scripts(ROOT))
    rows = []
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        with PageServer(CORPUS) as server:
            for name in args.pages or ["wikipedia", "pixnet"]:
                rows.append(row(name, *compare(browser, server.url(f"{name}/source.html"), args.runs, scripts)))
    finally:
        browser.quit()
        remove_profile(profile)
    print(f"read_page's extraction and Markdown in the page, {args.runs} runs each, in turns; "
          f"base {args.base}, now the work tree; times in ms\n")
    print("| page | base: median | min | now: median | min | median change | CPU base | CPU now | CPU change | same Markdown |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
