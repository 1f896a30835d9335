"""TabAgent: a Python agent that lives in the browser's side panel.

    from tabagent import OpenAIModel, ToolCallingAgent, tool

    @tool
    def add(a: int, b: int) -> int:
        \"\"\"Add two numbers.

        Args:
            a: the first number.
            b: the second number.
        \"\"\"
        return a + b

    agent = ToolCallingAgent(OpenAIModel("https://api.openai.com/v1", key, "gpt-4o-mini"), [add])
    answer = await agent.run("What is 2 + 3?")
"""

__version__ = "0.1.0"

from .agent import Agent
from .code_agent import CodeAgent
from .errors import ModelError
from .events import Event
from .executor import ExecutionResult, Executor, LocalExecutor
from .host import Host, Response
from .hosts import default_host
from .managed import AgentTool
from .memory import ActionStep, FinalAnswerStep, Memory, TaskStep
from .models import Model, OpenAIModel
from .replies import ModelReply, ToolCall
from .tool_calling_agent import ToolCallingAgent
from .tools import FinalAnswerTool, Tool, ToolInputError, tool

__all__ = [
    "ActionStep", "Agent", "AgentTool", "CodeAgent", "Event", "ExecutionResult", "Executor",
    "FinalAnswerStep", "FinalAnswerTool", "Host", "LocalExecutor", "Memory", "Model",
    "ModelError", "ModelReply", "OpenAIModel", "Response", "TaskStep", "Tool",
    "ToolCall", "ToolCallingAgent", "ToolInputError", "default_host", "tool",
]
