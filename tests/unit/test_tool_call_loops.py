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
    tools = [read_page, list_controls, find_in_page, navigate]
    for t in tools:
        t.built_in = True  # TabAgent's own, as app/page_tools.py marks them
    return tools


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


# --- Arguments a tool does not take -----------------------------------------------------------

# cheaper-kettle, reply 1: find_in_page with the schema's own "required" key copied in beside the query.
FIND_REQUIRED = calls(("find_in_page", {"query": "blue enamel kettle", "case_sensitive": False, "required": ["query"]}))


async def test_an_argument_a_reading_tool_does_not_take_is_left_out_and_said_so(recorder):
    log = []
    model = ScriptedModel([FIND_REQUIRED, final("$24.00")])
    assert await ToolCallingAgent(model, page_tools(log), listeners=[recorder]).run("Kettle price?") == "$24.00"
    assert log == [("find_in_page", "blue enamel kettle", 20, 80, False)]
    result = recorder.of("tool_result")[0].data
    assert not result["is_error"] and "$24.00" in result["result"]
    assert "find_in_page has no argument 'required'" in told(model, 1)
    assert recorder.of("tool_call")[0].data["arguments"] == {"query": "blue enamel kettle", "case_sensitive": False}


async def test_a_call_with_arguments_left_out_is_the_same_call_for_the_repeat_rules():
    log = []
    plain = calls(("find_in_page", {"query": "blue enamel kettle"}))
    model = ScriptedModel([plain, FIND_REQUIRED, final("$24.00")])
    await ToolCallingAgent(model, page_tools(log)).run("Kettle price?")
    assert len(log) == 1  # find_in_page(query) with `required` beside it is find_in_page(query) again
    assert "same arguments in step 1" in told(model, 2)


# kettle-price, replies 3 and 4: navigate, then navigate again with what navigate returned copied in.
NAVIGATE = {"url": "http://127.0.0.1:46045/shop.html?location=9"}
NAVIGATE_COPIED = {**NAVIGATE, "tab_id": 869268023, "title": "Harbour Kitchen Shop", "still_loading": False}


async def test_red_team_an_argument_a_tool_that_acts_does_not_take_stops_the_act(recorder):
    """An act runs exactly as asked or not at all: an argument it does not take (one that might
    have said "only look") is never dropped to make it run."""
    log = []
    model = ScriptedModel([calls(("navigate", NAVIGATE_COPIED)), final("done")])
    await ToolCallingAgent(model, page_tools(log), listeners=[recorder]).run("Open the shop")
    assert log == []
    result = recorder.of("tool_result")[0].data
    assert result["is_error"] and "unexpected argument 'tab_id'" in result["result"]


async def test_red_team_an_argument_a_tool_not_ours_does_not_take_stops_the_call(recorder):
    """A tool of an MCP server's or the user's, read-only by its word, runs exactly as asked or
    not at all: its hints may lie, and an argument left out might have said "only look"."""
    log = []
    find = page_tools(log)[2]
    find.built_in = False
    model = ScriptedModel([FIND_REQUIRED, final("done")])
    await ToolCallingAgent(model, [find], listeners=[recorder]).run("Kettle price?")
    assert log == []
    result = recorder.of("tool_result")[0].data
    assert result["is_error"] and "unexpected argument 'required'" in result["result"]


# --- An act refused before it ran ------------------------------------------------------------

async def test_an_act_refused_for_its_arguments_twice_is_not_asked_again_and_acted_nothing(recorder):
    """kettle-price, replies 1 to 7: read_page twice, navigate, then navigate four times with what
    navigate returned copied in, each refused for its arguments. A call refused by its check never
    ran: it acted on nothing, so it neither wipes what the repeat rules know nor escapes them."""
    log = []
    read = calls(("read_page", {"page": 1, "max_tokens": 100000}))
    copied = calls(("navigate", NAVIGATE_COPIED))
    model = ScriptedModel([read, read, calls(("navigate", NAVIGATE)), copied, copied, copied, copied,
                           final("$24.00")])
    await ToolCallingAgent(model, page_tools(log), listeners=[recorder]).run(
        "How much does the blue enamel kettle cost? (The page is http://127.0.0.1:46045/shop.html.)")
    assert [entry[0] for entry in log] == ["read_page", "navigate"]
    assert "unexpected argument 'tab_id'" in told(model, 4) and "unexpected argument 'tab_id'" in told(model, 5)
    for n in (6, 7):  # failed twice the same way: not run again, told in other words each time
        assert "not run" in told(model, n) and "unexpected argument 'tab_id'" in told(model, n)
    assert told(model, 6) != told(model, 7)


