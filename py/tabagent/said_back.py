"""An answer that says back what the model was given, instead of answering.

Qwen2.5-Coder-0.5B on the real-model bench (issue 48) answered with what it had just been given:
told it had not read the page, with the note's own sentence; asked to subscribe, with the error
TabAgent sent it ("there is no tool named 'error'. Available tools: ..."); asked a price, with the
whole of what read_page returned, TabAgent's marking and all. None of these answers the user.
One measure for all of them:

- words are runs of letters and digits, in lower case (a reply written as JSON is read with its
  escapes undone: "\\n" is a line break);
- a word of the answer is copied from a text when it lies in a run of at least 6 words in a row
  that the text holds, in the same order;
- a text of ours (below) of 3 to 5 words, too short for a run, counts whole: an answer that holds
  all its words in order, as at least half of its own, says it back ("I noted (1 note kept).": the
  note tool's "Noted (1 note kept)." given as the answer by the 1.5B);
- the answer says a text back when it has at least 6 words, at least half of them copied from
  that one text, and the text is
  - an error a call or the model's code returned this turn ("error": told what to call instead,
    since an error says what went wrong, not what to do), or
  - TabAgent's own ("ours"): a note the agent sent this turn, what a tool that keeps the run's
    books (note, more_tools) returned this turn, or any note TabAgent writes to the model,
    registered where it is written (our_notes.py: its fixed words, not its fields), or
  - a tool's result this turn, inside the page-content marking, and the copied words take in
    TabAgent's note that opens the marking ("result"). No answer needs that note: a line of the
    page quoted (a price, a name, a paragraph) never carries it, and stays the answer.

An answer that carries the marking itself (our tag, or our words for a tag the page wrote) gives
back page text as TabAgent marked it ("page"), whatever else it says and wherever the text came
from: a tab the user attached, a page read in an earlier turn, this turn's read. A page cannot
write the tag (app/untrusted_content.py takes it out), so only our marking puts it before the model;
shown as the answer, it would pass page text off as TabAgent's words (docs/security.md).

The same measure keeps a question for the user (ask_user) from saying a text back, and an act's
text (what it would type or choose on a page) too: our words are not for a third-party site.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from .excerpt import OPENING
from .our_notes import fixed_words, our_note, our_notes, registered

RUN = 6  # words in a row, as the text has them, to count as copied
SHORT = 3  # words: a text of ours shorter than a run counts whole, from this length
_WORD = re.compile(r"\w+")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[nrt\"/\\])")
_UNESCAPED = {"n": "\n", "r": "\n", "t": " ", '"': '"', "/": "/", "\\": "\\"}

SAID_BACK_OURS, SAID_BACK_RESULT, SAID_BACK_ERROR, SAID_BACK_PAGE = our_notes(
    "Your answer repeats what I told you instead of answering the user's question, so it is not your "
    "answer. Do what it said, then answer the question in your own words.",
    "Your answer is the text {tool} returned, my marking and all, not an answer to the user's question, so "
    "it was not taken. Answer the question in your own words, quoting only the part of that text that "
    "answers it.",
    "Your answer repeats the error {whose} instead of answering the user's question, so it was not taken: "
    "an error says what went wrong, not what to answer. {instead}\nThen answer the question in your own "
    "words.",
    "Your answer gives back page text as I marked it for you, my marking and all, not an answer to the "
    "user's question, so it was not taken. Answer the question in your own words, quoting only the part "
    "of the page that answers it.")
# Our marking in an answer (read with JSON's escapes undone, and as HTML may write it): the tag, opening
# or closing, or our words for a tag the page wrote (untrusted_content.FORGED_TAG: a test holds them equal).
MARKING_SAID = re.compile(r"(?:<|&lt;)\s*/?\s*page_content\b|\[a page_content tag written by the page, removed\]",
                          re.IGNORECASE)
# What the user is told when the model, told once, said a text back again: the turn ends.
STOPPED = "I stopped without an answer: twice my reply gave back {what} instead of answering."
# What the user is told when, out of steps, the answer asked for said a text back (told once, if not yet).
RAN_OUT = "I ran out of steps ({steps}) before I could answer: my last reply gave back {what} instead of answering."
# A question for the user (ask_user) that says a text back: the user never saw that text and cannot
# answer it. Qwen2.5-Coder-0.5B on the real-model bench (newsletter, affc518), told its answer
# repeated our error, asked the user that very note as its question, and the turn waited.
QUESTION_SAID_BACK = our_note(
    "Error: that question gives back what {whose} instead of asking the user something of their own, so it "
    "was not asked: the user never saw that text and cannot answer it. {instead}")
# An act whose text (what it would type or choose on the page) says back a text the model was given:
# TabAgent's own words would reach a third-party page. Qwen2.5-Coder-0.5B on the real-model bench
# (contact-billing, rows 0964a2e) typed our error "Nothing on the page matches ..." into a form.
ACT_SAID_BACK = our_note(
    "Error: {name} was not run, and nothing reached the page: its {argument} gives back what {whose}, "
    "text I wrote for you, not text for the page. Give it the text the task needs there, in the user's "
    "words or your own, or call another tool.")
WHOSE = {"ours": "I told you", "result": "{tool} returned", "error": "an error said", "page": "a page said"}
WHAT = {"ours": "a message TabAgent had sent me", "result": "the text {tool} returned",
        "error": "an error TabAgent had sent me", "page": "page text as TabAgent had marked it"}


def _unescaped(text: object) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m[1][1:], 16)) if m[1][0] == "u" else _UNESCAPED[m[1]], str(text))


def words(text: object) -> list[str]:
    """The words of `text`, in lower case, with JSON's escapes undone."""
    return _WORD.findall(_unescaped(text).lower())


