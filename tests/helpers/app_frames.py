"""Inside an MCP App the panel shows (sidepanel/app-view.js): its view is two frames down (the
app frame, extension/app-frame/, then the app's own), each of another origin, reached the way a
person's clicks reach it: Selenium switches into the frames in Chromium; in Firefox, WebDriver
BiDi evaluates in the app's browsing context, found in the panel's tree.

    in_app(panel, 0, "document.getElementById('count').textContent")

`panel` is a PanelDriver (tests/helpers/panel_driver.py) of either browser.
"""

from __future__ import annotations

import time

APPS = "[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.mcp-app iframe.app-frame')"


def in_app(panel, n: int, expression: str, timeout: float = 30):
    """The value of `expression` in the n-th app of the last turn, once it is truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = _chromium(panel, n, expression) if hasattr(panel, "driver") else _firefox(panel, n, expression)
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def _chromium(panel, n: int, expression: str):
    from selenium.common.exceptions import NoSuchFrameException, WebDriverException

    driver = panel.driver
    try:
        outer = driver.execute_script(f"return {APPS}[{n}] ?? null")
        if outer is None:
            return None
        driver.switch_to.frame(outer)
        inner = driver.find_elements("css selector", "iframe")
        if not inner:
            return None
        driver.switch_to.frame(inner[0])
        return driver.execute_script(f"try {{ return ({expression}); }} catch (e) {{ return null; }}")
    except (NoSuchFrameException, WebDriverException):
        return None
    finally:
        driver.switch_to.default_content()


def _firefox(panel, n: int, expression: str):
    import json

    firefox = panel.firefox
    count = panel.run(f"{APPS}.length")
    if not count or count <= n:
        return None
    [tree] = firefox.send("browsingContext.getTree", {"root": panel.context})["contexts"]
    # The app frames in document order are the panel's framed children that have a child (the app).
    outers = [c for c in tree.get("children") or [] if c.get("children")]
    if len(outers) <= n:
        return None
    [view, *_] = outers[n]["children"]
    wrapped = f"(() => {{ try {{ return JSON.stringify(({expression}) ?? null); }} catch (e) {{ return null; }} }})()"
    result = firefox.send("script.evaluate", {"expression": wrapped, "target": {"context": view["context"]}, "awaitPromise": False})
    value = result.get("result", {}).get("value")
    return json.loads(value) if isinstance(value, str) else None


def forget_the_apps_own_errors(panel) -> None:
    """What an app's own page logs (the eval its SDK tries, which its CSP refuses) is the app's,
    not the extension's: left out of the check for errors in the extension. (Firefox reports
    every context's; Chromium's watcher hears the extension's alone.)"""
    if hasattr(panel, "firefox"):
        [tree] = panel.firefox.send("browsingContext.getTree", {"root": panel.context})["contexts"]
        apps_own = {c["context"] for c in _descendants(tree)}
        panel.firefox.problems[:] = [p for p in panel.firefox.problems if p.split(":", 1)[0] not in apps_own]


def _descendants(context: dict):
    for child in context.get("children") or []:
        yield child
        yield from _descendants(child)
