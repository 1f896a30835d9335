"""Where a reply quotes rather than speaks: code blocks (fenced), `inline code`, block quotes
(`> ` lines, <blockquote>, <code>, <pre>). A tool call written in quoted text is never read as a
call (issue 46: a page's sample `<tool_call>`, quoted by the model, ran); text_calls.py asks here.

Two fences are not quotes: one that is the whole reply (the model wrapped its call), and a
family's own call fence, ```tool_code (Gemma 3; Gemini), when it stands at the top level and
only call fences follow it. Even there, a call copied from a page never runs (page_quotes.py).
"""

from __future__ import annotations

import re
from typing import NamedTuple

# The fences whose content is the model family's own call, not a quote.
CALL_FENCES = ("tool_code",)

_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(?P<run>`{3,}|~{3,})[ \t]*(?P<tag>[\w+.-]*)[^\n]*$", re.MULTILINE)
_QUOTE_LINE = re.compile(r"^[ \t]{0,3}>(?!>>\w).*$", re.MULTILINE)  # not Functionary's >>>name
_INLINE = re.compile(r"(?<!`)(`+)(?!`)(?:(?!\n\s*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
_HTML_QUOTE = re.compile(r"<(blockquote|code|pre|q)\b[^>]*>.*?(?:</\1>|$)", re.DOTALL | re.IGNORECASE)


class Span(NamedTuple):
    start: int
    end: int
    kind: str  # "fence", "call fence" (not a quote), "inline", "quote"


def quoted_spans(content: str) -> list[Span]:
    """Every span of `content` that quotes, and the call fences, in order."""
    fences = _fences(content)
    spans = [*fences]
    outside = _outside(content, fences)
    for pattern, kind in ((_QUOTE_LINE, "quote"), (_HTML_QUOTE, "quote"), (_INLINE, "inline")):
        for match in pattern.finditer(content):
            if outside(match.start()):
                spans.append(Span(match.start(), match.end(), kind))
    return sorted(spans)


def _fences(content: str) -> list[Span]:
    spans, at = [], 0
    while (opening := _FENCE_OPEN.search(content, at)) is not None:
        run = opening["run"]
        closing = re.compile(rf"^[ \t]{{0,3}}{re.escape(run[0])}{{{len(run)},}}[ \t]*$", re.MULTILINE)
        close = closing.search(content, opening.end())
        end = close.end() if close else len(content)
        spans.append(Span(opening.start(), end, "fence:" + opening["tag"].lower()))
        at = end
    return [Span(s.start, s.end, _fence_kind(content, s, spans)) for s in spans]


def _fence_kind(content: str, span: Span, fences: list[Span]) -> str:
    tag = span.kind.removeprefix("fence:")
    if not content[:span.start].strip() and not content[span.end:].strip():
        return "call fence"  # the whole reply: the model wrapped its call
    later = [f for f in fences if f.start >= span.end]
    if tag in CALL_FENCES and all(f.kind == "fence:" + tag for f in later) and \
            not _between(content, span.end, later).strip():
        return "call fence"  # its family's marker, with only its calls after it
    return "fence"


def _between(content: str, at: int, later: list[Span]) -> str:
    """The text after `at` that is in none of the `later` spans."""
    pieces, cursor = [], at
    for span in later:
        pieces.append(content[cursor:span.start])
        cursor = span.end
    return "".join(pieces) + content[cursor:]


def _outside(content: str, fences: list[Span]):
    def outside(position: int) -> bool:
        return not any(f.start <= position < f.end for f in fences)
    return outside


def quote_at(spans: list[Span], position: int) -> Span | None:
    """The span `position` lies in, if any (a call fence counts: the caller decides)."""
    return next((s for s in spans if s.start <= position < s.end), None)
