"""Tool names as Python names for the CodeAgent: every tool callable from code under one
name, no two alike, the real name kept for the call itself."""

import keyword

from tabagent.code_names import code_names, is_python_name, python_name
from tabagent.tools import Tool


def named(name: str) -> Tool:
    tool = Tool()
    tool.name = name
    return tool


def test_names_code_cannot_call_get_the_nearest_python_name():
    assert python_name("everything__get-sum") == "everything__get_sum"
    assert python_name("files__read.file") == "files__read_file"
    assert python_name("srv__2fa") == "srv__2fa"
    assert python_name("2fa") == "tool_2fa"
    assert python_name("class") == "tool_class"
    assert python_name("café-au-lait") == "caf__au_lait"
    assert python_name("read_page") == "read_page"


def test_every_tool_gets_a_distinct_python_name_and_own_names_win():
    tools = [named("srv__get-sum"), named("srv__get_sum"), named("srv__get.sum"), named("final-answer"),
             named("final_answer")]
    names = code_names(tools)
    assert names["srv__get_sum"].name == "srv__get_sum"  # a real name is never taken from its tool
    assert names["srv__get_sum_2"].name == "srv__get-sum"
    assert names["srv__get_sum_3"].name == "srv__get.sum"
    assert names["final_answer"].name == "final_answer"
    assert names["final_answer_2"].name == "final-answer"
    assert len(names) == len(tools)
    assert all(is_python_name(n) and not keyword.iskeyword(n) for n in names)


def test_long_names_stay_within_sixty_four_characters():
    names = code_names([named("a-" * 40), named("a_" * 40)])
    assert all(len(n) <= 64 and is_python_name(n) for n in names)
    assert len(names) == 2


class GetSum(Tool):
    name = "srv__get-sum"
    description = "Adds two numbers."
    inputs = {"a": {"type": "integer"}, "b": {"type": "integer"}}

    def forward(self, a, b):
        return a + b


async def test_code_without_a_fence_that_calls_a_tool_by_its_python_name_is_run():
    from tabagent import CodeAgent
    from tabagent.testing import ScriptedModel

    model = ScriptedModel(["final_answer(srv__get_sum(a=40, b=2))"])
    assert await CodeAgent(model, [GetSum()]).run("add") == 42
    assert "- srv__get_sum(a, b) -> str:" in model.calls[0]["messages"][0]["content"]


class Search(Tool):
    name = "srv__search-web"
    description = "Searches."
    inputs = {"type": "object", "required": ["query"], "properties": {
        "query": {"type": "string"}, "max-results": {"type": "integer", "description": "How many."}}}

    def forward(self, **arguments):
        return arguments


async def test_an_argument_python_cannot_name_is_shown_and_passed_as_a_keyword_dict():
    from tabagent import CodeAgent
    from tabagent.testing import ScriptedModel

    signature = Search().python_signature()
    assert signature.startswith("def srv__search_web(query: str, **arguments) -> str:")
    assert '**{"max-results": int = None}: How many.' in signature
    model = ScriptedModel(['```python\nfinal_answer(srv__search_web(query="tea", **{"max-results": 2}))\n```'])
    assert await CodeAgent(model, [Search()]).run("search") == {"query": "tea", "max-results": 2}


async def test_a_call_written_as_text_under_the_tool_s_own_name_runs_under_its_python_name():
    """A model that writes its call the tool-calling way may use the name the tool has
    elsewhere (srv__get-sum): the code made of it calls the Python name."""
    from tabagent import CodeAgent
    from tabagent.testing import ScriptedModel

    model = ScriptedModel(['{"name": "srv__get-sum", "arguments": {"a": 40, "b": 2}}',
                           '{"name": "final_answer", "arguments": {"answer": "done"}}'])
    events = []
    assert await CodeAgent(model, [GetSum()], listeners=[events.append]).run("add") == "done"
    assert [e.data["code"] for e in events if e.kind == "code"][0] == "print(srv__get_sum(a=40, b=2))"
    assert "42" in model.calls[1]["messages"][-1]["content"]
