"""Every note TabAgent writes to the model, registered where it is written.

said_back.py counts the words of each as TabAgent's own ("ours"): an answer that says one back is
no answer, whether or not this turn sent that note. A note is kept as its template: only its fixed
words count, never the {fields} filled in when it is sent (the user's question, the model's own
line of code, a page's text), which an answer may say again.
"""

from __future__ import annotations

from string import Formatter

_written: list[str] = []


def our_note(template: str) -> str:
    """`template`, registered as a note TabAgent writes to the model; returned as it is."""
    _written.append(template)
    return template


def our_notes(*templates: str) -> tuple[str, ...]:
    """Each of `templates` registered (our_note)."""
    return tuple(map(our_note, templates))


def fixed_words(template: str) -> list[str]:
    """The pieces of `template` between its {fields}, as written."""
    try:
        return [literal for literal, *_ in Formatter().parse(template) if literal.strip()]
    except ValueError:  # not a format string: all of it is fixed
        return [template]


def registered() -> list[str]:
    return list(_written)
