"""Every recorded reply shape (tests/unit/reply_shapes/, each file saying where its shapes
came from) is read as the calls it makes: by the reader, and through both agents, which run
those calls and never take the text as the answer."""

import json
from pathlib import Path

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.parsing import find_code, parse_arguments
from tabagent.testing import ScriptedModel
from tabagent.text_calls import read_text_calls
from tabagent.tools import Tool

pytestmark = pytest.mark.timeout(10)

SHAPES_DIR = Path(__file__).parent / "reply_shapes"
JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
              dict: "object", type(None): "null"}


def recorded_shapes():
    for path in sorted(SHAPES_DIR.glob("*.json")):
        recorded = json.loads(path.read_text(encoding="utf-8"))
        assert recorded["source"] and recorded["shapes"], path  # where they came from is said
        for shape in recorded["shapes"]:
            calls = [(name, arguments) for name, arguments in shape["calls"]]
            yield pytest.param(shape["reply"], calls, id=f"{path.stem}: {shape['family']}")


SHAPES = list(recorded_shapes())


class Recording(Tool):
    """A tool whose schema takes exactly the arguments the recorded call has."""

    def __init__(self, name, arguments, log):
        self.name, self.description, self.log = name, f"The {name} tool.", log
        self.inputs = {"type": "object", "required": list(arguments), "properties": {
            key: {"type": JSON_TYPES[type(value)]} for key, value in arguments.items()}}

    def forward(self, **arguments):
        self.log.append((self.name, arguments))
        return f"{self.name} done"


def tools_for(calls, log):
    return {name: Recording(name, arguments, log) for name, arguments in calls}


def test_every_family_the_issue_names_is_recorded():
    families = " ".join(param.id for param in SHAPES)
    for family in ("Hermes", "Qwen", "Llama 3.1", "Llama 3.2 pythonic", "Mistral v0.3", "Ministral 3",
                   "Mistral Small 3.2", "Gemma 3", "Gemma 4", "FunctionGemma", "DeepSeek R1",
                   "DeepSeek V3.1", "DeepSeek V3.2", "Phi-4-mini", "gpt-oss", "Granite", "Functionary", "Command R7B",
                   "Qwen3-Coder", "GLM", "Kimi K2", "Seed-OSS", "MiniMax-M2", "Nemotron", "LFM2",
                   "Apertus", "Firefunction", "Llama 4", "OLMo 3",
                   # issue 48's held-out shapes
                   "Step3 <steptml:invoke>", "Step3, prose around the call", "NexusRaven-V2 Call:",
                   "Gemma 3 tool_code", "Gemini default_api", "gpt-oss harmony, recipient in the header"):
        assert family in families, family


@pytest.mark.parametrize("reply, calls", SHAPES)
def test_the_reader_finds_the_calls(reply, calls):
    found = read_text_calls(reply, tools_for(calls, []))
    assert [(c.name, parse_arguments(c.arguments)) for c in found] == calls


@pytest.mark.parametrize("reply, calls", SHAPES)
async def test_the_tool_calling_agent_runs_them(reply, calls, recorder):
    log = []
    model = ScriptedModel([reply, {"tool_calls": [{"name": "final_answer", "arguments": {"answer": "done"}}]}])
    agent = ToolCallingAgent(model, list(tools_for(calls, log).values()), listeners=[recorder])
    assert await agent.run("Use the tools.") == "done"
    assert log == calls
    assert [(e.data["name"], e.data["is_error"]) for e in recorder.of("tool_result")] == \
        [(name, False) for name, _ in calls] + [("final_answer", False)]
    assert_withdrawn(recorder, calls)


def assert_withdrawn(recorder, calls):
    """The streamed call is replaced in the panel by what was said around it (`text_call`),
    which keeps no trace of the call (its prose may name the tool)."""
    said = [e.data["said"] for e in recorder.of("text_call")]
    assert len(said) == 1
    assert not any(f"{name}(" in said[0] or f'"{name}"' in said[0] for name, _ in calls)
    assert not any(mark in said[0] for mark in ("<|", "<｜", "[TOOL_CALLS]", "{", "```", "<tool"))


@pytest.mark.parametrize("reply, calls", SHAPES)
async def test_the_code_agent_runs_them(reply, calls, recorder):
    log = []
    model = ScriptedModel([reply, "```python\nfinal_answer('done')\n```"])
    agent = CodeAgent(model, list(tools_for(calls, log).values()), listeners=[recorder])
    assert await agent.run("Use the tools.") == "done"
    assert log == calls
    if find_code(reply, {name for name, _ in calls}) is None:  # a reply that is code runs as it is
        assert_withdrawn(recorder, calls)
    # What the calls returned is what the model saw next.
    seen = model.calls[1]["messages"][-1]["content"]
    assert all(f"{name} done" in seen for name, _ in calls) or "(nothing printed)" in seen


async def test_a_nested_call_is_told_to_the_tool_calling_agent_and_runs_as_code_in_the_code_agent(recorder):
    """NexusRaven-V2's own README example nests one call in another's arguments: as tool calls it
    cannot run as one, and the model is told which to make first; as code it simply runs."""
    reply = "Call: get_weather_data(coordinates=get_coordinates_from_city(city_name='Seattle'))<bot_end>"
    log = []
    coordinates = Recording("get_coordinates_from_city", {"city_name": "Seattle"}, log)
    weather = Recording("get_weather_data", {"coordinates": "x"}, log)
    model = ScriptedModel([reply, {"tool_calls": [{"name": "final_answer", "arguments": {"answer": "done"}}]}])
    assert await ToolCallingAgent(model, [coordinates, weather]).run("Weather?") == "done"
    assert log == [] and "Call get_coordinates_from_city(city_name='Seattle') first" in model.calls[1]["messages"][-1]["content"]
    model = ScriptedModel([reply, "```python\nfinal_answer('done')\n```"])
    weather.inputs["properties"]["coordinates"] = {"type": "string"}
    assert await CodeAgent(model, [coordinates, weather], listeners=[recorder]).run("Weather?") == "done"
    assert [name for name, _ in log] == ["get_coordinates_from_city", "get_weather_data"]


async def test_gemini_default_api_in_a_tool_code_fence_runs_in_the_code_agent():
    log = []
    lights = Recording("turn_on_the_lights", {}, log)
    model = ScriptedModel(["```tool_code\nprint(default_api.turn_on_the_lights())\n```", "```python\nfinal_answer('on')\n```"])
    assert await CodeAgent(model, [lights]).run("Lights!") == "on"
    assert log == [("turn_on_the_lights", {})]
