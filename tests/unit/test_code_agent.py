"""The loop with a CodeAgent, a scripted model and the local executor."""

import pytest

from tabagent import CodeAgent, ExecutionResult, Executor, tool
from tabagent.testing import ScriptedModel

pytestmark = pytest.mark.timeout(10)


@tool
async def lookup(city: str) -> dict:
    """Facts about a city.

    Args:
        city: The city's name.
    """
    return {"Paris": {"population": 2_100_000}, "Lyon": {"population": 520_000}}[city]


def fenced(code, tag="python"):
    return f"Thinking about it.\n```{tag}\n{code}\n```"


async def test_code_calls_tools_without_await_and_ends_with_final_answer(recorder):
    model = ScriptedModel([
        fenced("paris = lookup('Paris')\nlyon = lookup(city='Lyon')\nprint(paris['population'] + lyon['population'])"),
        fenced("final_answer(paris['population'] > lyon['population'])"),
    ])
    agent = CodeAgent(model, [lookup], listeners=[recorder])
    assert await agent.run("Is Paris bigger than Lyon?") is True
    assert recorder.kinds() == ["step_start", "token", "code", "tool_call", "tool_result", "tool_call",
                                "tool_result", "code_output", "step_start", "token", "code",
                                "code_output", "final_answer", "done"]
    assert recorder.of("code_output")[0].data == {"output": "2620000\n", "is_error": False}
    assert recorder.of("tool_call")[1].data["arguments"] == {"city": "Lyon"}
    assert recorder.of("final_answer")[0].data == {"answer": True}
    # The model saw its own reply and then the printed output.
    assert model.calls[1]["messages"][-1] == {"role": "user", "content": "Observation:\nOutput:\n2620000\n"}
    assert model.calls[0]["tools"] is None  # code agents do not use native tool calling
    prompt = model.calls[0]["messages"][0]["content"]
    assert "- lookup(city) -> dict:" in prompt and "- final_answer(answer)" in prompt
    assert "city (str): " in prompt


async def test_errors_are_observations_with_only_the_models_frames(recorder):
    # The answer's 1 is in nothing read, and the only call failed: told once (unfounded.py), then taken.
    model = ScriptedModel([fenced("x = 1\nlookup('Atlantis')"), fenced("final_answer(x)"), fenced("final_answer(x)")])
    agent = CodeAgent(model, [lookup], listeners=[recorder])
    assert await agent.run("go") == 1
    output = recorder.of("code_output")[0].data
    assert output["is_error"]
    assert output["output"] == ('Traceback (most recent call last):\n  File "<agent code>", line 2, '
                                "in <module>\n    lookup('Atlantis')\nKeyError: 'Atlantis'\n")
    assert recorder.of("tool_result")[0].data == {"id": recorder.of("tool_call")[0].data["id"],
                                                  "name": "lookup", "is_error": True,
                                                  "result": "KeyError: 'Atlantis'"}
    assert "Fix the code and try again." in model.calls[1]["messages"][-1]["content"]


async def test_wrong_tool_arguments_raise_inside_the_code():
    model = ScriptedModel([fenced("lookup(['Paris'])"), fenced("final_answer('ok')")])
    agent = CodeAgent(model, [lookup])
    await agent.run("go")
    assert "ToolInputError: lookup: argument 'city' should be string, got array [\"Paris\"]" in \
        model.calls[1]["messages"][-1]["content"]


@pytest.mark.parametrize("reply", [
    "```py\nfinal_answer(6 * 7)\n```",
    "```Python\nfinal_answer(6 * 7)\n```<end_code>",
    "~~~\nfinal_answer(6 * 7)\n~~~",
    "<code>final_answer(6 * 7)</code>",
    "Here goes:\n```python\nfinal_answer(6 * 7)",  # no closing fence
    "final_answer(6 * 7)",                           # no fence at all
])
async def test_fence_mistakes_are_recovered(reply):
    assert await CodeAgent(ScriptedModel([reply]), []).run("6*7") == 42


async def test_prose_without_code_is_the_answer():
    assert await CodeAgent(ScriptedModel(["It is 42."]), []).run("?") == "It is 42."


async def test_variables_persist_between_steps_and_reset_clears_them():
    model = ScriptedModel([fenced("n = 41"), fenced("final_answer(n + 1)"), fenced("final_answer('n' in dir())")])
    agent = CodeAgent(model, [])
    assert await agent.run("a") == 42
    assert await agent.run("b") is False  # a new conversation: a fresh namespace


async def test_a_custom_executor_receives_code_and_tools():
    class RecordingExecutor(Executor):
        def __init__(self):
            self.runs = []

        async def run(self, code, tools):
            self.runs.append((code, sorted(tools)))
            return ExecutionResult(output="", is_final=True, final_value="from executor")

    executor = RecordingExecutor()
    agent = CodeAgent(ScriptedModel([fenced("anything()")]), [lookup], executor=executor)
    assert await agent.run("x") == "from executor"
    assert executor.runs == [("anything()", ["lookup", "more_tools", "note"])]


async def test_long_output_is_cut_with_a_note():
    model = ScriptedModel([fenced("print('y' * 3000)"), fenced("final_answer(1)")])
    agent = CodeAgent(model, [], max_observation_chars=500)
    await agent.run("x")
    observation = model.calls[1]["messages"][-1]["content"]
    assert "[... cut 2,501 of 3,001 characters. To see the rest, keep the value in a variable" in observation
