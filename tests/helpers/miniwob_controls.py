"""What a model reads in the tools' answers, for the MiniWoB++ policies (miniwob_policies.py):
the controls listing parsed into lines, read_page's Markdown, find_in_page's matches. Nothing
here looks at the page: only at the text the tools returned."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .tool_model import GaveUp

CONTENT = re.compile(r'<page_content source="[^"]*" untrusted="true">\n(.*?)\n</page_content>', re.S)
# "ta-4 text area “Notes” (coloured #ffffff; beside “Submit”) = “Dear…” ...": what the listing says
# of a control (its name, then what sets it apart in brackets) comes before its value.
LINE = re.compile(r"^(?P<locator>ta-\d+) (?P<kind>[^“=(]+)(?: “(?P<name>.*?)”)?(?: \((?P<about>[^()]*)\))?"
                  r"(?: = “(?P<value>.*?)”)?(?: (?P<rest>.*))?$")


@dataclass
class Control:
    locator: str
    kind: str
    name: str
    value: str
    rest: str

    def named(self, text: str) -> bool:
        return plain(self.name) == plain(text)


def plain(text: str) -> str:
    """As a person compares names: case, spaces and the punctuation around words aside."""
    return " ".join(w.strip(".,;:!?\"'()") for w in (text or "").lower().split())


def content(text: str) -> str:
    """The page's part of a tool's answer (inside its page-content marking)."""
    match = CONTENT.search(text)
    return match.group(1) if match else text


def controls(text: str) -> list[Control]:
    found = []
    for line in content(text).splitlines():
        match = LINE.match(line.strip())
        if match:
            parts = match.groupdict()
            found.append(Control(parts["locator"], parts["kind"].strip(), parts["name"] or "", parts["value"] or "", parts["rest"] or ""))
    return found


def one(found: list[Control], what: str) -> Control:
    if not found:
        raise GaveUp(f"the controls listing shows no {what}")
    return found[0]


def named(listing: list[Control], name: str, kind: str = "") -> Control:
    """The control with this name (the same case first: "Eget" is not "eget" when both are listed)."""
    alike = [c for c in listing if c.named(name) and kind in c.kind]
    exact = [c for c in alike if c.name.strip(".,;:!?") == name.strip(".,;:!?")]
    return one(exact or alike, f"{kind or 'control'} named “{name}”")


def of_kind(listing: list[Control], *kinds: str) -> list[Control]:
    return [c for c in listing if any(c.kind == k or c.kind.startswith(k + " ") for k in kinds)]


def markdown(text: str) -> str:
    """read_page's Markdown, without its header lines."""
    return content(text).partition("\n\n")[2]


def table(text: str) -> dict[str, str]:
    """A two-column Markdown table in read_page's answer, as {first column: second}."""
    rows = {}
    for line in markdown(text).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] and not set(cells[0]) <= set("-: "):
            rows[cells[0]] = cells[1]
    return rows


def quoted(task: str) -> str:
    match = re.search(r'"([^"]*)"', task)
    if not match:
        raise GaveUp("the task names nothing in quotes")
    return match.group(1)


def matches(text: str) -> list[dict]:
    """find_in_page's matches ({locator, match, before, after, element, visible})."""
    try:
        return json.loads(content(text)).get("matches", [])
    except ValueError:
        return []


def element_name(match: dict) -> str:
    """The text of the element a find_in_page match is in, as its summary quotes it."""
    name = re.search(r"“(.*)”", match.get("element", ""))
    return name.group(1) if name else ""


def whole_word(match: dict) -> bool:
    """A match that is an element of its own (a link, an item), not a word inside a sentence
    (such as the task's own sentence that quotes it)."""
    return plain(element_name(match)) == plain(match.get("match", ""))
