"""An act on a locator no tool gave is not run.

A locator of ours (`ta-12`) names an element only because a tool that looked at the page said
so: list_controls, find_in_page and the rest number the page's elements as they find them. A
model that acts on one no result held is guessing; the 1.5B copied the example in the tools'
descriptions ("ta-12") and typed the user's email into whatever element had that number, before
it had read anything (bench rows aa3e3ff, newsletter, CodeAgent). So an act whose arguments name
a locator is run only when some text the model or its code was given holds it: a tool's result
(this run's, or one the conversation remembers), the user's message, the user's answers. A
picture shown to the model may hold numbers too (a labelled screenshot draws them): once one
was shown, any locator may be read from it.

A CSS selector is the model's own way to name an element, and stays its to choose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .our_notes import our_note

LOCATOR = re.compile(r"ta-\d+")
UNISSUED = our_note("Not run: no tool has given you the locator {locators}. A locator names an element only "
                    "when a tool's result gave it. Call list_controls (or find_in_page) for the locators of "
                    "this page, then act on the one you want.")


def locators_in(arguments: Any) -> list[str]:
    """The locators of ours an act's arguments name (each string that is one, whole)."""
    values = arguments.values() if isinstance(arguments, dict) else [arguments]
    found = []
    for value in values:
        items = value if isinstance(value, list) else [value]
        found += [item.strip() for item in items if isinstance(item, str) and LOCATOR.fullmatch(item.strip())]
    return found


def given(locator: str, texts: Iterable[str]) -> bool:
    """Whether some text holds `locator` as a whole (ta-1 is not in ta-12)."""
    whole = re.compile(rf"(?<![\w-]){re.escape(locator)}(?!\d)")
    return any(whole.search(text) for text in texts)


def unissued(arguments: Any, texts: Iterable[str], pictures_shown: bool) -> str | None:
    """The note for an act on locators no text given holds; None when it may run."""
    if pictures_shown:
        return None
    texts = list(texts)
    missing = [locator for locator in dict.fromkeys(locators_in(arguments)) if not given(locator, texts)]
    return UNISSUED.format(locators=", ".join(missing)) if missing else None
