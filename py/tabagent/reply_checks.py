"""A reply with no action in it is the answer, except when it is not:

- a reply that looks like a tool call but cannot be read (cut off, broken JSON): the model
  is told what was wrong and nothing runs, as smolagents does;
- a reply that says it will act and does not ("I'll click the button."): never the answer (the
  1.5B, reminded once, gave "I will read the page, find the flour sack weight in kilograms, and
  then click on it to confirm." as its answer); reminded each time, it counts as a call that
  could not be read (reply_grammar.py holds the next reply to a call after two);
- a plan of calls, at any length ("I'll follow these steps: 1. **Read the page** ..."), and no
  call: before any call ran this turn, never the answer (told each time: a list of what it will
  do answers nothing yet); after one ran, reminded once like a promise (the steps may recount
  work done);
- a reply that shows a call of one of the agent's tools in a code block, whether it says it makes
  it ("I'll use read_page. Here's how I'll call it: ```json {...}```") or not ("I'm sorry, the
  text is not helpful. ```json {find_in_page ...}``` This will return the locator"): never the
  answer while steps remain (out of steps, never either: Agent.answer_in); the model is shown,
  each time, the call written the way that runs, and the reply counts as a call that could not be
  read (reply_grammar.py holds the next reply to a call after two);
- an answer given before anything was read, to a message that points at a page (an address,
  "this page", "the tab"): the model is told once a turn that it has not read the page yet;
- an answer that says back what the model was given this turn (a note, an error, a page read
  with its marking) is not the answer: said_back.py.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, fields

from .excerpt import OPENING
from .our_notes import our_notes
from .quoted_text import quoted_spans
from .replies import ToolCall
from .text_calls import quotes_a_call, split_text_calls, why_unread

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
    shown: str  # a call shown in a code block, not made, nor said to be ({name}, {call})
    unread_page: str  # an answer before anything was read, to a message about a page ({call})
    announced: str  # a call said to be made and only shown in a code block ({name}, {call})
    planned: str  # a plan of calls, none made (plans_calls)
    read_it: str  # the call that reads the page, written the way that runs ({call}): ends a note
    instead: str  # what to call instead of saying an error back ({tools}: the agent's, as it lists them)

    def __post_init__(self) -> None:
        our_notes(*(getattr(self, field.name) for field in fields(self)))  # said_back.py: ours


TOOL_NOTES = Notes(
    unread=("Your reply looks like a tool call, but it could not be read{problem}. Nothing was "
            "run. Send the call again, complete, with its arguments as a JSON object; or, if you "
            "meant to answer, answer in plain words."),
    reminder=("You said what you would do, but made no tool call, so nothing was done. Make the "
              "call now; or, if the task is done, give your final answer."),
    shown=("Your reply shows a call of {name} inside a code block, and a call in a code block is never "
           "run: nothing was done. To make it, reply with the call alone, with nothing before or after "
           "it:\n{call}\nIf you meant to answer, answer in plain words, without the call."),
    unread_page=("You have not read the page yet: no tool ran in this turn, so nothing on the page is "
                 "in your answer (an address in the message says where the page is, not what is on "
                 "it). Call {call} first, then answer from what it shows; if the question needs no "
                 "page, give your answer again."),
    announced=("You said you would call {name}, but you only showed the call in a code block, and a "
               "call in a code block is never run: nothing was done. To make it, reply with the call "
               "alone, with nothing before or after it:\n{call}\nIf you meant to answer instead, answer "
               "in plain words, without the call."),
    planned=("You wrote a plan of tool calls but made none of them, so nothing was done. Make the first "
             "call of your plan now, the call itself; or, if the task is done, give your final answer."),
    read_it="To read it, reply with this call alone:\n{call}",
    instead="Call one of your tools instead: {tools}.")

CODE_NOTES = Notes(
    unread=("Your reply looks like a tool call, but it could not be read{problem}. Nothing was "
            "run. Write the call as Python in a ```python block, e.g. click(locator=\"#submit\"); "
            "or, if you meant to answer, call final_answer(...)."),
    reminder=("You said what you would do, but wrote no code, so nothing ran. Write the code now "
              "in a ```python block; or, if the task is done, call final_answer(...)."),
    shown=("Your reply shows a call of {name} in a code block that is not Python, and only Python "
           "runs: nothing ran. To make it, write it as Python:\n```python\n{call}\n```\nIf the task "
           "is done instead, call final_answer(...)."),
    unread_page=("You have not read the page yet: no tool ran in this turn, so nothing on the page is "
                 "in your answer (an address in the message says where the page is, not what is on "
                 "it). Read it first, e.g. print({call}) in a Python code block, then answer with "
                 "final_answer(...) from what it prints; if the question needs no page, give your "
                 "answer again."),
    announced=("You said you would call {name}, but you only showed the call in a code block that is "
               "not Python, and only Python runs: nothing ran. To make it, write it as Python:\n"
               "```python\n{call}\n```\nIf the task is done instead, call final_answer(...)."),
    planned=("You wrote a plan of tool calls but no code, so nothing ran. Write the code for the first "
             "step of your plan now, in a ```python block; or, if the task is done, call final_answer(...)."),
    read_it="To read it, write this block:\n```python\n{call}\n```",
    instead="Write code that calls one of your tools instead; as the prompt lists them:\n{tools}")


def promises_an_action(content: str) -> bool:
    """Whether the reply is short and ends by saying it will do something ("Let me click
    Submit.")."""
    content = content.strip()
    return len(content) <= _SHORT and bool(_PROMISE.search(content))


# A sentence that says what the reply will do and introduces it ("To find the weight, I'll follow
# these steps:"), then the steps, one a line ("1. **Read the page**: ...", "- Click Subscribe").
_PLAN = re.compile(
    r"\b(?:i['’]ll|i will|i am going to|i['’]m going to|let me|let['’]s|i need to|i should|we['’]ll|we will|"
    r"here['’]s (?:how|what) i)\b[^.!?\n]*:[ \t]*$", re.IGNORECASE | re.MULTILINE)
_STEP = re.compile(r"^[ \t]*(?:\d+[.)]|[-*•])[ \t]+(.*)$", re.MULTILINE)
_NOT_WORK = ("final_answer", "note", "more_tools")


def plans_calls(content: str, tools: Collection[str]) -> bool:
    """Whether the reply, at any length, sets out what it will do (a sentence that says so and ends
    in a colon) as two or more steps, one of which is a call of one of `tools` (names it, or says
    its words in order: "1. **Read the page**" for read_page, "2. Click Subscribe" for click): a
    plan of calls (Qwen2.5-Coder-0.5B, flour-kg at 9dad3e1, 1,024 tokens of it). A long answer that
    says "I'll" sets out no steps of the agent's tools ("1. Get 500 g of flour" is no
    get_selection), and stays the answer."""
    opening = _PLAN.search(content)
    if opening is None:
        return False
    steps = [m[1].lower() for m in _STEP.finditer(content, opening.end())]
    return len(steps) >= 2 and any(_names_a_call(step, name.lower()) for step in steps
                                   for name in tools if name not in _NOT_WORK)


def _names_a_call(step: str, tool: str) -> bool:
    """Whether a step names `tool`, or starts with its first word and holds the rest of its words
    in order (read_page: "Read the page"; find_in_page: "Find it in the page")."""
    first, *rest = tool.split("_")
    step_words = re.findall(r"\w+", step)
    if tool in step:
        return True
    if not step_words or step_words[0] != first:
        return False
    return re.search(r"\b" + r"\b.*\b".join(map(re.escape, rest)) + r"\b", step) is not None if rest else True


def unread_call_note(content: str, tools: Collection[str], notes: Notes) -> str | None:
    """What to tell the model when its reply is a call that could not be read, else None."""
    problem = why_unread(content, tools)
    if problem is None:
        return None
    return notes.unread.format(problem=f": {problem}" if problem else "")


def shown_call(content: str, tools: Collection[str]) -> ToolCall | None:
    """The call of one of `tools` (not final_answer) that a reply shows in quoted text (a code
    block) without making it; else None. Qwen2.5-Coder-1.5B, after reading the page, answered "I'm
    sorry, but the text returned by the `read_page` function is not helpful ... ```json
    {"name": "find_in_page", ...}``` This will return the locator" (real-model bench, kettle-price,
    6881571): the user got that as the answer. A call copied from the page or a selection is
    refused when made (page_quotes.py), so the call shown is the model's own next step."""
    if not quotes_a_call(content, tools):
        return None
    _, found = split_text_calls(content, tools, anywhere=True)
    return next((call for call in found if call.name in tools and call.name != "final_answer"), None)


# "I'll use the `read_page` function", "Here's how I would call it", "Let me call read_page":
# the reply says that it makes a call (Qwen2.5-Coder-0.5B, the real-model bench).
_ANNOUNCES = re.compile(
    r"\b(?:i['’]ll|i will|i would|i['’]d|i am going to|i['’]m going to|i need to|i should|let me|let['’]s|"
    r"we['’]ll|we will)\s+(?:\w+\s+){0,2}?(?:call|use|invoke|run|make|execute|send|try|read|fetch)\b",
    re.IGNORECASE)


def announced_call(content: str, tools: Collection[str]) -> ToolCall | None:
    """The call of one of `tools` that a reply shows in quoted text (a code block), with more of
    the reply after it, and says it makes ("To answer this question, I'll use the `read_page`
    function ... Here's how I'll call it: ```json {...}``` This will read the page at"), without
    making it; else None. Such a reply is never the answer: the model said it was not one."""
    return shown_call(content, tools) if _ANNOUNCES.search(_unquoted(content)) else None


def _unquoted(content: str) -> str:
    """`content` without its quoted spans (code blocks, `inline code`, quotes)."""
    pieces, cursor = [], 0
    for span in sorted(quoted_spans(content)):
        pieces.append(content[cursor:max(cursor, span.start)])
        cursor = max(cursor, span.end)
    return "".join(pieces) + content[cursor:]


# What points a message at a page to read: an address, or "this page", "the tab", "dieser Seite".
_POINTS_AT_A_PAGE = re.compile(
    r"\bhttps?://\S|\bwww\.\w"
    r"|\b(?:this|the|that|these|current|open|my)\s+(?:web\s?)?(?:page|tab|site|website|article)s?\b"
    r"|\b(?:diese[mnrs]?|der|die|den|dem|aktuellen?)\s+(?:web)?(?:seite|tabs?|artikel)\b", re.IGNORECASE)


class AgentsWords(str):
    """A task TabAgent wrote, not the user's message (a saved workflow's hand-over to the agent,
    after its replay acted on the page): what it names is no page the user asked to read."""
    said_by_user = False


def points_at_a_page(message: str) -> bool:
    """Whether the user's message points at a page to read (an address, "this page", "the tab")
    and does not carry the page's text itself: a selection or an attached tab comes inside the
    page-content marking, already read for the model."""
    return not OPENING.search(message) and bool(_POINTS_AT_A_PAGE.search(message))


def reading_call(tool: object, code_name: str | None = None) -> str:
    """How the unread_page note shows a call of `tool`: read_page(), fetch(...)."""
    required = (getattr(tool, "parameters", None) or {}).get("required") or []
    return f"{code_name or tool.name}({'...' if required else ''})"
