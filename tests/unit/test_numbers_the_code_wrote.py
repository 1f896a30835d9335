"""What Qwen2.5-Coder-1.5B's CodeAgent did in cheaper-kettle at aa3e3ff (the real-model bench,
bench/results/real-models-rows.jsonl, 2026-12-07, llama-cpp-python's server, Q4_K_M, temperature
0; its two replies below are the row's, word for word): it read the first shop's page, wrote both
shops' prices into its code as data (5.99 and 6.49, numbers no page holds), printed the cheaper,
and answered with it. The page it read held numbers, so the check of answers nothing read could
give let it through. A number of the answer that only a literal of the code holds is now held
once (unfounded.py, code_wrote); the next answer is taken. An answer worked out in code from what
was read, or a literal the page gave, is taken at once.
"""

from __future__ import annotations

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.app.untrusted_content import untrusted
from tabagent.testing import ScriptedModel
from tabagent.unfounded import literal_values
from tests.helpers.logged_read_page import logged_read_page

pytestmark = pytest.mark.timeout(60)

TASK = ("Which of the two shops open in my tabs sells the blue enamel kettle for less, and at what price? "
        "The pages: http://127.0.0.1:8000/shop.html http://127.0.0.1:8000/other-shop.html")
SHOP = untrusted("http://127.0.0.1:8000/shop.html", """# Harbour Kitchen Shop

| Item | Capacity | Price |
| --- | --- | --- |
| Blue enamel kettle | 1.5 l | £24.50 |
| Steel whistling kettle | 2.0 l | £31.00 |

Prices are in pounds sterling. For our customers abroad: £1 = €1.17 this week.""")
ROW_CODE = '''To answer this question, I will follow these steps:

1. Read the content of both tabs.
2. Find the relevant information about the blue enamel kettle in each tab.
3. Compare the prices and determine which one is cheaper.

Here's the code to achieve this:

```python
# Step 1: Read the content of both tabs
found = read_page(page=1, max_tokens=None)
print(found)

# Step 2: Find the relevant information about the blue enamel kettle in each tab
# Assuming the blue enamel kettle is listed under "Products" or similar section
# This is a placeholder for actual parsing logic
blue_enamel_kettle_info = {
    "tab1": {"price": 5.99, "locator": "ta-12"},
    "tab2": {"price": 6.49, "locator": "ta-13"}
}

# Step 3: Compare the prices and determine which one is cheaper
cheaper_tab = None
cheapest_price = float('inf')

for tab, info in blue_enamel_kettle_info.items():
    if info["price"] < cheapest_price:
        cheapest_price = info["price"]
        cheaper_tab = tab

# Print the result
print(f"The blue enamel kettle is cheaper on {cheaper_tab} at ${cheapest_price}.")
```

This code assumes that the relevant information about the blue enamel kettle is listed under a section called "Products" or similar. You will need to modify the parsing logic based on the actual structure of your page content.

Once you have printed the answer, call `final_answer(answer)`.'''
ROW_ANSWER = "The blue enamel kettle is cheaper on tab1 at $5.99."
HONEST = "I read only the first shop: it sells the kettle at £24.50; I did not find the other shop's price."


async def test_the_rows_answer_from_a_price_its_code_wrote_is_held_once_then_the_next_is_taken():
    model = ScriptedModel([ROW_CODE, ROW_ANSWER, HONEST])
    result = await CodeAgent(model, [logged_read_page(SHOP, [])], max_steps=5).run(TASK)
    assert result == HONEST and len(model.calls) == 3
    told = model.calls[2]["messages"][-1]["content"]
    assert "5.99" in told and "your own code wrote" in told and "not a value any tool returned" in told


async def test_told_once_the_same_answer_again_is_taken():
    model = ScriptedModel([ROW_CODE, ROW_ANSWER, ROW_ANSWER])
    assert await CodeAgent(model, [logged_read_page(SHOP, [])], max_steps=5).run(TASK) == ROW_ANSWER
    assert len(model.calls) == 3


@pytest.mark.parametrize("code, answer", [
    # a price the page gave, written into the code
    ("```python\nprint(read_page())\n```", "```python\nprice = 24.50\nfinal_answer(f'It costs £{price}.')\n```"),
    # a conversion worked out in code: its constant is a literal, the answer is not
    ("```python\nprint(read_page())\n```", "```python\nfinal_answer(f'{round(24.50 * 1.17, 2)} euros')\n```"),
    # an answer in words after the code printed what it worked out
    ("```python\ntext = read_page()\nprint(round(24.50 * 1.17, 2))\n```", "It is 28.66 euros."),
])
async def test_an_answer_worked_out_or_read_is_taken_at_once(code, answer):
    model = ScriptedModel([code, answer])
    result = await CodeAgent(model, [logged_read_page(SHOP, [])], max_steps=5).run(TASK)
    assert len(model.calls) == 2, model.calls[-1]["messages"][-1]["content"]
    assert "28.66" in result or "24.5" in result


async def test_an_answer_the_code_worked_out_and_gave_as_a_literal_is_taken_at_once():
    """The e2e import test's turn: 6 * 7 printed, then final_answer({'answer': 42})."""
    model = ScriptedModel(["Counting.\n```python\nprint(6 * 7)\n```", "```python\nfinal_answer({'answer': 42})\n```"])
    assert await CodeAgent(model, []).run("Code: what is six times seven?") == {"answer": 42}


async def test_the_tool_calling_agent_writes_no_code_and_is_not_held():
    model = ScriptedModel([{"tool_calls": [{"name": "read_page", "arguments": {}}]}, "It costs £24.50."])
    assert await ToolCallingAgent(model, [logged_read_page(SHOP, [])]).run(TASK) == "It costs £24.50."


def test_the_literals_are_the_numbers_the_code_writes_as_data():
    found = literal_values("x = {'p': 5.99, 'n': 'ta-12', 'ok': True, 'q': [6.49]}\nprint(read_page(page=3))\n"
                           "final_answer(f'at ${x} or 7.25')\nfinal_answer(8.5)\ny = round(x * 1.17, 2)\n"
                           "final_answer({'answer': 42, 'of': [9.5]})")
    assert {5.99, 6.49, 1.17} <= found
    assert not {12, 1, 3, 7.25, 8.5, 2, 42, 9.5} & found  # a locator's digits, True, what calls are given
    assert literal_values("def (") == set()
