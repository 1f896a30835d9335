"""The tools a turn in the extension gives the agent, and what each costs a request: what
`python -m tabagent --list-tools` prints, with no browser and no model.

The agent is built as a turn builds it (turns.py `build_agent`: the page tools, ask_user, the
developer's own tools from py/user_tools or the folder given, final_answer), for the
tool-calling agent and the full tool set, a model that takes images. Each tool's cost is its
schema as a request sends it, in tokens as the agent estimates them (tokens.py). A tool a
request does not list (an example, `example = True`) is reached through more_tools.
"""

from __future__ import annotations

import json

from ..testing import ScriptedModel
from ..tokens import count_text
from .turns import build_agent
from .user_tool_page import with_page
from .user_tools import describe_problem, load_user_tools

SETTINGS = {"agent": "tool_calling", "tool_set": "full", "model_sees_images": "yes", "base_url": "http://127.0.0.1:9/v1"}


class NoBrowser:
    """The page bridge where there is no browser: the tools are listed, never called."""

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        return {"ok": False, "error": "there is no browser here"}

    async def confirm(self, ask_id, tool, message, details) -> str:
        return "deny"


def tool_costs(folder=None) -> tuple[list[dict], list[dict]]:
    """([{"name", "whose" ("TabAgent" or "yours"), "listed", "tokens"}], the files' problems)."""
    own, problems = load_user_tools(folder)
    page = NoBrowser()
    agent = build_agent({"conversation_id": "list-tools", "settings": SETTINGS}, lambda event: None,
                        tools=with_page(own, page), page=page, model=ScriptedModel([]))
    listed, yours = {t.name for t in agent.listed_tools()}, {t.name for t in own}
    rows = [{"name": t.name, "whose": "yours" if t.name in yours else "TabAgent", "listed": t.name in listed,
             "tokens": count_text(json.dumps(t.to_openai(), ensure_ascii=False))} for t in agent.tools.values()]
    return rows, problems


def costs_table(rows: list[dict], problems: list[dict], folder_shown: str) -> str:
    """The rows as the command line prints them, totals and problems last."""
    width = max(len(row["name"]) for row in rows)
    lines = [f"The tools a turn in TabAgent gives the agent (tool calling, a model that takes images), with your "
             f"tools from {folder_shown}; tokens: each schema as a request sends it, estimated.", ""]
    lines += [f"{row['name']:<{width}}  {row['whose']:<8}  {row['tokens']:>5}"
              + ("" if row["listed"] else "  (not listed: reached through more_tools)") for row in rows]
    listed = [row for row in rows if row["listed"]]
    yours = [row for row in listed if row["whose"] == "yours"]
    lines += ["", f"Listed in every request: {len(listed)} tools, {sum(row['tokens'] for row in listed)} tokens "
                  f"({sum(row['tokens'] for row in yours)} of them yours)."]
    lines += [f"Not loaded: {describe_problem(problem)}" for problem in problems]
    return "\n".join(lines)
