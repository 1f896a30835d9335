"""A page tool asked for a part the page does not have: TabAgent's own error, outside the
page-content marking, ending with the call that works.

Qwen2.5-Coder-0.5B asked read_page(page=3, max_tokens=200) of a one-part page again and again
(issue 48's real-model bench, flour-kg). The content script refused it ("There is no page 3: at
200 tokens a page, this tab has 1 page (1 to 1).", content/read-page.js), but every content-script
error comes back `from_page` (background/page-tool-relay.js), since most quote the page (labels,
text, the selector given), and page_bridge.failure marks those as page content: the model read its
mistake as the page's text, a result like any other, and nothing said what call reads the page.

This refusal quotes nothing of the page. Its numbers (the part asked for, the size, how many parts
there are) are read out of the sentence, which must match whole, digits only; the sentence the
model reads is written here from them, and nothing else of the reply reaches it. It is raised as a
ToolInputError: both agents count it as an error of the call (call_log.py, said_back.py). Any other
error, or one shaped like this with anything added (a page's text quoted in it), stays marked.
"""

from __future__ import annotations

import re

from ..tools import ToolInputError

# content/read-page.js, offscreen/pdf/pdf-reader.js
_TEXT = re.compile(r"There is no page (-?\d+): at (\d+) tokens a page, this (tab has|PDF makes) (\d+) pages? \(1 to \4\)\.")
# content/controls.js
_CONTROLS = re.compile(r"There is no page (-?\d+) of controls: there (?:is|are) (\d+)\.")
_LOCATOR = re.compile(r"ta-\d{1,9}")  # content/locators.js: TabAgent's own, safe to say back

TEXT_PARTS = ("There is no page {asked}: at {size} tokens a part, {what} has {parts} part{s}. Nothing was read. "
              "{which}, call {call}.")
CONTROL_PARTS = "There is no page {asked} of controls: they come in {parts} part{s}. {which}, call {call}."


def written(name: str, args: dict) -> str:
    """A call as the model writes it: read_page(page=1, max_tokens=200)."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in args.items())})"


def which(asked: int, parts: int, verb: str, whole: str) -> tuple[str, int]:
    """(what the call that works does, the part it asks for): the whole, the first or the last."""
    if parts == 1:
        return f"To {verb} {whole}", 1
    return (f"Parts count from 1. To {verb} the first part", 1) if asked < 1 else (f"To {verb} the last part", parts)


def text_part_refused(error: object, name: str, fixed: dict, size_given: bool) -> ToolInputError | None:
    """read_page's (or read_tab's: `name`, `fixed` its tab_id) refusal of a part out of range,
    as TabAgent's error; None for any other error. The call keeps max_tokens when the model gave
    it, and asks for the whole with no part and no size when the page is one part at that size."""
    found = _TEXT.fullmatch(str(error or ""))
    if found is None:
        return None
    asked, size, parts = int(found[1]), int(found[2]), int(found[4])
    what = "this PDF" if found[3] == "PDF makes" else "this tab's page"
    said, part = which(asked, parts, "read", "it whole")
    args = dict(fixed) if parts == 1 else {**fixed, "page": part, **({"max_tokens": size} if size_given else {})}
    return ToolInputError(TEXT_PARTS.format(asked=asked, size=size, what=what, parts=parts, s="s" * (parts > 1),
                                            which=said, call=written(name, args)))


def controls_part_refused(error: object, within: str | None) -> ToolInputError | None:
    """list_controls' refusal of a part out of range, as TabAgent's error; None for any other.
    A `within` the model gave is said back only when it is a locator of ours (ta-12)."""
    found = _CONTROLS.fullmatch(str(error or ""))
    if found is None:
        return None
    asked, parts = int(found[1]), int(found[2])
    said, part = which(asked, parts, "list", "them")
    fixed = {"within": within} if within is not None and _LOCATOR.fullmatch(within) else {}
    call = written("list_controls", {**fixed, **({"page": part} if part > 1 else {})})
    if within is not None and not fixed:
        call += " with the same within"
    return ToolInputError(CONTROL_PARTS.format(asked=asked, parts=parts, s="s" * (parts > 1), which=said, call=call))