# --- Two reads in turn -------------------------------------------------------------------------

def names_held(schema: dict) -> set[str]:
    return {option["properties"]["name"]["const"] for option in schema.get("anyOf", [schema])}


async def test_two_reads_in_turn_hold_the_next_reply_from_both(recorder):
    """flour-kg, replies 0 to 7 (the first two a plan ending in the same read, here the call
    alone): read_page(max_tokens=200) three times, list_controls(within="table") twice, then the two
    in turn. Each hold kept the reply from one of them only, and it took the other: held three
    times, the run went on between the two until out of steps. Held, the reply is kept from every
    call it was told it repeated since the last act."""
    log = []
    read = calls(("read_page", {"page": 1, "max_tokens": 200}))
    controls = calls(("list_controls", {"within": "table", "page": 1}))
    model = ScriptedModel([read, read, read, controls, controls, read, controls, read, final("5 kg")],
                          constraint="json_object")
    await ToolCallingAgent(model, page_tools(log), listeners=[recorder], max_steps=8).run(
        "How many kilograms does the flour sack weigh? (The page is http://127.0.0.1:46045/shop.html.)")
    held = [call.get("reply_schema") for call in model.calls]
    assert "read_page" not in names_held(held[3]) and "list_controls" in names_held(held[3])  # read, told, read again
    assert held[4] is None and held[5] is None  # list_controls told once: nothing pressed yet
    for n in (6, 7):  # read_page asked again once settled: held from both reads
        assert held[n] is not None, n
        assert not names_held(held[n]) & {"read_page", "list_controls"}
        assert {"find_in_page", "final_answer"} <= names_held(held[n])


# --- A question for the user that says our text back -------------------------------------------

NEWSLETTER = "Subscribe me to this shop's newsletter with the email ada@example.org."
LISTED = "Call one of your tools instead: read_page, list_controls, find_in_page, click, type_text, press_key, navigate, ask_user."
# newsletter, replies 0 to 8, as the row has them: a tool that does not exist, our error called as a
# tool, our next error as the answer, then our notes as questions for the user.
NEWSLETTER_REPLIES = [
    calls(("subscribe", {"email": "ada@example.org"})),
    calls(("error", {"message": "there is no tool named 'subscribe'. Available tools: read_page, list_controls, "
                                "find_in_page, click, type_text, press_key, navigate, ask_user, note, more_tools, "
                                "final_answer"})),
    final("there is no tool named 'error'. Available tools: read_page, list_controls, find_in_page, click, "
          "type_text, press_key, navigate, ask_user, note, more_tools, final_answer"),
    calls(("ask_user", {"question": "What is the error that calling subscribe returned instead of answering the "
                                    "user's question, so it was not taken: an error says what went wrong, not "
                                    "what to answer. " + LISTED})),
    *[calls(("ask_user", {"question": "What is the error that calling subscribe returned instead of asking the user "
                                      "something of their own, so it was not asked: the user never saw that text "
                                      "and cannot answer it. " + LISTED}))] * 4,
    final("I can't help you with this question."),
]


def ask_user_tool(asked):
    @tool
    def ask_user(question: str) -> str:
        """Asks the user and waits as long as they take.

        Args:
            question: what to ask.
        """
        asked.append(question)
        return "The user answered: yes"

    ask_user.acts = ask_user.built_in = True  # as app/turns.py makes it
    return ask_user


