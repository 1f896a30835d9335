"""code_runner: the rewrite and result capture the sandbox page will reuse."""

import ast
import asyncio

from tabagent.code_runner import FinalAnswer, final_answer, rewrite, run_code


async def fetch(x):
    await asyncio.sleep(0)
    return f"<{x}>"


def show(code, names=("fetch",)):
    return ast.unparse(rewrite(code, set(names)))


def test_tool_calls_are_awaited_once():
    assert show("a = fetch(1)\nb = await fetch(fetch(2))") == \
        "a = await fetch(1)\nb = await fetch(await fetch(2))"


def test_plain_helpers_that_call_tools_become_async_and_are_awaited():
    assert show("def get(q):\n    return fetch(q)\nr = [get(q) for q in 'ab']") == \
        "async def get(q):\n    return await fetch(q)\nr = [await get(q) for q in 'ab']"


def test_generator_expressions_with_tool_calls_become_lists():
    assert show("n = sum(len(fetch(x)) for x in 'ab')") == \
        "n = sum([len(await fetch(x)) for x in 'ab'])"


def test_lambdas_methods_and_generators_are_left_alone():
    code = "f = lambda: fetch(1)\nclass A:\n    def m(self):\n        return fetch(1)\ndef g():\n    yield fetch(1)"
    assert show(code) == ast.unparse(ast.parse(code))  # unchanged: await is not allowed there


def test_last_expression_is_captured():
    assert show("x = 1\nx + 1").endswith("__tabagent_last_value__ = x + 1")


async def test_run_captures_prints_and_the_last_value_and_keeps_variables():
    namespace = {"fetch": fetch}
    first = await run_code("x = fetch('a')\nprint('got', x, sep=': ')\nx", namespace, ["fetch"])
    assert first == {"output": "got: <a>\nOut: '<a>'\n", "is_error": False, "is_final": False,
                     "final_value": None}
    second = await run_code("print(x * 2, end='!')", namespace, ["fetch"])
    assert second["output"] == "<a><a>!"


async def test_final_answer_cannot_be_swallowed_by_except_exception():
    namespace = {"final_answer": final_answer}
    result = await run_code("try:\n    final_answer({'k': 1})\nexcept Exception:\n    print('caught')",
                            namespace)
    assert result == {"output": "", "is_error": False, "is_final": True, "final_value": {"k": 1}}
    assert issubclass(FinalAnswer, BaseException) and not issubclass(FinalAnswer, Exception)


async def test_errors_show_only_user_frames_and_keep_earlier_output():
    result = await run_code("print('before')\ndef f(n):\n    return 10 / n\nf(0)", {})
    assert result["is_error"]
    assert result["output"] == (
        "before\nTraceback (most recent call last):\n"
        '  File "<agent code>", line 4, in <module>\n    f(0)\n'
        '  File "<agent code>", line 3, in f\n    return 10 / n\n           ~~~^~~\n'
        "ZeroDivisionError: division by zero\n")


async def test_syntax_errors_point_at_the_line():
    result = await run_code("x = 1\nprint(x", {})
    assert result["is_error"] and 'File "<agent code>", line 2' in result["output"]
    assert "SyntaxError" in result["output"]


async def test_exit_does_not_end_the_interpreter():
    result = await run_code("exit(1)", {})
    assert result["is_error"] and "SystemExit: 1" in result["output"]


async def test_output_is_capped_with_a_note():
    result = await run_code("print('z' * 100)", {}, max_output_chars=10)
    assert result["output"].startswith("z" * 10 + "\n[... cut 91 of 101 characters. Print less")
