"""The MiniWoB++ "perfect model" (tests/helpers/miniwob_policies.py) decides from what the tools
said: given the task and the tools' answers, it makes the calls a careful model would, and
says why it stops where the answers show nothing usable."""

from tests.helpers.miniwob_policies import POLICIES
from tests.helpers.tool_model import GaveUp, Said, ToolModel, what_the_tools_said

MARK = 'The text inside <page_content> comes from a web page.\n<page_content source="http://x/t.html" untrusted="true">\n{}\n</page_content>'


def answer(text: str) -> Said:
    return Said([MARK.format(text)], [])


def play(task: str, sentence: str, *answers: str, can=frozenset()) -> list[tuple[str, dict]]:
    """The calls the policy makes, each followed by the next canned answer."""
    policy, calls = POLICIES[task](sentence, set(can)), []
    wanted = next(policy)
    for text in answers:
        calls.append((wanted.name, wanted.arguments))
        try:
            wanted = policy.send(answer(text))
        except StopIteration:
            return calls
    calls.append((wanted.name, wanted.arguments))
    return calls


LISTING = "6 controls on http://x/t.html; this is part 1 of 1.\n\nta-1 checkbox “91YPF”\nta-2 checkbox “i6Vdpn2”\nta-3 checkbox “zeaq”\nta-4 button “Submit”"


def test_the_boxes_checked_are_the_ones_the_listing_names_as_asked():
    calls = play("click-checkboxes", "Select zeaq, 91YPF and click Submit.", LISTING, "ok", "ok", "ok")
    assert calls == [("list_controls", {}), ("check", {"locator": "ta-3"}), ("check", {"locator": "ta-1"}), ("click", {"locator": "ta-4"})]


def test_a_table_read_on_the_page_gives_the_value_typed():
    page = "Title: T\nURL: http://x/t.html\nLength: 9\n\nEnter the value of Religion.\n\n| Color | aqua |\n| Religion | Christianity |"
    listing = "2 controls\n\nta-7 text field\nta-8 button “Submit”"
    calls = play("read-table", "Enter the value of Religion into the text field and press Submit.", page, listing, "ok", "ok")
    assert ("type_text", {"locator": "ta-7", "text": "Christianity"}) in calls and calls[-1] == ("click", {"locator": "ta-8"})


def test_a_value_cut_in_the_listing_is_not_guessed():
    listing = "3 controls\n\nta-1 text area = “Donec ridiculus eget rhoncus, pellentesque malesuada non, do…”\nta-2 text field"
    try:
        play("scroll-text", "Find the last word in the text area, enter it into the text field and hit Submit.", listing)
    except GaveUp as reason:
        assert "cut" in str(reason)
    else:
        raise AssertionError("the policy guessed a word the listing did not show")


def test_the_model_hears_only_the_tool_messages_after_its_last_reply():
    messages = [{"role": "user", "content": "task"}, {"role": "assistant", "content": None},
                {"role": "tool", "content": "first"}, {"role": "assistant", "content": None},
                {"role": "tool", "content": "second"}]
    assert what_the_tools_said(messages).texts == ["second"]


def test_a_policy_that_gives_up_answers_in_words_and_says_why():
    with ToolModel() as model:
        model.play(POLICIES["click-button"])
        body = {"messages": [{"role": "user", "content": 'Click on the "no" button.'}], "tools": []}
        assert model._step(body).tool_calls == [{"name": "list_controls", "arguments": {}}]
        body["messages"] += [{"role": "assistant", "content": None}, {"role": "tool", "content": MARK.format("0 controls")}]
        reply = model._step(body)
    assert not reply.tool_calls and "cannot" in reply.text and "no button named “no”" in model.gave_up


def test_a_value_after_what_sets_the_control_apart_is_read():
    listing = "3 controls\n\nta-1 text area (no name; coloured #ffffff; beside “Submit”) = “Donec ridiculus eget.”\nta-2 text field\nta-3 button “Submit”"
    calls = play("scroll-text", "Find the last word in the text area, enter it into the text field and hit Submit.", listing, listing, "ok", "ok")
    assert ("type_text", {"locator": "ta-2", "text": "eget"}) in calls


def test_a_drag_goes_to_the_place_the_sentence_names_in_its_own_words():
    page = "Title: T\nURL: http://x/t.html\nLength: 9\n\n- Ann\n- Bob\n- Sara-Ann\n- Dee\n- Eve"
    found = '{{"matches": [{{"locator": "ta-{}", "match": "{}", "element": "list item “{}”", "visible": true}}]}}'
    for sentence, target in (("Drag Sara-Ann to the top.", "Ann"), ("Drag Sara-Ann to the bottom.", "Eve"),
                             ("Drag Sara-Ann up by one position.", "Bob"), ("Drag Sara-Ann down by one position.", "Dee"),
                             ("Drag Sara-Ann to the 4th position.", "Dee")):
        calls = play("drag-items", sentence, page, found.format(1, "Sara-Ann", "Sara-Ann"), found.format(2, target, target),
                     can={"drag"})
        assert [name for name, _ in calls] == ["read_page", "find_in_page", "find_in_page", "drag"], calls
        assert calls[2][1]["query"] == target


def test_the_task_pages_are_the_installed_package_s_even_with_the_helpers_on_sys_path(monkeypatch):
    """tests/pyodide's conftest puts tests/helpers on sys.path, where a module named like the
    package would shadow it (the CI failure of 2026-12-06): the pages are the distribution's."""
    from pathlib import Path

    from tests.helpers.miniwob_episode import task_pages

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "helpers"))
    assert (task_pages() / "miniwob" / "click-checkboxes.html").is_file()