async def test_a_question_refused_as_said_back_holds_the_next_reply_from_asking(recorder):
    log, asked = [], []
    model = ScriptedModel(NEWSLETTER_REPLIES, constraint="json_object")
    await ToolCallingAgent(model, [*page_tools(log), ask_user_tool(asked)], listeners=[recorder],
                           max_steps=8).run(NEWSLETTER)
    assert asked == []
    held = [call.get("reply_schema") for call in model.calls]
    assert held[2] is not None  # two calls not read: held to a call (as it was)
    for n in range(4, 8):  # each question refused: the next reply is held from ask_user
        assert held[n] is not None, n
        assert "ask_user" not in names_held(held[n]) and {"read_page", "final_answer"} <= names_held(held[n])
    assert any("ask_user" in e.data["message"] for e in recorder.of("error") if e.data["kind"] == "constrained")


# --- What a held reply may hold ------------------------------------------------------------------

def test_a_held_reply_holds_only_the_arguments_each_tool_takes():
    """shop-address, reply 2 (and cheaper-kettle, reply 1): find_in_page with the schema's own
    "required" key copied in as an argument. A held reply's schema names each tool's arguments
    and no others, so constrained decoding cannot write such a key."""
    import jsonschema

    from tabagent.reply_grammar import tool_call_schema
    schema = tool_call_schema(page_tools([]))
    copied = {"name": "find_in_page", "arguments": {"query": "steel whistling kettle", "case_sensitive": False,
                                                      "required": ["query"]}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(copied, schema)
    del copied["arguments"]["required"]
    jsonschema.validate(copied, schema)
    navigate = {"name": "navigate", "arguments": NAVIGATE_COPIED}  # kettle-price, replies 4 to 7
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(navigate, schema)


def test_a_held_reply_may_still_set_a_size_knob_the_description_names():
    import jsonschema

    from tabagent.reply_grammar import tool_call_schema
    controls = page_tools([])[1]
    controls.unlisted = ("max_controls",)
    assert "max_controls=150" in controls.shown()["description"]
    jsonschema.validate({"name": "list_controls", "arguments": {"max_controls": 200}}, tool_call_schema([controls]))


async def test_two_reads_strictly_in_turn_hold_the_next_reply_from_both():
    """The same two reads in turn from the start (A, B, A, B, A: shop-address at 0964a2e went
    read_page, find_in_page, read_page, find_in_page so, replies 5 to 8): each gave its text again,
    and the third read, asked once settled, holds the next reply from both."""
    log = []
    read = calls(("read_page", {"page": 1, "max_tokens": 200}))
    find = calls(("find_in_page", {"query": "steel whistling kettle", "case_sensitive": False}))
    model = ScriptedModel([read, find, read, find, read, final("14 Quay Street")], constraint="json_object")
    await ToolCallingAgent(model, page_tools(log)).run("What is the shop's address?")
    held = [call.get("reply_schema") for call in model.calls]
    assert held[:5] == [None] * 5
    assert held[5] is not None and not names_held(held[5]) & {"read_page", "find_in_page"}
    assert "final_answer" in names_held(held[5])


# --- A key written without quotes ---------------------------------------------------------------

def typing_tool(typed):
    @tool
    def type_text(locator: str, text: str, clear: bool = True, submit: bool = False) -> str:
        """Types into a field.

        Args:
            locator: the field (locator or CSS selector).
            clear: replace what it holds (false: add to it).
            submit: then submit its form (or press Enter when none).
        """
        typed.append((locator, text, clear, submit))
        return f"Typed into {locator}."

    type_text.acts = type_text.built_in = True
    return type_text


# contact-billing, reply 2 (as written: an unquoted key, read leniently): type_text with the schema's
# own `required` list beside its arguments, refused for it three times in the row.
TYPE_WITH_REQUIRED = ('```json\n{\n  "name": "type_text",\n  "arguments": {\n    "locator": "#contactus",\n'
                      '    "text": "Please send me a copy of my invoice.",\n    "clear": true,\n    "submit": false,\n'
                      '    required: ["locator", "text"]\n  }\n}\n```')


def test_a_bare_word_as_a_key_is_read_as_that_key():
    """contact-billing, replies 2, 3, 5, 6 and 8: `required:` unquoted; told each time it held no call."""
    from tabagent.parsing import parse_arguments
    from tabagent.text_calls import split_text_calls
    _, found = split_text_calls(TYPE_WITH_REQUIRED, {"type_text": typing_tool([])})
    assert [c.name for c in found] == ["type_text"]
    assert parse_arguments(found[0].arguments)["required"] == ["locator", "text"]
    # a word inside a string stays as written, and a name in a value still reads as no value
    assert parse_arguments('{"text": "a, b: c", x: 1}') == {"text": "a, b: c", "x": 1}
    with pytest.raises(ValueError):
        parse_arguments('{"text": b}')


# --- The schema's own words copied in as an argument ----------------------------------------------

async def test_the_schema_s_required_list_copied_beside_an_act_s_arguments_is_left_out(recorder):
    typed = []
    model = ScriptedModel([TYPE_WITH_REQUIRED, final("Sent.")])
    await ToolCallingAgent(model, [typing_tool(typed)], listeners=[recorder]).run("Send the shop a message")
    assert typed == [("#contactus", "Please send me a copy of my invoice.", True, False)]
    assert "type_text has no argument 'required'" in told(model, 1)


async def test_red_team_a_required_list_that_is_not_the_schema_s_still_stops_the_act():
    typed = []
    other = TYPE_WITH_REQUIRED.replace('["locator", "text"]', '["confirm"]')
    model = ScriptedModel([other, final("Sent.")])
    await ToolCallingAgent(model, [typing_tool(typed)]).run("Send the shop a message")
    assert typed == [] and "unexpected argument 'required'" in told(model, 1)


# --- An argument written beside "arguments" -----------------------------------------------------------

async def test_an_argument_of_the_tool_s_written_beside_its_arguments_is_one_of_them():
    """kettle-euros, replies 5 to 7: type_text's `text` written after the arguments' closing brace,
    beside them; refused three times for a missing `text`."""
    typed = []
    beside = ('{"name": "type_text", "arguments": {"locator": "ta-23 link \'Returns policy\'"}, '
              '"text": "\'Returns Policy\'"}')
    model = ScriptedModel([beside, final("Typed.")])
    await ToolCallingAgent(model, [typing_tool(typed)]).run("Type it")
    assert typed == [("ta-23 link 'Returns policy'", "'Returns Policy'", True, False)]


def test_a_key_beside_the_arguments_that_the_tool_does_not_take_or_already_has_is_not_read():
    from tabagent.parsing import parse_arguments
    from tabagent.text_calls import split_text_calls
    tools = {"type_text": typing_tool([])}
    written = '{"name": "type_text", "arguments": {"locator": "#a", "text": "x"}, "text": "y", "note": "z"}'
    _, found = split_text_calls(written, tools)
    assert parse_arguments(found[0].arguments) == {"locator": "#a", "text": "x"}


# report-link at 0964a2e, reply 2: a call that reads, then a second whose arguments are not valid
# JSON. Neither stood as a call (the garbled one keeps the first from ending the reply), and the
# check for a garbled call read only the first, which parses: the two blocks were the answer.
READ = '```json\n{\n  "name": "read_page",\n  "arguments": {\n    "page": 1,\n    "max_tokens": 200\n  }\n}\n```'
GARBLED_SECOND = READ + ('\n```json\n{\n  "name": "list_controls",\n  "arguments": {\n'
                         '    "within": "article.html#subheader"\n    "page": 1,\n  }\n}\n```')


async def test_a_garbled_call_after_one_that_reads_is_told_back_not_taken_as_the_answer():
    log = []
    model = ScriptedModel([READ, GARBLED_SECOND, calls(("final_answer", {"answer": "The report."}))])
    assert await ToolCallingAgent(model, page_tools(log), max_steps=8).run("Which link?") == "The report."
    assert "not valid JSON" in told(model, 2), told(model, 2)


# book-table at 0964a2e: out of steps, asked for its best answer, the reply was a find_in_page call
# in a ```json block with "Missing: None." after it, and that was given to the user as the answer.
READ_PART_4 = '```json\n{\n  "name": "read_page",\n  "arguments": {\n    "page": 4,\n    "max_tokens": 100000\n  }\n}\n```'
CALL_THEN_WORDS = ('```json\n{\n  "name": "find_in_page",\n  "arguments": {\n    "query": "The user wants to find '
                   'information about the book\'s authors.",\n    "case_sensitive": false,\n    "required": ["query"]\n'
                   '  }\n}\n```\n\nMissing: None.')


async def test_out_of_steps_a_call_quoted_with_a_few_words_after_it_is_not_the_answer():
    log = []
    model = ScriptedModel([READ_PART_4] * 3 + [CALL_THEN_WORDS])
    answer = await ToolCallingAgent(model, page_tools(log), max_steps=3).run("Book a table for two")
    assert answer.startswith("I ran out of steps (3)"), answer
    assert "find_in_page" not in answer.split(":", 1)[0]


# --- Round in a circle ---------------------------------------------------------------------------

def click_tool(log):
    @tool
    def click(locator: str) -> str:
        """Clicks an element.

        Args:
            locator: a locator a tool's result gave, or a CSS selector.
        """
        log.append(("click", locator))
        return f"Clicked {locator} (the product's name). The page did not change its address."

    click.acts = click.built_in = True
    return click


def found_tool(log):
    @tool
    def find_in_page(query: str, max_results: int = 20, context_chars: int = 80, case_sensitive: bool = False) -> str:
        """Finds a phrase on the page.

        Args:
            query: the words to find.
            max_results: at most this many matches.
            context_chars: characters of text around each match, each side.
            case_sensitive: match case.
        """
        log.append(("find_in_page", query))
        return "1 match: Blue enamel kettle: $24.00 (ta-1)"

    find_in_page.built_in = True
    return find_in_page


async def test_a_run_round_in_a_circle_is_told_once_then_held_from_its_tools(recorder):
    """kettle-price, every reply held (rows fda372d), replies 0 to 7: read_page, then
    find_in_page("Blue enamel kettle") and a click on its match ta-1, three times over, out of
    steps. Each click (an act) wiped what the repeat rules knew, so no find after it was a
    repeat: the run went round until its steps ran out."""
    log = []
    find = calls(("find_in_page", {"query": "Blue enamel kettle", "case_sensitive": False}))
    click = calls(("click", {"locator": "ta-1"}))
    model = ScriptedModel([calls(("read_page", {"page": 1, "max_tokens": 2000})), find, click, find, click, find,
                           final("The blue enamel kettle costs $24.00.")], constraint="json_object")
    agent = ToolCallingAgent(model, [found_tool(log), *page_tools(log), click_tool(log)], listeners=[recorder], max_steps=8)
    assert await agent.run("What does the blue enamel kettle cost?") == "The blue enamel kettle costs $24.00."
    results = [e.data["result"] for e in recorder.of("tool_result")]
    assert "same calls, in the same order and with the same results" not in results[3]  # once round: no circle yet
    assert "Your last 2 calls (find_in_page, click) were the same calls" in results[4]  # twice round: told
    held = [call.get("reply_schema") for call in model.calls]
    assert held[:6] == [None] * 6  # told in words first
    assert not names_held(held[6]) & {"find_in_page", "click"}  # round again all the same: held from both
    assert {"read_page", "final_answer"} <= names_held(held[6])
    assert [entry[0] for entry in log].count("click") == 2  # the third round never clicked


async def test_the_same_act_again_and_again_is_no_circle(recorder):
    """"Add three to the basket": the same click three times, each with the same result, is
    what the user asked; no read between says it changed nothing."""
    log = []
    click = calls(("click", {"locator": "#add"}))
    model = ScriptedModel([click, click, click, click, click, final("done")], constraint="json_object")
    await ToolCallingAgent(model, [*page_tools(log), click_tool(log)], listeners=[recorder]).run("Add five.")
    assert [entry[0] for entry in log].count("click") == 5
    assert not any("same calls, in the same order" in e.data["result"] for e in recorder.of("tool_result"))
    assert not any("reply_schema" in call for call in model.calls)


async def test_two_reads_of_a_page_that_changed_between_are_no_circle(recorder):
    log, pages = [], iter(["Basket: 0 items.", "Basket: 1 item."] * 3)

    @tool
    def read_basket() -> str:
        """Reads the basket."""
        return next(pages)

    add = calls(("click", {"locator": "ta-1"}))
    read = calls(("read_basket", {}))
    model = ScriptedModel([read, add, read, add, final("2 items")])
    await ToolCallingAgent(model, [read_basket, click_tool(log)], listeners=[recorder]).run("Add two.")
    assert not any("same calls, in the same order" in e.data["result"] for e in recorder.of("tool_result"))
