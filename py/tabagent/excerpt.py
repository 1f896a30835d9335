"""An old page read shortened to what the task needs, when compaction must make room.

The page's text stays inside its untrusted-content marking (app/untrusted_content.py made
it): the note and the opening tag before, the closing tag after, and in between only whole
paragraphs of what was there, its first (the title, address and length read_page gives)
and those sharing the most words with the task. Paragraphs that were not next to each
other are parted by "[…]", so that two pieces of the page, set side by side, cannot join
into a tag the marking had taken out. Our note saying what was left out, and how to read
it whole, comes after the marking.
"""

from __future__ import annotations

import re

# The opening tag with its attributes (the note before it names the tag bare); the marking
# itself is written by app/untrusted_content.py alone: here it is only found.
OPENING = re.compile(r"<page_content\s[^>\n]*>\n")
CLOSING = "</page_content>"
GAP = "[…]"
_WORD = re.compile(r"[^\W\d_]{4,}")
# Words too common to say what a paragraph is about.
_COMMON = frozenset("""that this with from what which when where then than there their them they
have been were will would could should about into your only also just more most some such
each other page read article tell find call says said over very like after before these those
while here make made does done""".split())


def words_of(text: str) -> set[str]:
    """The words of `text` that can tell one paragraph from another."""
    return set(map(str.lower, _WORD.findall(text))) - _COMMON


def _inside(text: str) -> tuple[int, int] | None:
    """Where the page's own text starts and ends in one marked read; None if it is not one."""
    openings = OPENING.findall(text)
    if len(openings) != 1 or text.count(CLOSING) != 1:
        return None
    inside, end = OPENING.search(text).end(), text.rfind(CLOSING)
    return (inside, end) if end >= inside else None


def cut_inside(text: str, keep_chars: int, note: str) -> str | None:
    """A marked read's first `keep_chars` characters of page text, the marking closed after
    them and `note` after it; None when `text` is not one marked read."""
    where = _inside(text)
    if where is None:
        return None
    inside, end = where
    return f"{text[:min(end, inside + max(0, keep_chars))]}\n{CLOSING}\n{note}"


def excerpt(text: str, wanted: set[str], max_chars: int, call: str | None) -> str | None:
    """`text` (a marked page read) with only its paragraphs that share words with `wanted`,
    at most `max_chars` of them; None when it is not one marked read."""
    where = _inside(text)
    if where is None:
        return None
    inside, end = where
    inner = text[inside:end]
    paragraphs = inner.split("\n\n") if inner.count("\n\n") >= 2 else inner.split("\n")
    kept = _chosen(paragraphs, wanted, max_chars)
    pieces, previous = [], -1
    for i in kept:
        if previous >= 0:
            pieces.append("\n\n" if i == previous + 1 else f"\n\n{GAP}\n\n")
        pieces.append(paragraphs[i])
        previous = i
    shown = "".join(pieces)
    again = f"Call {call} again to read it whole" if call else "Run the code again to read it whole"
    note = (f"[Shortened to fit the model's context window: {len(shown):,} of {len(inner):,} characters "
            f"kept, the paragraphs that match the task. {again}.]")
    return f"{text[:inside]}{shown}\n{CLOSING}\n{note}"


def _chosen(paragraphs: list[str], wanted: set[str], max_chars: int) -> list[int]:
    """The first paragraph, then the best matching ones that fit, in the page's order."""
    scores = {i: len(words_of(p) & wanted) for i, p in enumerate(paragraphs)}
    kept, used = [0], len(paragraphs[0])
    for i in sorted(range(1, len(paragraphs)), key=lambda i: -scores[i]):
        if scores[i] == 0:
            break
        if used + len(paragraphs[i]) <= max_chars:
            kept.append(i)
            used += len(paragraphs[i]) + 2
    return sorted(kept)
