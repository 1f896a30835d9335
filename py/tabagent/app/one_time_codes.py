"""One-time codes the agent read (issue 46): a code a page or a mail shows, or an MCP server
returns, next to the words for one ("Your verification code is 482913"), is the user's key to
their account for a few minutes. A page that has the model type it into another site's field,
or carry it off in an address or an MCP call, signs in or pays as the user. So an action that
carries a code read elsewhere is asked of the user every time, once, saying so, whatever the
turn was allowed (a site, a tool) and whatever the site rules allow; a `never` site still
refuses. Typing it on the site that showed it is asked as any action is.

The codes come from page-derived text, which reaches the model only through untrusted()
(untrusted_content.py): the turn collects what it marked (`read_so_far`), and what the
conversation's memory holds from earlier turns.

    carried = carried_code(text_of_the_action, "https://evil.example")   # (code, where read) or None
    allowed = await ask_for_the_code(consent, tool, summary, details, carried, where)
"""

from __future__ import annotations

import hashlib
import re
import uuid
from urllib.parse import unquote

from ..secret_words import names_a_code
from .site_rules import site_of
from .untrusted_content import read_so_far, source_of, unmarked

# A code: 4 to 10 digits (one space or dash may part them: "482 913"), or 5 to 10 capitals and
# digits with at least two digits ("K7X-Q2M9").
DIGITS = re.compile(r"(?<![\w-])\d(?:[ -]?\d){3,9}(?![\w-])")
MIXED = re.compile(r"(?<![\w-])(?=(?:[A-Z-]*\d){2})(?=[0-9-]*[A-Z])[A-Z0-9](?:-?[A-Z0-9]){4,9}(?![\w-])")
SENTENCES = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def _bare(code: str) -> str:
    return re.sub(r"[\s-]", "", code).upper()


# Every action asks again of each text the turn read, and names_a_code costs some 3 µs of CPU a
# character (hundreds of words tried at every place): a text is scanned once, and only the
# sentences that hold a code are asked whether they name one. What a text holds is kept by its
# SHA-256, not the text: the pages a turn read are not held after it. The oldest goes first past
# MOST_KEPT (more texts than a turn of 300 steps reads).
MOST_KEPT = 4096
_scanned: dict[bytes, frozenset[str]] = {}


def codes_in(text: str) -> frozenset[str]:
    """The codes in `text`: in a sentence that names a one-time code, a PIN or a password."""
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    if key not in _scanned:
        if len(_scanned) >= MOST_KEPT:
            del _scanned[next(iter(_scanned))]
        _scanned[key] = frozenset(code for sentence in SENTENCES.split(text) for code in _codes_named(sentence))
    return _scanned[key]


def _codes_named(sentence: str) -> set[str]:
    codes = {_bare(m.group()) for pattern in (DIGITS, MIXED) for m in pattern.finditer(sentence)}
    return codes if codes and names_a_code(sentence) else set()


def site_of_source(source: str) -> str:
    """Where a text was read: a page's origin, or the words untrusted() was given (an MCP server)."""
    return site_of(source) or source


def codes_read(texts=None) -> dict[str, set[str]]:
    """{code: the sites it was read on} of the page text marked in this turn, and before it."""
    read: dict[str, set[str]] = {}
    for source, text in read_so_far() if texts is None else texts:
        for code in codes_in(text):
            read.setdefault(code, set()).add(site_of_source(source))
    return read


def carried_code(text: str, target: str | None, texts=None) -> tuple[str, str] | None:
    """(code, where it was read) of a code read elsewhere than `target` that `text` carries
    (typed, or in an address, percent-escaped or not); None when it carries none."""
    plain = _bare(unquote(str(text or "")))
    for code, sites in codes_read(texts).items():
        if len(code) >= 4 and code in plain and target not in sites:
            return code, sorted(sites)[0]
    return None


def read_in_memory(memory) -> list[tuple[str, str]]:
    """The marked page text an earlier turn's steps hold, as (source, content): a code read
    then is still a code read."""
    found = []
    for step in getattr(memory, "steps", ()):
        for observation in getattr(step, "observations", ()) or ():
            text = str(observation.get("content") or "")
            content = unmarked(text)
            if content is not None:
                found.append((source_of(text), content))
    return found


def warning(code: str, read_on: str, where: str) -> str:
    return (f"This would give {where} the code {code}, which TabAgent read on {read_on}: a code like this lets "
            f"whoever has it sign in or pay as you. Allow it only if you asked for exactly this.")


async def ask_for_the_code(consent, tool: str, message: str, details: dict, carried: tuple[str, str], where: str) -> bool:
    """The user's yes to this one action, asked in the acting actor's name whatever it was
    allowed before (consent.AskTheUser.ask): once, or not. An asker with nobody behind it (a
    user tool's `page`) refuses, as it refuses everything."""
    code, read_on = carried
    message, details = f"{message} {warning(code, read_on, where)}", {**details, "code": code, "code_read_on": read_on}
    if not hasattr(consent, "ask"):
        return bool(await consent.allows(tool, message, details))
    question = {"id": uuid.uuid4().hex, "tool": tool, "message": message, "details": details,
                "actor": consent.actor.shown(), "answers": ["once", "deny"]}
    return await consent.ask(question) == "once"
