"""The workflows the user saved in the extension, as the agent's tools for one turn.

The extension keeps each workflow's source in its storage and hands them in with every turn
(the request's "workflows": [{"name", "source"}]). Each is read as data from its syntax tree
(workflow_reading.py), never imported or run: a file that is not a workflow's data is told, in
words, as a problem of the turn, and the others load.
"""

from __future__ import annotations

from .workflow_reading import NotAWorkflow, workflow_tool
from .workflow_source import tool_name


def saved_workflow_tools(workflows) -> tuple[list, list[dict]]:
    """(tools, problems) of the saved workflows: [{"name", "source"}]; a problem is
    {"file", "line", "message"}, as a user tool file's."""
    tools, problems = [], []
    for saved in workflows or ():
        if not isinstance(saved, dict):
            continue
        name = tool_name(str(saved.get("name") or ""))
        try:
            tools.append(workflow_tool(name, str(saved.get("source") or "")))
        except NotAWorkflow as refused:
            problems.append({"file": f"the workflow {name}", "line": refused.line, "message": f"not read: {refused}"})
    return tools, problems
