"""Managed agents: an agent handed to another agent as a tool.

The manager calls it with a `task` (and optional `context`); the managed agent runs
its own loop and its final answer is the tool's result. Its events reach the
manager's listeners one level deeper, so the side panel can indent them.
"""

from __future__ import annotations

from typing import Any, Protocol

from . import prompts
from .tools import Tool


class ManagedAgent(Protocol):
    """What the tool reads of the agent it runs (agent.Agent): who it is, and its run."""
    name: str
    description: str
    status: str | None  # "running", or how its last run ended

    async def run(self, task: str) -> Any: ...


class AgentTool(Tool):
    output_type = "string"

    def __init__(self, agent: ManagedAgent) -> None:
        if not agent.name or not agent.description:
            raise ValueError("an agent used as a tool needs a name and a description: the "
                             "manager's model reads them to decide when to call it")
        self.agent, self.name = agent, agent.name
        self.description = agent.description
        self.inputs = {"type": "object", "required": ["task"], "properties": {
            "task": {"type": "string", "description": "What to do, in full sentences: the "
                     "agent sees nothing of your conversation."},
            "context": {"type": "string", "description": "Facts or constraints it needs "
                        "(optional)."}}}

    async def forward(self, task: str, context: str | None = None) -> Any:
        if self.agent.status == "running":
            raise RuntimeError(f"{self.name} is already working on a task; call it again after "
                               f"it answers")
        answer = await self.agent.run(prompts.managed_task(self.name, task, context))
        if self.agent.status == "max_steps":
            return f"({self.name} ran out of steps; this is its best answer so far.)\n{answer}"
        return answer
