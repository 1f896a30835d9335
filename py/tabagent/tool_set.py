"""Which tools a request offers the model: every tool an agent has stays callable, but only
some are listed (their schemas sent, or told in the prompt).

- The full set: every tool but the examples (a tool marked `example = True`, such as
  py/user_tools/convert_units.py), those offered on demand (`on_demand`: a few words of what
  for, which more_tools' description says with their names: read_download) and those the model
  cannot use (`screenshot` for a model that takes no images).
- The compact set, for a small context window: of TabAgent's own tools (marked `built_in`,
  as the page tools are) the core reading and acting ones (CORE) and the notes tool, with
  one-line descriptions; the tools the user added (their own, MCP servers', managed agents)
  are listed as in the full set, in one line each.
Whatever a set leaves out is reachable: `more_tools` lists it in one line each and, given
names, lists those tools in every later request.

The setting ("tool_set": auto, full, compact) decides; on auto the window does (COMPACT_UP_TO).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .prompts import first_sentence
from .tools import Tool, ToolInputError

if TYPE_CHECKING:
    from .call_log import CallLog

SETTING_CHOICES = ("auto", "full", "compact")
# Windows (tokens) up to which "auto" gives the compact set: Ollama's 4,096 below 24 GiB of
# memory, a local server's usual 8,192, and the 16,384 some give.
COMPACT_UP_TO = 16_384
# The tools a compact request lists: read, find, list the controls, act on them, keep notes.
CORE = ("read_page", "find_in_page", "list_controls", "click", "type_text", "press_key", "navigate",
        "note", "ask_user", "final_answer")
# Tools that show the model a picture, or go by one: offered only to a model that takes images (vision.py).
NEEDS_SIGHT = ("screenshot", "click_at", "move_pointer")  # these two go by a screenshot's points


def compact_for(setting: str, window_tokens: int | None) -> bool:
    """Whether a request gets the compact set, by the setting and the window."""
    if setting in ("full", "compact"):
        return setting == "compact"
    return window_tokens is not None and window_tokens <= COMPACT_UP_TO


class ToolSet:
    """The listing state of one agent's tools: which set, and what the model asked to add."""

    def __init__(self, setting: str = "auto") -> None:
        self.setting = setting if setting in SETTING_CHOICES else "auto"
        self.compact = setting == "compact"
        self.added: set[str] = set()  # named through more_tools: listed from then on

    def listed(self, tools: dict[str, Tool], sees_images: bool) -> list[Tool]:
        """The tools a request lists, in the agent's order; more_tools when something is left out."""
        usable = [t for t in tools.values() if sees_images or t.name not in NEEDS_SIGHT]
        shown = [t for t in usable if t.name != MoreTools.name and self._shows(t)]
        if len(shown) < len(usable) - (MoreTools.name in tools):
            shown.insert(len(shown) - (shown[-1].name == "final_answer" if shown else 0), tools[MoreTools.name])
        return shown

    def left_out(self, tools: dict[str, Tool], sees_images: bool) -> list[Tool]:
        listed = {t.name for t in self.listed(tools, sees_images)}
        return [t for t in tools.values() if t.name not in listed and t.name != MoreTools.name
                and (sees_images or t.name not in NEEDS_SIGHT)]

    def _shows(self, tool: Tool) -> bool:
        if tool.name in self.added:
            return True
        if getattr(tool, "example", False) or getattr(tool, "on_demand", False):
            return False
        return not self.compact or tool.name in CORE or not getattr(tool, "built_in", False)


class ToolHolder(Protocol):
    """What more_tools reads of its agent (agent.Agent): its tools and their listing, whether
    it sees images, and the run's calls and step (one full listing a run)."""
    tools: dict[str, Tool]
    tool_set: ToolSet
    calls: CallLog
    step: int

    @property
    def sees_images(self) -> bool: ...


class MoreTools(Tool):
    """Lists the tools a request left out, and adds the ones the model names."""
    built_in = True  # TabAgent's own: told in one sentence in a compact request
    name = "more_tools"
    inputs = {"properties": {"names": {"type": "array", "items": {"type": "string"},
                                       "description": "names from the list it gives"}}}

    def __init__(self, agent: ToolHolder) -> None:
        self.agent = agent
        self.listed_in: tuple | None = None  # (the run's call log, the step) it gave its list in

    @property
    def description(self) -> str:
        """What it has to offer: a compact set leaves out TabAgent's own tools, a full one only examples."""
        if self.agent.tool_set.compact:
            return ("Lists more tools (reading tables, links, tabs, downloads, forms, scrolling and others), "
                    "one line each; with names, makes those tools available.")
        on_demand = [t for t in self.agent.tools.values() if getattr(t, "on_demand", False)]
        if on_demand:  # told here by name, listed when asked for: the request stays within its budget
            said = " and ".join(f"{t.name} ({t.on_demand})" for t in on_demand)
            return f"Lists {said} and example tools; with names, makes those available."
        return "Lists the example tools, one line each; with names, makes those available."

    def forward(self, names: list[str] | None = None) -> str:
        if refused := self.agent.calls.books_refusal(self.name):  # call_log.py: no loop of listings
            raise ToolInputError(refused)
        left = {t.name: t for t in self.agent.tool_set.left_out(self.agent.tools, self.agent.sees_images)}
        if not names:
            return self._listing(left)
        unknown = [n for n in names if n not in self.agent.tools]
        if unknown:
            raise ToolInputError(f"no tool named {', '.join(unknown)}; call more_tools() for the list")
        new = [n for n in names if n in left]
        self.agent.tool_set.added.update(new)
        already = "; ".join(f"{n} was available already" for n in names if n not in left)
        added = "Now available: " + "; ".join(f"{n}: {first_sentence(self.agent.tools[n].description)}"
                                              for n in new) if new else ""
        return ". ".join(part for part in (added, already) if part) + "."

    def _listing(self, left: dict[str, Tool]) -> str:
        """The tools left out, once per run in full; asked again, only their names."""
        if not left:
            return "Every tool is available already: use them, or give your final answer."
        if self.listed_in is not None and self.listed_in[0] is self.agent.calls:
            return (f"You have this list already (step {self.listed_in[1]}): {', '.join(left)}. Call "
                    f"more_tools with the names you need, or go on with the tools you have.")
        self.listed_in = (self.agent.calls, self.agent.step)
        return "More tools (call more_tools with names to use them):\n" + "\n".join(
            f"- {t.name}: {first_sentence(t.description)}" for t in left.values())
