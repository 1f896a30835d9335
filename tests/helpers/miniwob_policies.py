"""A "perfect model" for MiniWoB++ (bench/bench_miniwob.py, tests/e2e/test_miniwob.py): for each
task, the calls a careful model would make, decided only from the task's sentence and what the
tools returned (the controls listing, read_page, find_in_page, screenshots judged by their
pixels as a vision model would), never from the page's DOM or MiniWoB's state. Where the tools
show nothing usable the policy gives up and says why (tool_model.GaveUp); where a tool another
part of issue 41 adds is offered (`can`: click_at, drag), the policy uses it.

Each policy is a generator: it yields Call(...) (or a list of them, one reply) and gets back
what the tools said (tool_model.Said)."""

from __future__ import annotations

import re

from .miniwob_controls import content, controls, element_name, markdown, matches, named, of_kind, one, plain, quoted, table, whole_word
from .miniwob_pictures import classify_shape, colour_cells, shades
from .tool_model import Call, GaveUp

POINTER_CLICK = "click_at"  # the pointer part's click by position, when offered


def listing():
    return controls((yield Call("list_controls")).text)


def click(locator: str):
    said = yield Call("click", locator=locator)
    return said.text


def click_named(task, can, name, kind=""):
    yield from click(named((yield from listing()), name, kind).locator)


def click_button(task, can):
    yield from click_named(task, can, quoted(task), "button")


def click_button_sequence(task, can):
    found = yield from listing()
    yield from click(named(found, "ONE").locator)
    yield from click(named(found, "TWO").locator)


def click_link(task, can):
    yield from click_named(task, can, quoted(task))


def click_dialog(task, can):
    # the dialog's "x" is its close button, which the listing names "Close"
    wanted = {"x": "Close"}.get(quoted(task), quoted(task))
    yield from click_named(task, can, wanted, "button")


def opener(name: str):
    """The link that opens a tab or section: find_in_page gives it (the listing's locator is the
    tab's item, which a click does not open)."""
    found = [m for m in matches((yield Call("find_in_page", query=name)).text) if m.get("visible") and whole_word(m)]
    if not found:
        raise GaveUp(f"nothing shown opens “{name}”")
    return found[0]["locator"]


def click_tab(task, can):
    number = re.search(r"#(\d+)", task).group(1)
    yield from click((yield from opener(f"Tab #{number}")))


def shown_word(word: str):
    """The locator of the element that shows `word` on its own, when it is visible, or None."""
    said = yield Call("find_in_page", query=word)
    found = [m for m in matches(said.text) if m.get("visible") and whole_word(m)]
    return found[0]["locator"] if found else None


def click_tab_2(task, can):
    """Opens each tab in turn until the link shows."""
    for tab in of_kind((yield from listing()), "tab"):
        yield from click((yield from opener(tab.name)))
        link = yield from shown_word(quoted(task))
        if link:
            return (yield from click(link))
    raise GaveUp(f"no tab shows a link “{quoted(task)}”")


def navigate_tree(task, can):
    shown = yield from shown_word(quoted(task))
    if not shown:
        raise GaveUp("the name is inside a closed folder, and nothing shown says which items are folders")
    yield from click(shown)


def submit(found):
    """The Submit button: the one listed, or where the listing names something else so (a
    section's text), the button find_in_page finds."""
    listed = [c for c in found if c.named("Submit") and c.kind == "button"]
    if listed:
        return (yield from click(listed[0].locator))
    buttons = [m for m in matches((yield Call("find_in_page", query="Submit")).text) if element_name(m) == "Submit"
               and m.get("element", "").startswith("button")]
    yield from click(one(buttons, "Submit button")["locator"] if buttons else named(found, "Submit").locator)


def click_collapsible(task, can):
    found = yield from listing()
    yield from click(one([c for c in found if c.name.startswith("Section")], "section").locator)
    yield from submit((yield from listing()))


def check_and_submit(names: list[str]):
    found = yield from listing()
    for name in names:
        yield Call("check", locator=named(found, name).locator)
    yield from click(named(found, "Submit").locator)


