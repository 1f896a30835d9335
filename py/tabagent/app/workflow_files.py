"""The workflows the user saved in the extension, loaded as user tools for one turn.

The extension keeps each workflow's source in its storage and hands them in with every turn
(the request's "workflows": [{"name", "source"}]); they are written to a folder of their own
and imported as any user tool file is (user_tools.load_user_tools: a file that fails to import
is told, the others load).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .user_tools import load_user_tools
from .workflow_source import tool_name

FOLDER = Path(tempfile.gettempdir()) / "tabagent_workflows"


def saved_workflow_tools(workflows, folder: Path = FOLDER):
    """(tools, problems) of the saved workflows: [{"name", "source"}]."""
    if not workflows:
        return [], []
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {f"{tool_name(str(w.get('name') or ''))}.py": str(w.get("source") or "") for w in workflows}
    for old in folder.glob("*.py"):
        if old.name not in wanted:
            old.unlink()
    for file, source in wanted.items():
        path = folder / file
        if not path.exists() or path.read_text() != source:
            path.write_text(source)
    return load_user_tools(folder)
