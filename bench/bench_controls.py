#!/usr/bin/env python3
"""list_controls and the actions through the extension, in real headless Chromium:

- list_controls on a page of 10,000 elements (a long form-and-links page made here), timed
  in Python (call-tool's own time: offscreen -> service worker -> content script -> back);
- tokens per control on real saved pages (the Readability test pages beside the checkout, or
  the few the tests vendor), counted with tabagent.tokens as the model would be sent them;
- an action and its result without navigation: check on a box, and hover through a
  stylesheet of :hover rules (applied as the pointer would apply them), timed the same way;
  and on a small page, check and a click on a button that starts no download (its reply waits
  for none: background/action-downloads.js), the same.

The page is in a window of its own, shown, as the page beside a side panel is: in Chrome the
actions are real input (platform/chrome/real-input.js), and a tab the browser does not show
draws no frames unless the gesture makes it (a benchmark that hid the user's tab measured that).
That path has rows of its own: hover and click on a small page in a tab the browser does not show
(behind the panel's tab in one window, as the agent's own tab or a scheduled run's is), in a
browser of its own; the page's document.visibilityState is read and printed with them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from tabagent.tokens import count_text  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.page_content import page_content  # noqa: E402
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402

SHARED_CORPUS = ROOT.parent / "shared" / "testdata" / "pages"
VENDORED_CORPUS = ROOT / "tests" / "e2e" / "pages" / "readability"
CORPUS = SHARED_CORPUS if SHARED_CORPUS.is_dir() else VENDORED_CORPUS

TIMED = """
const [name, args, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
chrome.runtime.sendMessage({ target: "background", type: "call-tool", name, args }).then(
  (reply) => done(reply.ok ? { ms: reply.result.ms, text: reply.result.result } : { error: reply.error }),
  (error) => done({ error: String(error) }));
"""


# A button that does nothing (no download: its click's reply waits for none) and a box, alone.
PLAIN = ("<!doctype html><title>Plain</title><button type='button' id='plain'>Plain</button>"
         "<label><input type='checkbox' id='box'> Box</label>")


def big_page() -> str:
    """About 10,000 elements: sections of text, links, fields and buttons, and the kinds list_controls
    finds by their look: an icon with a pointer only under :hover, coloured cells of a board whose
    container shows the pointer, and a focusable menu of items."""
    # A stylesheet of 400 rules, half of them :hover (as a site styles its menus), for hover to go through.
    rules = "".join(f".item-{i}:hover a {{ color: red }} .item-{i} b {{ margin: 1px }}" for i in range(200))
    rules += (".icon:hover { cursor: pointer } .board { cursor: pointer; display: flex }"
              " .board i { width: 9px; height: 9px; background: teal }")
    parts = [f"<!doctype html><html><head><title>Ten thousand elements</title><style>{rules}</style></head><body><form id='f'>"]
    for i in range(890):  # 10 to 14 elements each: about 10,000
        extra = ("<div class='board'><i></i><i></i><i></i><i></i><i></i></div>" if i % 4 == 1 else
                 "<div tabindex='0'><p tabindex='-1'>Copy</p><p tabindex='-1'>Move</p></div>" if i % 4 == 3 else "")
        words = "" if extra else "<b>with</b> <i>words</i>"
        parts.append(f"<section class='item-{i}'><h3>Item {i}</h3><p>Text of item {i} {words}.</p>{extra}"
                     f"<label>Amount {i} <input name='a{i}' value='{i}'></label>"
                     f"<a href='/item/{i}'>Open item {i}</a><span class='icon'>€</span><button type='button'>Add {i}</button></section>")
    parts.append("<label><input type='checkbox' id='box'> Box</label></form></body></html>")
    return "".join(parts)


def hidden_tab_rows(site, runs):
    """Hover and click timed on the small page in a tab that is not shown: the page's tab, then the
    panel's tab in front of it in the same window. Returns (hovers, clicks, the page's visibility)."""
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        tabs = ChromiumPanel.beside_a_page(browser)
        tabs.show(site.url("plain.html"))
        run_page_tool(tabs, "list_controls")
        page = next(t for t in browser.cdp.targets() if t["type"] == "page" and t["url"].endswith("/plain.html"))
        shown = browser.evaluate_in(page, "document.visibilityState")
        hovers = [run_page_tool(tabs, "hover", locator="#plain")["ms"] for _ in range(runs)]
        clicks = [run_page_tool(tabs, "click", locator="#plain")["ms"] for _ in range(runs)]
        return hovers, clicks, shown
    finally:
        browser.quit()
        remove_profile(profile)


def run_page_tool(tabs, name, **args):
    reply = tabs.driver.execute_async_script(TIMED, name, args)
    if "error" in reply:
        raise RuntimeError(f"{name} failed: {reply['error']}")
    return reply


def row(label, values, target=""):
    ordered = sorted(values)
    return f"| {label} | {statistics.median(ordered):.1f} | {ordered[0]:.1f}–{ordered[-1]:.1f} | {target} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--pages", type=int, default=20, help="real pages for tokens per control")
    args = parser.parse_args()
    build_checkout()
    made = Path(tempfile.mkdtemp(prefix="tabagent-controls-"))
    (made / "big.html").write_text(big_page())
    (made / "plain.html").write_text(PLAIN)
    real = sorted(p.parent for p in CORPUS.glob("*/source.html"))[: args.pages]
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        tabs = ChromiumPanel.in_windows(browser)
        with PageServer(made) as site:
            tabs.show(site.url("big.html"))
            elements = tabs.in_page("return document.getElementsByTagName('*').length")
            run_page_tool(tabs, "list_controls")  # injects the content scripts
            listing = [run_page_tool(tabs, "list_controls")["ms"] for _ in range(args.runs)]
            checks = [run_page_tool(tabs, "check", locator="#box", checked=i % 2 == 0)["ms"] for _ in range(args.runs) for i in (0, 1)]
            hovers = [run_page_tool(tabs, "hover", locator=f".item-{n} button")["ms"] for n in range(1, args.runs + 1)]
            # A small page, where what an action itself costs is not hidden by the page's size.
            tabs.show(site.url("plain.html"))
            run_page_tool(tabs, "list_controls")
            clicks = [run_page_tool(tabs, "click", locator="#plain")["ms"] for _ in range(args.runs)]
            small_checks = [run_page_tool(tabs, "check", locator="#box", checked=i % 2 == 0)["ms"] for i in range(args.runs)]
        per_control = []
        with PageServer(CORPUS) as corpus:
            for folder in real:
                tabs.show(corpus.url(f"{folder.name}/source.html"))
                _, content = page_content(run_page_tool(tabs, "list_controls", max_controls=500)["text"])
                lines = content.partition("\n\n")[2].splitlines()
                if lines:
                    per_control.append(count_text("\n".join(lines)) / len(lines))
    finally:
        browser.quit()
        remove_profile(profile)
    with PageServer(made) as site:  # (a browser of its own, after the first has quit)
        hidden_hovers, hidden_clicks, visibility = hidden_tab_rows(site, args.runs)
    print(f"\n### Controls and actions ({args.runs} runs; ms, in Python)\n")
    print("| measure | median | min–max | target |")
    print("|---|---|---|---|")
    print(row(f"list_controls on a page of {elements:,} elements", listing, "< 100"))
    print(row("check (action → result, no navigation)", checks, "< 50"))
    print(row("hover through a sheet of 200 :hover rules (its section's applied)", hovers, "< 50"))
    print(row("small page: check (action → result)", small_checks, "< 50"))
    print(row("small page: click on a button that starts no download (action → result)", clicks, "< 50"))
    print(row(f"hidden tab ({visibility}): hover on a small page (real input, the tab made to draw)", hidden_hovers, "< 100"))
    print(row(f"hidden tab ({visibility}): click on a button that starts no download", hidden_clicks, "< 100"))
    print(row(f"tokens per control, {len(per_control)} real pages", per_control))


if __name__ == "__main__":
    main()