def _runs(text_words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(text_words[i:i + RUN]) for i in range(len(text_words) - RUN + 1)}


def copied(answer: list[str], runs: set[tuple[str, ...]]) -> set[int]:
    """The positions of the words of `answer` that lie in a run of RUN words found in `runs`."""
    found: set[int] = set()
    for i in range(len(answer) - RUN + 1):
        if tuple(answer[i:i + RUN]) in runs:
            found.update(range(i, i + RUN))
    return found


def _mostly(answer: list[str], text: str) -> set[int] | None:
    """The copied positions, when at least half of `answer` is copied from `text`."""
    return _enough(answer, _runs(words(text)))


def _enough(answer: list[str], runs: set[tuple[str, ...]] | frozenset) -> set[int] | None:
    found = copied(answer, runs)  # type: ignore[arg-type]
    return found if found and len(found) * 2 >= len(answer) else None


def _whole(answer: list[str], text: list[str]) -> bool:
    """Whether `answer` holds the whole of a text of ours too short for a run (SHORT to RUN - 1
    words: "Noted (1 note kept).", which the 1.5B gave as its answer, "I noted (1 note kept).",
    real-model bench, newsletter, 6881571), in order, as at least half of its words."""
    n = len(text)
    return SHORT <= n < RUN and n * 2 >= len(answer) and any(
        answer[i:i + n] == text for i in range(len(answer) - n + 1))


@lru_cache(maxsize=None)
def _note_runs(template: str) -> frozenset:
    """The runs of a registered note's fixed words, each piece on its own (a field breaks a run)."""
    return frozenset().union(*(_runs(words(piece)) for piece in fixed_words(template)))


def said_back(answer: object, ours: Iterable[str], results: Iterable[tuple[str, str]],
              errors: Iterable[tuple[str, str]] = ()) -> tuple[str, str] | None:
    """("error", the tool or "" for code), ("ours", "") or ("result", the tool's name) when `answer`
    says back one of `errors` ((tool, error) this turn), of `ours` (the notes this turn sent) or of
    the notes TabAgent writes (our_notes.py), or of `results` ((tool, text) this turn); ("page", "")
    when it carries our marking; as the module says; else None."""
    said = words(answer)
    marked = MARKING_SAID.search(_unescaped(answer)) is not None
    ours = list(ours)
    if any(_whole(said, words(text)) for text in ours):
        return "ours", ""
    if len(said) < RUN:
        return ("page", "") if marked else None
    for tool, text in errors:
        if _mostly(said, text):
            return "error", tool
    if any(_mostly(said, text) for text in ours) or any(_enough(said, _note_runs(note)) for note in registered()):
        return "ours", ""
    for tool, text in results:
        marking = OPENING.search(text)
        if marking is None or (found := _mostly(said, text)) is None:
            continue
        note = _runs(words(text[:marking.start()]))
        if any(tuple(said[i:i + RUN]) in note for i in range(len(said) - RUN + 1) if i in found):
            return "result", tool
    return ("page", "") if marked else None


def question_refused(found: tuple[str, str], instead: str) -> str:
    """What the model is told of a question for the user that said a text back (`found`, as
    said_back gives it); `instead`: what to call instead, in the agent's words."""
    kind, tool = found
    return QUESTION_SAID_BACK.format(whose=WHOSE[kind].format(tool=tool or "your code"), instead=instead)


def act_said_back(name: str, arguments: object, says_back: Callable[[object], tuple[str, str] | None],
                  users: Iterable[str]) -> str | None:
    """The error for an act (a tool with `acts`) one of whose texts says back a text the model was
    given (`says_back`: the agent's, as said_back gives it), or None. A text is an argument's
    string (or a string in its list) with a space in it: a locator, a key, an address is one
    unbroken token, named from our texts, not said back. A text the user's own words hold
    (`users`: their message, their answers this turn) is theirs, even where our error quoted it."""
    if not isinstance(arguments, dict):
        return None
    for argument, value in arguments.items():
        for text in value if isinstance(value, (list, tuple)) else (value,):
            if not isinstance(text, str) or len(text.split()) < 2 or (found := says_back(text)) is None:
                continue
            if found[0] == "page" and not OPENING.search(text):  # a closing tag alone opens no page text of
                continue  # ours: the model's own words, sent (tests/e2e/test_red_team_mcp.py sends one to a server)
            if found[0] != "page" and any(_mostly(words(text), said) for said in users):
                continue
            kind, tool = found
            return ACT_SAID_BACK.format(name=name, argument=f"'{argument}'",
                                        whose=WHOSE[kind].format(tool=tool or "your code"))
    return None


def told(kind: str, tool: str, instead: str = "") -> str:
    """What the model is told, once a turn, of an answer that said a text back; `instead`: for an
    error, what to call instead (the agent's words: the tools, as it lists them)."""
    if kind == "error":
        return SAID_BACK_ERROR.format(whose=f"that calling {tool} returned" if tool else "your code raised",
                                      instead=instead)
    return {"ours": SAID_BACK_OURS, "page": SAID_BACK_PAGE}.get(kind) or SAID_BACK_RESULT.format(tool=tool)


def stopped(kind: str, tool: str) -> str:
    """The first sentence of what the user gets when it did so again."""
    return STOPPED.format(what=WHAT[kind].format(tool=tool))


def ran_out(steps: int, kind: str, tool: str) -> str:
    """The first sentence of what the user gets when out of steps the last answer said a text back."""
    return RAN_OUT.format(steps=steps, what=WHAT[kind].format(tool=tool))
