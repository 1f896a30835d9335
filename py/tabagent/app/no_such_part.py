"""A page tool asked for a part the page does not have: TabAgent's own error, outside the
page-content marking, ending with the call that works.

Qwen2.5-Coder-0.5B asked read_page(page=3, max_tokens=200) of a one-part page again and again
(issue 48's real-model bench, flour-kg). The content script refused it ("There is no page 3: at
200 tokens a page, this tab has 1 page (1 to 1).", content/read-page.js), but every content-script
error comes back `from_page` (background/page-tool-relay.js), since most quote the page (labels,
text, the selector given), and page_bridge.failure marks those as page content: the model read its
mistake as the page's text, a result like any other, and nothing said what call reads the page.

This refusal comes with its numbers apart from the sentence: the reply's `no_such_part` (wire.py
NO_SUCH_PART: the part asked for, how many there are, for text the tokens a part holds and whether
it is a PDF's), which the content script and the PDF reader give and the service worker passes on
with the declared fields alone (background/part-out-of-range.js). The sentence the model reads is
written here from those numbers; the content script's sentence is never read. It is raised as a
ToolInputError: both agents count it as an error of the call (call_log.py, said_back.py). Any other
error stays marked, and so does page text shaped like this one: without the field it is the page's.
"""

from __future__ import annotations

import math
import re

from ..tools import ToolInputError
from .wire import NO_SUCH_PART
from ..our_notes import our_note

_LOCATOR = re.compile(r"ta-\d{1,9}")  # content/locators.js: TabAgent's own, safe to say back

TEXT_PARTS = our_note("There is no page {asked}: at {size} tokens a part, {what} has {parts} part{s}. Nothing was read. "
                      "{which}, call {call}.")
CONTROL_PARTS = our_note("There is no page {asked} of controls: they come in {parts} part{s}. {which}, call {call}.")


def written(name: str, args: dict) -> str:
    """A call as the model writes it: read_page(page=1, max_tokens=200)."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in args.items())})"


def which(asked: int, parts: int, verb: str, whole: str) -> tuple[str, int]:
    """(what the call that works does, the part it asks for): the whole, the first or the last."""
    if parts == 1:
        return f"To {verb} {whole}", 1
    return (f"Parts count from 1. To {verb} the first part", 1) if asked < 1 else (f"To {verb} the last part", parts)


def part_asked(reply: dict) -> dict | None:
    """The reply's no_such_part when it is well formed: only NO_SUCH_PART's fields, `asked` a
    finite number that is no part, `parts` and `part_tokens` whole numbers from 1, `pdf` a boolean;
    else None."""
    part = reply.get("no_such_part") if isinstance(reply, dict) else None
    if not isinstance(part, dict) or not set(part) <= set(NO_SUCH_PART) or not {"asked", "parts"} <= set(part):
        return None
    asked = part["asked"]
    if isinstance(asked, bool) or not isinstance(asked, (int, float)) or not math.isfinite(asked):
        return None
    if not all(_counts(part.get(name, 1)) for name in ("parts", "part_tokens")) or not isinstance(part.get("pdf", False), bool):
        return None
    asked = int(asked) if float(asked).is_integer() else asked
    return None if isinstance(asked, int) and 1 <= asked <= part["parts"] else {**part, "asked": asked}


def _counts(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def text_part_refused(reply: dict, name: str, fixed: dict, size_given: bool) -> ToolInputError | None:
    """read_page's (or read_tab's: `name`, `fixed` its tab_id) refusal of a part out of range,
    as TabAgent's error; None for any other reply. The call keeps max_tokens when the model gave
    it, and asks for the whole with no part and no size when the page is one part at that size."""
    part = part_asked(reply)
    if part is None or "part_tokens" not in part:
        return None
    asked, size, parts = part["asked"], part["part_tokens"], part["parts"]
    what = "this PDF" if part.get("pdf") else "this tab's page"
    said, number = which(asked, parts, "read", "it whole")
    args = dict(fixed) if parts == 1 else {**fixed, "page": number, **({"max_tokens": size} if size_given else {})}
    return ToolInputError(TEXT_PARTS.format(asked=asked, size=size, what=what, parts=parts, s="s" * (parts > 1),
                                            which=said, call=written(name, args)))


def controls_part_refused(reply: dict, within: str | None) -> ToolInputError | None:
    """list_controls' refusal of a part out of range, as TabAgent's error; None for any other reply.
    A `within` the model gave is said back only when it is a locator of ours (ta-12)."""
    part = part_asked(reply)
    if part is None or "part_tokens" in part or "pdf" in part:
        return None
    asked, parts = part["asked"], part["parts"]
    said, number = which(asked, parts, "list", "them")
    fixed = {"within": within} if within is not None and _LOCATOR.fullmatch(within) else {}
    call = written("list_controls", {**fixed, **({"page": number} if number > 1 else {})})
    if within is not None and not fixed:
        call += " with the same within"
    return ToolInputError(CONTROL_PARTS.format(asked=asked, parts=parts, s="s" * (parts > 1), which=said, call=call))