def click_option(task, can):
    yield from check_and_submit([re.match(r"Select (.*) and click Submit", task).group(1)])


def click_checkboxes(task, can):
    wanted = re.match(r"Select (.*?) and click Submit", task).group(1)
    yield from check_and_submit([] if wanted == "nothing" else wanted.split(", "))


WIDGET_KINDS = {"radio": "radio button", "checkbox": "checkbox", "button": "button", "textarea": "text area",
                "text": "input", "input": "input"}


def click_widget(task, can):
    kind = WIDGET_KINDS[quoted(task)]
    yield from click(one([c for c in (yield from listing()) if c.kind == kind], kind).locator)


def click_test(task, can):
    yield from click(one(of_kind((yield from listing()), "button"), "button").locator)


def focus_text(task, can):
    yield from click(one(of_kind((yield from listing()), "text field"), "text field").locator)


def focus_text_2(task, can):
    index = int(re.search(r"(\d+)(st|nd|rd|th)", task).group(1)) - 1
    fields = of_kind((yield from listing()), "text field")
    if index >= len(fields):
        raise GaveUp("fewer text fields listed than the task counts")
    yield from click(fields[index].locator)


def type_and_submit(text: str, field_kind: str = "text field"):
    found = yield from listing()
    yield Call("type_text", locator=one(of_kind(found, field_kind), field_kind).locator, text=text)
    yield from click(named(found, "Submit").locator)


def enter_text(task, can):
    yield from type_and_submit(quoted(task))


def enter_text_2(task, can):
    word = quoted(task)
    yield from type_and_submit(word.upper() if "upper case" in task else word.lower())


def choose_list(task, can):
    found = yield from listing()
    wanted = re.match(r"Select (.*) from the (?:scroll )?list and click Submit", task).group(1)
    options = wanted.split(", ") if "scroll list" in task else wanted
    yield Call("select_option", locator=one(of_kind(found, "drop-down list", "list box"), "list").locator, option=options)
    yield from click(named(found, "Submit").locator)


def read_table(task, can):
    wanted = re.match(r"Enter the value of (.*) into the text field", task).group(1)
    rows = table((yield Call("read_page")).text)
    if wanted not in rows:
        raise GaveUp(f"read_page shows no row “{wanted}”")
    yield from type_and_submit(rows[wanted])


def nth_word(task, can):
    index = int(re.search(r"the (\d+)(st|nd|rd|th) word", task).group(1)) - 1
    paragraph = markdown((yield Call("read_page")).text).split("\n\n")[1:]
    words = " ".join(paragraph).split()
    if index >= len(words):
        raise GaveUp("read_page shows a paragraph shorter than the word asked")
    yield from type_and_submit(re.sub(r"[^A-Za-z0-9]", "", words[index]))


def scroll_text(task, can):
    found = yield from listing()
    area = one(of_kind(found, "text area"), "text area")
    if area.value.endswith("…"):
        raise GaveUp("the text area's value is cut in the listing, its last word not shown")
    yield from type_and_submit(area.value.split()[-1].replace(".", ""))


def arithmetic(task, can):
    said = yield Call("find_in_page", query="=")
    problem = re.search(r"(-?\d+) ([-+x]) (-?\d+) =", content(said.text))
    if not problem:
        raise GaveUp("neither read_page nor find_in_page shows the problem")
    a, op, b = int(problem.group(1)), problem.group(2), int(problem.group(3))
    yield from type_and_submit(str({"+": a + b, "-": a - b, "x": a * b}[op]))


def guess_number(task, can):
    low, high = 0, 9
    while low <= high:
        guess = (low + high) // 2
        yield from type_and_submit(str(guess))
        page = markdown((yield Call("read_page")).text)
        if "higher" in page:
            low = guess + 1
        elif "lower" in page:
            high = guess - 1
        else:
            return
    raise GaveUp("the feedback never said higher or lower")


def use_spinner(task, can):
    yield from type_and_submit(re.search(r"Select (-?\d+)", task).group(1), "spinbutton")


