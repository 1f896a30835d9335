"""The ToolCallingAgent's loops on the real-model bench at 0964a2e (issue 48: Qwen2.5-Coder 0.5B on
llama.cpp's server, bench/results/real-models-rows.jsonl, the rows with "commit": "0964a2e" and
"agent": "tabagent-tool"), each answered at its mechanism. The replies below are the rows' own;
the tools are stand-ins with the page tools' names and arguments (app/page_tools.py).
"""

import pytest

from tabagent import ToolCallingAgent
from tabagent.testing import ScriptedModel
from tabagent.tools import tool
from tests.helpers.scripted_turns import calls, told

pytestmark = pytest.mark.timeout(30)

PAGE = "Harbour Kitchen Shop. Blue enamel kettle: $24.00. Flour sack: 11 lb."


def page_tools(log):
    """read_page, list_controls, find_in_page and navigate (which acts), as the page tools take
    their arguments; each call that runs is logged with what it got."""
    @tool
    def read_page(page: int = 1, max_tokens: int | None = None) -> str:
        """Reads the page.

        Args:
            page: which part, from 1.
            max_tokens: tokens per part, about (200 to 100000); leave out to fit your window.
        """
        log.append(("read_page", page, max_tokens))
        return PAGE

    @tool
    def list_controls(within: str | None = None, page: int = 1, max_controls: int = 150) -> str:
        """Lists the page's controls.

        Args:
            within: a form or dialog (locator or CSS selector): only its controls.
            page: which part, from 1.
            max_controls: controls per part.
        """
        log.append(("list_controls", within, page, max_controls))
        return "ta-1 button Add to basket\nta-2 textbox Email"

    @tool
    def find_in_page(query: str, max_results: int = 20, context_chars: int = 80, case_sensitive: bool = False) -> str:
        """Finds a phrase on the page.

        Args:
            query: the words to find.
            max_results: at most this many matches.
            context_chars: characters of text around each match, each side.
            case_sensitive: match case.
        """
        log.append(("find_in_page", query, max_results, context_chars, case_sensitive))
        return f"1 match: {PAGE}"

    @tool
    def navigate(url: str) -> str:
        """Opens an address in the tab the tools work in.

        Args:
            url: an http(s) address, or one relative to the page.
        """
        log.append(("navigate", url))
        return f'{{"tab_id": 869268023, "url": "{url}", "title": "Harbour Kitchen Shop", "still_loading": false}}'

    navigate.acts = True
    return [read_page, list_controls, find_in_page, navigate]


def final(answer):
    return calls(("final_answer", {"answer": answer}))


# --- An empty value for an argument that takes no text --------------------------------------

# cheaper-kettle, replies 2 and 3: find_in_page with "context_chars": "" (an integer), refused twice.
FIND_BLANK = calls(("find_in_page", {"query": "blue enamel kettle", "max_results": 10, "context_chars": "",
                                     "case_sensitive": False}))


async def test_an_empty_value_for_an_optional_argument_that_takes_no_text_is_not_given(recorder):
    log = []
    model = ScriptedModel([FIND_BLANK, final("$24.00")])
    assert await ToolCallingAgent(model, page_tools(log), listeners=[recorder]).run("Kettle price?") == "$24.00"
    assert log == [("find_in_page", "blue enamel kettle", 10, 80, False)]
    assert not recorder.of("tool_result")[0].data["is_error"]
