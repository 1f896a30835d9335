"""Recovering actions from weak models' replies."""

import json
import re

import pytest

from tabagent.parsing import find_code, parse_arguments
from tabagent.text_calls import read_text_calls

TOOLS = {"search", "final_answer"}


@pytest.mark.parametrize("content, expected", [
    ('{"name": "search", "arguments": {"q": "cats"}}', [("search", {"q": "cats"})]),
    ('```json\n{"name": "search", "parameters": {"q": "x"}}\n```', [("search", {"q": "x"})]),  # the whole reply
    ('Calling:\n```json\n{"name": "search", "parameters": {"q": "x"}}\n```', []),  # quoted (issue 46)
    ('<tool_call>\n{"name": "final_answer", "arguments": {"answer": "4"}}\n</tool_call>',
     [("final_answer", {"answer": "4"})]),
    ('[{"name": "search", "arguments": {"q": 1}}, {"name": "search", "arguments": {"q": 2}}]',
     [("search", {"q": 1}), ("search", {"q": 2})]),
    ('{"type": "function", "function": {"name": "search", "arguments": "{\\"q\\": 3}"}}', [("search", {"q": 3})]),
    ('{"tool": "search", "args": {"q": 4}}', [("search", {"q": 4})]),
    ('{"name": "searhc", "arguments": {"q": 5}}', [("searhc", {"q": 5})]),  # wrong name: still a call
    ('The answer is {"name": "Bob", "age": 3}.', []),  # data, not a call
    ("No JSON here {at all}.", []),
])
def test_json_tool_calls_in_text(content, expected):
    calls = read_text_calls(content, TOOLS)
    assert [(c.name, json.loads(c.arguments)) for c in calls] == expected
    assert len({c.id for c in calls}) == len(calls)


@pytest.mark.parametrize("content, code", [
    ("```python\nx = 1\n```", "x = 1"),
    ("a\n```py\nx = 1\n```\nb\n```python3\nprint(x)\n```", "x = 1\n\nprint(x)"),
    ("```json\n{}\n```\n```\ny = 2\n```", "y = 2"),
    ("Code:\n```py\nprint(1)\n```<end_code>", "print(1)"),
    ("```python\nprint(2)```", "print(2)"),
    ("Thought.\n```python\nfor i in range(3):\n    print(i)\n", "for i in range(3):\n    print(i)"),
    ("<code>\nsearch('a')\n</code>", "search('a')"),
    ("search('cats')", "search('cats')"),
    ("The capital is Paris.", None),
    ("print('hi')", None),  # valid Python, but no tool call: could just be prose about code
    ("```text\nhello\n```", None),
    ("```python\nx = 1\n```\n```python\nunclosed", "x = 1"),
])
def test_code_blocks(content, code):
    assert find_code(content, TOOLS) == code


def test_arguments_json():
    assert parse_arguments("") == {} and parse_arguments('{"a": [1]}') == {"a": [1]}
    assert parse_arguments('"{\\"a\\": 1}"') == {"a": 1}  # double-encoded
    with pytest.raises(ValueError, match=r"not valid JSON \(Expecting ',' delimiter: line 1 column 9"):
        parse_arguments('{"a": 1 "b": 2}')
    with pytest.raises(ValueError, match="must be a JSON object"):
        parse_arguments("[1, 2]")


@pytest.mark.parametrize("text, value", [
    ("{'q': 'cats', 'exact': True, 'site': None}", {"q": "cats", "exact": True, "site": None}),  # Python
    ('{"q": "cats", "tags": ["a", "b",],}', {"q": "cats", "tags": ["a", "b"]}),  # trailing commas
    ('{"q": "cats", "exact": true, "n": null, }', {"q": "cats", "exact": True, "n": None}),
    ('{"q": "it\'s", "n": {"deep": [1, 2]', {"q": "it's", "n": {"deep": [1, 2]}}),  # closing brackets cut off
    ('{"q": "cats",', {"q": "cats"}),
])
def test_arguments_read_leniently(text, value):
    assert parse_arguments(text) == value


@pytest.mark.parametrize("text, problem", [
    ('{"q": "cats and do', "cut off in the middle of a string"),  # the rest of the text is unknown
    ('{"q": ', "cut off after a key, before its value"),
    ('{"q": "cats", "n"', "closing bracket(s) missing, and what came before is not complete"),
    ('{"q": "cats"} and more', "Extra data"),
])
def test_arguments_with_more_than_one_reading_are_not_guessed(text, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_arguments(text)


@pytest.mark.parametrize("content", [
    "I searched with search(q='cats') and found three pages.",  # a mention inside a sentence
    "Use `search` to look things up.",
    "The result was [1, 2, 3].",
])
def test_prose_about_tools_is_not_a_call(content):
    assert read_text_calls(content, TOOLS) == []


@pytest.mark.parametrize("content, arguments", [
    ("{'name': 'search', 'arguments': {'q': 'cats', 'exact': True,},}", {"q": "cats", "exact": True}),
    ('<tool_call>\n{"name": "search", "arguments": {"q": "cats", "n": 3,}}\n</tool_call>', {"q": "cats", "n": 3}),
    ('<tool_call>\n{"name": "search", "arguments": {"q": "cats"}\n</tool_call>', {"q": "cats"}),  # one } short
    ('[TOOL_CALLS][{"name": "search", "arguments": {"q": "cats"}}', {"q": "cats"}),
    ("```json\n{'tool': 'search', 'args': {'q': None}}\n```", {"q": None}),
])
def test_calls_in_text_are_read_leniently(content, arguments):
    calls = read_text_calls(content, TOOLS)
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("search", arguments)]


def test_a_python_call_on_its_own_line_is_a_call():
    calls = read_text_calls("I'll look it up.\nsearch(q='cats', n=2)", TOOLS)
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("search", {"q": "cats", "n": 2})]


def test_a_bare_call_before_more_prose_is_told_where_it_must_stand():
    from tabagent.text_calls import why_unread
    reply = 'Looking it up.\n{"name": "search", "arguments": {"q": "cats"}}\nI will wait for the result.'
    assert read_text_calls(reply, TOOLS) == []
    assert "middle of your reply" in why_unread(reply, TOOLS)
    assert read_text_calls(reply.rsplit("\n", 1)[0], TOOLS)[0].name == "search"
