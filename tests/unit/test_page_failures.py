"""A page tool's failure, as the browser says it ("There is no element ta-12 on this page; ..."),
is an error to the agents (tools.Failed), though the model reads it as written, marked as page
text when the content script wrote it (page_bridge.failure).

Seen on the real-model bench (Qwen2.5-Coder-1.5B, ToolCallingAgent, every reply held, rows
fda372d, returns-days and cheaper-kettle): the model read the page, called
list_controls(within="ta-12") (the example locator of the tools' own descriptions then), and gave
the failure word for word as its final answer, which was taken: a failure came back as a result
like any other, so neither said_back.py's rule for errors nor its rule for marked results held it."""

from tabagent import CodeAgent
from tabagent.app.turns import Turns
from tabagent.testing import ScriptedModel

NO_ELEMENT = "There is no element ta-12 on this page; call list_controls (or find_in_page) for the locators it has."
URL = "http://127.0.0.1/shop.html"
PAGE = {"ok": True, "url": URL, "tab_id": 7,
        "result": {"markdown": "# Harbour Kitchen Shop\n\nReturns within 30 days.", "title": "Shop", "url": URL}}
TASK = "Using the shop's menu, find out within how many days I can return an unused item."
# The model's replies in the row, word for word (the held replies are bare JSON), then a right one.
REPLIES = ['{"name": "read_page", "arguments": {"page": 1, "max_tokens": 2000}}',
           '{"name": "list_controls", "arguments": {"within": "ta-12", "page": 1}}',
           '{"name": "final_answer", "arguments": {"answer": "' + NO_ELEMENT + '"}}',
           '{"name": "final_answer", "arguments": {"answer": "30 days."}}']


class Bridge:
    """The page: read_page's content, and list_controls refused by the content script, as the
    relay sends a content script's error (`from_page`: it may quote the page)."""

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        if name == "list_controls":
            return {"ok": False, "error": NO_ELEMENT, "from_page": True, "tab_id": 7, "url": URL}
        return PAGE


def bridge():
    return Bridge()


async def test_an_answer_that_says_back_a_page_tool_s_failure_is_not_taken():
    model, events = ScriptedModel(REPLIES, constraint="json_object"), []
    request = {"conversation_id": "c", "task": TASK, "settings": {"base_url": "http://x/v1", "agent": "tool_calling"}}
    await Turns().run(request, events.append, model=model, page=bridge())
    results = [e["data"] for e in events if e["kind"] == "tool_result"]
    failed = next(r for r in results if r["name"] == "list_controls")
    assert failed["is_error"] is True and NO_ELEMENT in failed["result"]  # read as written, marked
    said = results[2]
    assert said["name"] == "final_answer" and said["is_error"] is True
    assert said["result"].startswith("Your answer repeats the error that calling list_controls returned")
    assert [e["data"]["answer"] for e in events if e["kind"] == "final_answer"] == ["30 days."]


async def test_the_code_agent_s_code_gets_the_failure_and_it_counts_as_an_error(recorder):
    from tabagent.app.consent import CalledByHand
    from tabagent.app.page_tools import page_tools

    tools = [t for t in page_tools(bridge(), CalledByHand()) if t.name in ("read_page", "list_controls")]
    code = "```python\nprint(list_controls(within='ta-12'))\n```"
    said_back = f"```python\nfinal_answer({NO_ELEMENT!r})\n```"
    model = ScriptedModel([code, said_back, "```python\nprint(read_page())\n```", "```python\nfinal_answer('30 days.')\n```"])
    assert await CodeAgent(model, tools, listeners=[recorder]).run(TASK) == "30 days."
    calls = recorder.of("tool_result")
    assert calls[0].data["name"] == "list_controls" and calls[0].data["is_error"] is True
    assert NO_ELEMENT in model.calls[1]["messages"][-1]["content"]  # the code printed it as written
    assert "repeats the error" in model.calls[2]["messages"][-1]["content"]


async def test_the_browser_s_own_explanation_stays_an_explanation():
    """A page of the browser's own (chrome://version) cannot be read: the relay says why, not the
    content script. The user is shown it as what the tool said of the tab, not as an error
    (tests/e2e/test_page_actions.py), and the model may tell the user so in its answer."""
    said = "TabAgent cannot read or act on chrome://version/: it is one of the browser's own pages."

    class BrowserPage:
        async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
            return {"ok": False, "error": said, "url": "chrome://version/"}

    model, events = ScriptedModel([{"tool_calls": [{"name": "read_page", "arguments": {}}]}, said]), []
    request = {"conversation_id": "c", "task": "Summarize this page",
               "settings": {"base_url": "http://x/v1", "agent": "tool_calling"}}
    await Turns().run(request, events.append, model=model, page=BrowserPage())
    result = next(e["data"] for e in events if e["kind"] == "tool_result")
    assert result["result"] == said and result["is_error"] is False