def enter_date(task, can):
    month, day, year = re.search(r"(\d\d)/(\d\d)/(\d{4})", task).groups()
    yield from type_and_submit(f"{year}-{month}-{day}", "date field")


def enter_time(task, can):
    hour, minute, half = re.search(r"(\d+):(\d\d) (AM|PM)", task).groups()
    hour = int(hour) % 12 + (12 if half == "PM" else 0)
    yield from type_and_submit(f"{hour:02d}:{minute}", "time field")


def use_autocomplete(task, can):
    start = quoted(task)
    end = re.search(r'ends with "([^"]*)"', task)
    found = yield from listing()
    field = one(of_kind(found, "text field"), "text field")
    yield Call("type_text", locator=field.locator, text=start)
    said = yield Call("find_in_page", query=start)  # the suggestions: the field's own value is no page text
    shown = [m for m in matches(said.text) if m.get("visible") and element_name(m).startswith(start)
             and (not end or element_name(m).endswith(end.group(1)))]
    if not shown:
        raise GaveUp("typing showed no list of suggestions to pick from")
    yield from click(shown[0]["locator"])
    yield from submit(found)


def click_pie(task, can):
    found = yield from listing()
    yield from click(named(found, "+").locator)
    yield from click_named(task, can, quoted(task))


def click_menu(task, can):
    path = re.match(r"Select (.*)", task).group(1).split(">")
    for item in path:
        found = [c for c in (yield from listing()) if c.named(item)]
        if not found:
            raise GaveUp(f"the menu's item “{item}” is not listed (the menu is listed as one control)")
        yield Call("hover", locator=found[0].locator)
    yield from click(found[0].locator)


def multi_orderings(task, can):
    genre, director, year = re.findall(r"\*\*(.*?)\*\*", (yield Call("read_page")).text)[:3]
    found = yield from listing()
    for label, value in (("genre", genre), ("director", director), ("year", year)):
        field = [c for c in of_kind(found, "text field") if label in plain(c.name)]
        if not field:
            raise GaveUp("the text fields are listed without their labels")
        yield Call("type_text", locator=field[0].locator, text=value)
    yield from click(named(found, "Submit").locator)


def hand_back_if_refused(said) -> None:
    if "never types into a password field" in said.text:
        raise GaveUp("hand-back: the agent types no password, the user logs in")


def login_user(task, can):
    user, password = re.findall(r'"([^"]*)"', task)[:2]
    found = yield from listing()
    yield Call("type_text", locator=one(of_kind(found, "text field"), "text field").locator, text=user)
    hand_back_if_refused((yield Call("type_text", locator=one(of_kind(found, "password field"), "password field").locator, text=password)))
    yield from click(named(found, "Login").locator)


def enter_password(task, can):
    found = yield from listing()
    for field in of_kind(found, "password field"):
        hand_back_if_refused((yield Call("type_text", locator=field.locator, text=quoted(task))))
    yield from click(named(found, "Submit").locator)


def identify_shape(task, can):
    """A figure listed with a name is drawn text (a letter or a digit); one without is a shape,
    judged from its picture."""
    found = yield from listing()
    figure = one([c for c in found if c.kind == "clickable"], "figure")
    if figure.name:
        return (yield from click(named(found, "Number" if figure.name.isdigit() else "Letter").locator))
    said = yield Call("screenshot", locator=figure.locator)
    if not said.pictures:
        raise GaveUp("the screenshot was refused: " + content(said.text)[-200:])
    yield from click(named(found, classify_shape(said.pictures[0])).locator)


def picture_then_points(can):
    said = yield Call("screenshot")
    if not said.pictures:
        raise GaveUp("the screenshot was refused: " + content(said.text)[-200:])
    if POINTER_CLICK not in can:
        raise GaveUp("what to click has no locator, and there is no click by position")
    return said.pictures[0]


def click_color(task, can):
    colour = re.search(r"the (\w+) colored box", task)
    if not colour:
        raise GaveUp("the colour is shown as a swatch, not named (a vision model would compare it)")
    cells = colour_cells((yield from picture_then_points(can)), colour.group(1))
    if not cells:
        raise GaveUp(f"the screenshot shows no {colour.group(1)} box")
    x, y = cells[0]
    yield Call(POINTER_CLICK, x=x, y=y)


