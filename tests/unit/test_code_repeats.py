"""Code the model writes again (code_repeats.py): an error nothing in the code can fix says the
first time what works; a block failing as one before it did is told so, not with the traceback
again; a block that printed the same twice is not run again until something acts.

The blocks are Qwen2.5-Coder-0.5B's as the CodeAgent on the real-model bench
(bench/results/real-models-rows.jsonl, the rows at 4528ad4, each step's code kept to 400
characters): flour-kg's, newsletter's and kettle-price's. What the sandbox answers to them is what
the extension's sandbox answered, in Chromium and in Firefox alike, played by a scripted executor
(tests/helpers/sandbox_said.py).
"""

import pytest

from tabagent import CodeAgent, tool
from tabagent.app.sandbox_executor import SandboxExecutor
from tabagent.code_repeats import Failure, block_key, cannot_work_here, failure_in
from tabagent.testing import ScriptedModel
from tests.helpers.logged_read_page import logged_read_page
from tests.helpers.sandbox_said import NO_REQUESTS, SANDBOX_SAYS, SandboxPlayed

pytestmark = pytest.mark.timeout(30)

# flour-kg's block, all eight times (the row keeps its first 400 characters: closed here).
FLOUR_BLOCK = ("```python\nfrom bs4 import BeautifulSoup\n\n# Step 1: Read the page\nurl = \"http://127.0.0.1:41083/shop.html\"\n"
               "response = requests.get(url)\nsoup = BeautifulSoup(response.text, 'html.parser')\n\n"
               "# Step 2: Extract the weight information\nweight_locator = soup.find('div', {'class': 'product-info'})\n"
               "if weight_locator:\n    weight_text = weight_locator.text.strip()\n    print(weight_text)\n```")
# newsletter's block, all eight times.
READ_BLOCK = "```python\nfound = read_page()\nprint(found)\n```"
# kettle-price's last six blocks: our own error, given back as code.
ERROR_AS_CODE = "```python\nTypeError: 'NoneType' object is not callable\n\nFix the code and try again.\n```"
FLOUR = "How many kilograms is the flour sack? (The page is http://127.0.0.1:41083/shop.html.)"


def told(model, n) -> str:
    """What the model read last before its n-th reply (memory.py writes it as an observation): of a
    run of the same reply, sent once, what the last one got (after memory.SENT_AGAIN's line)."""
    content = model.calls[n]["messages"][-1]["content"]
    assert content.startswith("Observation:\n"), content
    return content.removeprefix("Observation:\n").rpartition(" in a row. What the last one got:\n")[2]


def page_tools(log):
    @tool
    def list_controls(within: str = "") -> str:
        """Lists the page's controls.

        Args:
            within: a form
        """
        return "ta-1 textbox Email\nta-2 button Subscribe"

    @tool
    def type_text(locator: str, text: str) -> str:
        """Types into a field.

        Args:
            locator: which
            text: what
        """
        log.append(("type_text", locator, text))
        return "typed"
    type_text.acts = True
    return [logged_read_page("Newsletter. Email: [      ] [Subscribe]", log), list_controls, type_text]


def test_what_the_sandbox_says_to_code_reaching_for_what_is_not_there_is_read_as_such():
    for said in SANDBOX_SAYS.values():
        assert cannot_work_here(failure_in(said), ["read_page"]), said
    assert failure_in(NO_REQUESTS) == Failure("response = requests.get(url)", "NameError: name 'requests' is not defined")
    soup = ("Traceback (most recent call last):\n  File \"<agent code>\", line 9, in <module>\n"
            "    price = soup.find_in_page('blue enamel kettle').text\nTypeError: 'NoneType' object is not callable\n")
    assert not cannot_work_here(failure_in(soup), ["read_page"])  # kettle-price's own mistake: code fixes it
    no_file = ("Traceback (most recent call last):\n  File \"<agent code>\", line 1, in <module>\n"
               "    rows = open('prices.csv').read()\nFileNotFoundError: [Errno 44] No such file or directory: 'prices.csv'\n")
    assert not cannot_work_here(failure_in(no_file), ["read_page"])  # an OSError code can fix: write the file first
    tool_failed = ("Traceback (most recent call last):\n  File \"<agent code>\", line 1, in <module>\n"
                   "    print(fetch(url='https://shop.example/'))\nToolInputError: fetch: the server answered 404\n")
    assert not cannot_work_here(failure_in(tool_failed), ["fetch"])  # the agent's fetch tool is a tool


def test_a_block_is_the_same_however_it_is_spaced_or_commented():
    assert block_key("x = read_page()  # read\nprint(x)") == block_key("x=read_page()\n\nprint( x )")
    assert block_key("pip install requests") == block_key("pip   install requests\n")
    assert block_key("print(1)") != block_key("print(2)")


