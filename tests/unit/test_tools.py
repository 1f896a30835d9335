"""Tools: schemas from type hints and docstrings, argument checking, stateful tools."""

from typing import Literal, Optional

import pytest

from tabagent.tools import FinalAnswerTool, Tool, ToolInputError, format_result, parse_docstring, tool


@tool
async def search(query: str, limit: int = 5, site: Optional[str] = None,
                 mode: Literal["fast", "deep"] = "fast", tags: list[str] = ()) -> list:
    """Search the web for pages.

    Uses the default engine.

    Args:
        query: What to look for.
        limit (int): How many results,
            at most.
        site: Only this site.
        mode: How hard to look.
        tags: Labels to filter by.

    Returns:
        The matching pages.
    """
    return [query, limit, site, mode, list(tags)]


def test_schema_from_hints_and_docstring():
    assert search.name == "search"
    assert search.description == "Search the web for pages.\n\nUses the default engine."
    assert search.output_type == "array"
    assert search.parameters == {"type": "object", "required": ["query"], "properties": {
        "query": {"type": "string", "description": "What to look for."},
        "limit": {"type": "integer", "description": "How many results, at most.", "default": 5},
        "site": {"type": "string", "description": "Only this site."},
        "mode": {"type": "string", "enum": ["fast", "deep"], "description": "How hard to look.",
                 "default": "fast"},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels to filter by."},
    }}
    assert search.to_openai()["function"]["parameters"] is search.parameters


def test_python_signature_for_the_code_agent_prompt():
    assert search.python_signature().startswith(
        "def search(query: str, limit: int = 5, site: str = None, mode: \"fast\" | \"deep\" = 'fast', "
        "tags: list[str] = None) -> list:\n    \"\"\"Search the web for pages.")
    assert "        limit: How many results, at most." in search.python_signature()


class Forecast(Tool):
    """A tool as MCP servers declare them: a name code cannot call, nested arguments, $defs."""
    name = "weather__get-forecast"
    description = "The forecast."
    inputs = {"type": "object", "required": ["place", "units"], "properties": {
        "place": {"$ref": "#/$defs/Place"},
        "units": {"type": "string", "enum": ["metric", "imperial"]},
        "days": {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"const": "all"}]}},
        "filters": {"type": ["object", "null"], "additionalProperties": True}},
        "$defs": {"Place": {"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string"}, "country": {"type": "string", "enum": ["FR", "DE"]}}}}}


def test_the_signature_shows_enum_values_and_the_shape_of_nested_arguments():
    signature = Forecast().python_signature().split("\n")[0]
    assert signature == ('def weather__get_forecast(place: {"city": str, "country"?: "FR" | "DE"}, '
                         'units: "metric" | "imperial", days: list[int | "all"] = None, '
                         'filters: dict | None = None) -> str:')
    assert Forecast().python_signature("weather__get_forecast_2").startswith("def weather__get_forecast_2(")


async def test_call_with_keywords_or_positions():
    assert await search(query="cats") == ["cats", 5, None, "fast", []]
    assert await search("cats", 2, mode="deep") == ["cats", 2, None, "deep", []]


@pytest.mark.parametrize("kwargs, message", [
    ({}, "missing required argument 'query'"),
    ({"query": ["a"]}, "argument 'query' should be string, got array [\"a\"]"),
    ({"query": "a", "limit": "five"}, "argument 'limit' should be integer, got string \"five\""),
    ({"query": "a", "limit": "2.5"}, "argument 'limit' should be integer, got string \"2.5\""),
    ({"query": "a", "limit": True}, "argument 'limit' should be integer, got boolean true"),
    ({"query": "a", "mode": "slow"}, "argument 'mode' should be one of [\"fast\", \"deep\"]"),
    ({"query": "a", "tags": ["x", {"y": 1}]}, "argument 'tags'[1] should be string"),
    ({"query": "a", "q": "b"}, "unexpected argument 'q'"),
])
async def test_wrong_arguments_say_what_is_wrong(kwargs, message):
    with pytest.raises(ToolInputError) as caught:
        await search(**kwargs)
    assert message in str(caught.value)
    assert "It takes: query (required), limit (optional)" in str(caught.value)


@pytest.mark.parametrize("kwargs, received", [
    ({"query": 3, "limit": "2"}, ["3", 2, None, "fast", []]),
    ({"query": "a", "limit": 2.0, "tags": "x"}, ["a", 2, None, "fast", ["x"]]),
    ({"query": "a", "tags": '["x", "y"]'}, ["a", 5, None, "fast", ["x", "y"]]),
    ({"query": True, "tags": [1, 2]}, ["true", 5, None, "fast", ["1", "2"]]),
])
async def test_arguments_with_one_reading_are_converted_by_the_schema(kwargs, received):
    assert await search(**kwargs) == received


async def test_null_for_an_optional_argument_means_not_given():
    assert await search(query="a", limit=None) == ["a", 5, None, "fast", []]


async def test_too_many_positional_arguments():
    with pytest.raises(ToolInputError, match="takes at most 5 arguments"):
        await search("a", 1, "s", "fast", [], 6)


def test_missing_type_hint_is_refused_at_definition():
    with pytest.raises(TypeError, match="parameter 'x' needs a type hint"):
        @tool
        def bad(x):
            """Bad."""


def test_tool_with_name_and_description_overrides():
    @tool(name="plus", description="Adds.")
    def add(a: int, b: int = 1) -> int:
        return a + b
    assert (add.name, add.description, add.parameters["required"]) == ("plus", "Adds.", ["a"])


class Counter(Tool):
    name = "count"
    description = "Counts calls."
    inputs = {"step": {"type": "integer", "description": "How much to add."},
              "note": {"type": "string", "nullable": True}}
    output_type = "integer"

    def __init__(self):
        self.total = 0

    def forward(self, step, note=None):
        self.total += step
        return self.total


async def test_stateful_tool_class_with_shorthand_inputs():
    counter = Counter()
    assert counter.parameters["required"] == ["step"]
    assert await counter(step=2) == 2 and await counter(3) == 5
    with pytest.raises(ToolInputError, match="should be integer"):
        await counter(step="x")


async def test_final_answer_accepts_any_value_but_requires_one():
    final = FinalAnswerTool()
    assert await final(answer={"a": 1}) == {"a": 1}
    with pytest.raises(ToolInputError):
        await final()


def test_docstring_parsing_variants():
    summary, args = parse_docstring("Do it.\n\nArgs:\n    *args: ignored\n    x (int): the x\n"
                                    "        continued\nReturns:\n    y: not an arg")
    assert summary == "Do it." and args == {"args": "ignored", "x": "the x continued"}


def test_results_as_text():
    assert format_result("plain") == "plain"
    assert format_result({"a": [1, "é"]}) == '{"a": [1, "é"]}'
    assert format_result({1, 2}) in ("{1, 2}", "{2, 1}")