def click_shades(task, can):
    colour = re.search(r"shades of (\w+)", task).group(1)
    squares = shades((yield from picture_then_points(can)), colour)
    for x, y in squares:
        yield Call(POINTER_CLICK, x=x, y=y)
    yield from click_named(task, can, "Submit")


def social_media(task, can):
    user, action = re.search(r"For the user (@\w+), click on the \"(.*)\" button", task).groups()
    found = yield from listing()
    buttons = [c for c in found if c.named(action) or plain(action) in plain(c.name)]
    if not buttons:
        raise GaveUp("the tweets' buttons are not listed (icons with no text)")
    matches = content((yield Call("find_in_page", query=user)).text)
    raise GaveUp(f"no listed button says which tweet it belongs to ({len(buttons)} “{action}”; {matches[:80]!r})")


def item_shown(name: str):
    """The locator of the element whose text is `name` (not the task's sentence naming it)."""
    found = [m for m in matches((yield Call("find_in_page", query=name)).text) if m.get("visible") and whole_word(m)]
    return found[0]["locator"] if found else None


def drag_place(where: str, at: int, count: int) -> int:
    """The place (from 1) "to the top", "to the bottom", "up/down by one position" or "to the 3rd
    position" means, for an item now at `at` of `count`."""
    named = {"to the top": 1, "to the bottom": count, "up by one position": at - 1, "down by one position": at + 1}
    if where in named:
        return named[where]
    number = re.search(r"to the (\d+)", where)
    if not number:
        raise GaveUp(f"the task's place is not one the policy reads: {where!r}")
    return int(number.group(1))


def drag_items(task, can):
    if "drag" not in can:
        raise GaveUp("there is no drag")
    said = re.search(r"Drag (\S+) ((?:to the|up by|down by) [^.\n]*)", task)
    if not said:
        raise GaveUp(f"the task names no item and place the policy reads: {task[:100]!r}")
    name, where = said.groups()
    items = [line.strip("- ").strip() for line in markdown((yield Call("read_page")).text).splitlines() if line.startswith("- ")]
    if name not in items:
        raise GaveUp("read_page does not list the item to drag")
    place = drag_place(where, items.index(name) + 1, len(items))
    if not 1 <= place <= len(items):
        raise GaveUp("read_page shows fewer items than the place asked")
    source = yield from item_shown(name)
    target = yield from item_shown(items[place - 1])
    if not (source and target):
        raise GaveUp("find_in_page gives the items no locator")
    yield Call("drag", source=source, target=target)


POLICIES = {
    "click-button": click_button, "click-button-sequence": click_button_sequence, "click-link": click_link,
    "click-dialog": click_dialog, "click-dialog-2": click_dialog, "click-tab": click_tab, "click-tab-2": click_tab_2,
    "click-collapsible": click_collapsible, "click-option": click_option, "click-checkboxes": click_checkboxes,
    "click-widget": click_widget, "click-test": click_test, "unicode-test": click_button,
    "focus-text": focus_text, "focus-text-2": focus_text_2, "enter-text": enter_text, "enter-text-2": enter_text_2,
    "enter-text-dynamic": enter_text, "choose-list": choose_list, "click-scroll-list": choose_list,
    "read-table": read_table, "find-word": nth_word, "scroll-text": scroll_text, "simple-arithmetic": arithmetic,
    "guess-number": guess_number, "use-spinner": use_spinner, "enter-date": enter_date, "enter-time": enter_time,
    "use-autocomplete": use_autocomplete, "click-pie": click_pie, "click-menu": click_menu,
    "multi-orderings": multi_orderings, "identify-shape": identify_shape, "click-color": click_color, "click-shades": click_shades,
    "social-media": social_media, "navigate-tree": navigate_tree, "drag-items": drag_items,
    "login-user": login_user, "enter-password": enter_password,
}
# The agent never types a password (issue 39): it hands the task back to the user. These two
# count as "hand-back", not as failures.
HAND_BACK = ("login-user", "enter-password")