async def test_the_first_error_of_code_that_cannot_work_here_says_the_tools_that_do():
    """Before: the traceback alone, and the 0.5B wrote the block again."""
    sandbox = SandboxPlayed({"requests.get": NO_REQUESTS})
    answer = "```python\nfinal_answer('0.91 kg')\n```"
    model = ScriptedModel([FLOUR_BLOCK, answer, answer])  # (the second: nothing has read the page, held once)
    await CodeAgent(model, page_tools([]), executor=sandbox).run(FLOUR)
    first = told(model, 1)
    assert "NameError: name 'requests' is not defined" in first  # the error itself, this once
    assert "`response = requests.get(url)` cannot work here." in first
    assert SandboxExecutor.environment in first and "e.g. print(read_page())" in first
    assert "- read_page(page = 1, max_tokens = 4000) -> str" in first and "- list_controls(" in first
    assert "- type_text(" not in first  # acting reaches no page text


async def test_a_block_failing_as_one_before_it_did_is_told_so_then_not_run_again():
    """flour-kg: the same block eight times, the same traceback told eight times (before)."""
    sandbox = SandboxPlayed({"requests.get": NO_REQUESTS})
    answer = "```python\nfinal_answer('0.91 kg')\n```"  # in nothing read: told once (unfounded.py)
    model = ScriptedModel([FLOUR_BLOCK] * 4 + [READ_BLOCK, answer, answer])
    log = []
    assert await CodeAgent(model, page_tools(log), executor=sandbox).run(FLOUR) == "0.91 kg"
    second = told(model, 2)
    assert "Traceback" not in second and second.startswith(
        "Error:\nThis code failed as your code in step 1 did: `response = requests.get(url)` raised NameError: "
        "name 'requests' is not defined.")
    assert "cannot work here" in second and "- read_page(page = 1, max_tokens = 4000) -> str" in second
    for n in (3, 4):
        assert f"You have written this same code {n} times, and it failed the same way each time (first in step 1)" \
            in told(model, n) and "was not run again" in told(model, n)
    assert sandbox.ran("requests.get") == 2 and log == [(1, 4000)]  # blocks 3 and 4 never ran; the read did


async def test_other_code_failing_on_the_same_line_the_same_way_is_told_so():
    sandbox = SandboxPlayed({"requests.get": NO_REQUESTS})
    other = FLOUR_BLOCK.replace("# Step 1: Read the page", "import json")
    model = ScriptedModel([FLOUR_BLOCK, other, *["```python\nfinal_answer('x')\n```"] * 2])
    await CodeAgent(model, page_tools([]), executor=sandbox).run(FLOUR)
    assert told(model, 2).startswith("Error:\nThis code failed as your code in step 1 did")
    assert sandbox.ran("requests.get") == 2  # other code runs: only the same block settles


async def test_our_error_written_back_as_code_is_told_as_a_repeat_not_the_same_syntax_error_again():
    """kettle-price: TabAgent's error given back as code, six times: a SyntaxError each time."""
    model = ScriptedModel([ERROR_AS_CODE] * 3 + ["```python\nfinal_answer('£24.50')\n```"] * 2)
    executor = SandboxPlayed({})
    await CodeAgent(model, page_tools([]), executor=executor).run("What does the kettle cost?")
    assert "SyntaxError" in told(model, 1)
    assert told(model, 2).startswith("Error:\nThis code failed as your code in step 1 did: "
                                     "`TypeError: 'NoneType' object is not callable` raised SyntaxError")
    assert "Change that line, or get what you need another way" in told(model, 2)
    assert "was not run again" in told(model, 3) and executor.ran("TypeError") == 2


async def test_a_block_that_printed_the_same_twice_is_not_run_again_until_something_acts():
    """newsletter: `found = read_page()` and `print(found)` eight times, the form never filled."""
    log = []
    fill = "```python\nprint(type_text(locator='#email', text='ada@example.org'))\n```"
    model = ScriptedModel([READ_BLOCK] * 4 + [fill, READ_BLOCK, "```python\nfinal_answer('Subscribed.')\n```"])
    executor = SandboxPlayed({})
    agent = CodeAgent(model, page_tools(log), executor=executor)
    assert await agent.run("Subscribe ada@example.org to the newsletter.") == "Subscribed."
    third = told(model, 3)
    assert third.startswith("You have written this same code 3 times, and it printed the same each time "
                            "(first in step 1); nothing has acted since, so it was not run again")
    assert "The user asked: Subscribe ada@example.org to the newsletter." in third
    assert "Tools you have not called yet:\n- list_controls(within = '') -> str\n- type_text(locator, text) -> str" in third
    assert "4 times" in told(model, 4) and "Newsletter. Email" not in third + told(model, 4)
    assert log == [(1, 4000), ("type_text", "#email", "ada@example.org"), (1, 4000)]  # after the act, it ran
    assert executor.ran("read_page()") == 3
