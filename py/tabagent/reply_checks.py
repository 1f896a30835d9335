"""A reply with no action in it is the answer, except when it is not:

- a reply that looks like a tool call but cannot be read (cut off, broken JSON): the model
  is told what was wrong and nothing runs, as smolagents does;
- a reply that says it will act and does not ("I'll click the button."): the model is
  reminded once per turn; a second such reply is taken as the answer.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from .text_calls import quotes_a_call, why_unread

_PROMISE = re.compile(
    r"(?:^|[.!?:;\n]\s*)(?:(?:ok(?:ay)?|now|next|first|then|so|alright)[,\s]+)*"
    r"(?:i['’]ll|i will|i am going to|i['’]m going to|let me|let['’]s|i need to|i should)"
    r"\s+(?!know\b|be\b)[a-z][^.!?:\n]*[.:…!]*\s*$", re.IGNORECASE)
_SHORT = 500  # characters: "I'll click Submit." is short; an answer that ends on a promise is not


@dataclass(frozen=True)
class Notes:
    """What the model is told, in the words of the way it acts."""
    unread: str
    reminder: str
    shown: str  # a call shown in a code block, not made (quoted_before_acting_note)


TOOL_NOTES = Notes(
    unread=("Your reply looks like a tool call, but it could not be read{problem}. Nothing was "
            "run. Send the call again, complete, with its arguments as a JSON object; or, if you "
            "meant to answer, answer in plain words."),
    reminder=("You said what you would do, but made no tool call, so nothing was done. Make the "
              "call now; or, if the task is done, give your final answer."),
    shown=("Your reply shows a tool call inside a code block, which is never run, so nothing was "
           "done. To call a tool, make the call itself; or, if you meant to answer, answer again."))

CODE_NOTES = Notes(
    unread=("Your reply looks like a tool call, but it could not be read{problem}. Nothing was "
            "run. Write the call as Python in a ```python block, e.g. click(locator=\"#submit\"); "
            "or, if you meant to answer, call final_answer(...)."),
    reminder=("You said what you would do, but wrote no code, so nothing ran. Write the code now "
              "in a ```python block; or, if the task is done, call final_answer(...)."),
    shown=("Your reply shows a tool call that is not Python code, so nothing ran. Write the call "
           "as Python in a ```python block, e.g. print(read_page()); or, if the task is done, call "
           "final_answer(...)."))


def promises_an_action(content: str) -> bool:
    """Whether the reply is short and ends by saying it will do something ("Let me click
    Submit.")."""
    content = content.strip()
    return len(content) <= _SHORT and bool(_PROMISE.search(content))


def unread_call_note(content: str, tools: Collection[str], notes: Notes) -> str | None:
    """What to tell the model when its reply is a call that could not be read, else None."""
    problem = why_unread(content, tools)
    if problem is None:
        return None
    return notes.unread.format(problem=f": {problem}" if problem else "")


def quoted_before_acting_note(content: str, tools: Collection[str], notes: Notes) -> str | None:
    """What to tell a model whose reply, before anything ran this turn, shows a call of its own
    tools in a code block and says more after it: small models write "Here's how I'll call
    read_page: ```json {...}``` This will read the page" (Qwen2.5-Coder-0.5B, llama.cpp, the
    real-model bench). Nothing it read can have put the call there yet (a call copied from the
    page or a selection is refused when made: page_quotes.py), so it is told, once a turn, that
    nothing ran; an answer that quotes a call after the turn read something stays an answer."""
    if not quotes_a_call(content, tools):
        return None
    return notes.shown
