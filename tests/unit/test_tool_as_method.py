"""A tool asked of a value as its method or attribute (`found.find_in_page(...)`) is told, from the
error's type and the attribute Python names, how the tool is called (code_repeats.py).

The replies are Qwen2.5-Coder-0.5B's as the CodeAgent on the real-model bench, kettle-price at
0964a2e (tests/helpers/recorded_0964a2e.py): the same failing block 7 times after the first.
"""

import pytest

from tabagent import CodeAgent
from tabagent.code_repeats import Failure, tool_as_method
from tabagent.testing import ScriptedModel
from tests.helpers.logged_read_page import logged_read_page
from tests.helpers.recorded_0964a2e import KETTLE, KETTLE_AGAIN, KETTLE_FIRST, find_in_page

pytestmark = pytest.mark.timeout(30)


async def test_a_tool_asked_of_a_value_as_its_method_is_told_how_to_call_it():
    """kettle-price at 0964a2e: `found.find_in_page(...)` on the text read_page returned raised
    AttributeError: 'str' object has no attribute 'find_in_page', and the 0.5B, told only the traceback
    and "Fix the code and try again.", wrote "you need to ensure that the `find_in_page` method is called
    on a string object" and the same block again, 7 times."""
    model = ScriptedModel([KETTLE_FIRST, KETTLE_AGAIN, "```python\nfinal_answer('£24.50')\n```"])
    await CodeAgent(model, [logged_read_page("Blue enamel kettle £24.50", []), find_in_page]).run(KETTLE)
    first = model.calls[1]["messages"][-1]["content"]
    assert "AttributeError: 'str' object has no attribute 'find_in_page'" in first  # the traceback, this once
    assert ("`find_in_page` is one of your tools, a function of its own, not a method or an attribute of a value "
            "(`found.find_in_page`): call it by itself, e.g. `find_in_page('blue enamel kettle', context_chars=80, "
            "case_sensitive=False)`, as the prompt lists it:\n"
            "- find_in_page(query, context_chars = 80, case_sensitive = False) -> str\n") in first
    again = model.calls[2]["messages"][-1]["content"]
    assert "This code failed as your code in step 1 did" in again and "`find_in_page` is one of your tools" in again


def test_only_a_tool_missing_from_a_value_is_told_as_a_tool():
    tools = {"find_in_page": None, "click": None}
    said = Failure("price = found.find_in_page('kettle').text", "AttributeError: 'str' object has no attribute 'find_in_page'")
    assert tool_as_method(said, tools) == ("found", "find_in_page", "find_in_page('kettle')")
    assert tool_as_method(Failure("page.click('ta-3')", "AttributeError: 'NoneType' object has no attribute 'click'"),
                          tools) == ("page", "click", "click('ta-3')")
    assert tool_as_method(Failure("f = found.click", "AttributeError: 'str' object has no attribute 'click'"),
                          tools) == ("found", "click", "")  # not called: no call to show
    assert tool_as_method(Failure("x = found.strip_all()", "AttributeError: 'str' object has no attribute 'strip_all'"),
                          tools) is None  # not a tool: the traceback says it all
    assert tool_as_method(Failure("", "NameError: name 'click' is not defined"), tools) is None
    unparsed = Failure("    .find_in_page('kettle')", "AttributeError: 'str' object has no attribute 'find_in_page'")
    assert tool_as_method(unparsed, tools) == ("", "find_in_page", "")  # a line of a longer statement
