"""A long answer (a stored or imported conversation's, of a megabyte) is lexed a window at a
time, so that opening it never blocks the panel: no task lexes the whole text. What must
keep working: however the text is cut into windows, the answer on screen is the one a
single lex of the whole text gives (code fences with blank lines in them, loose and nested
lists, tables, nested quotes, math, indented code, HTML blocks, HTML the sanitiser removes),
and a text whose blocks depend on text far from them (a reference link defined below it, an
HTML link left open) is lexed whole. And a conversation switched away from while its answer
is still rendering renders no more of it."""

from __future__ import annotations

from .stored import store, stored_answer
from tests.helpers.render_windows import OPEN_LINK, REFERENCE, TEXTS, WINDOWS_AGAINST_WHOLE, window_sizes
from tests.helpers.panel_backends import ChromiumPanel


def windows_against_whole(browser, text: str) -> dict:
    browser.driver.set_script_timeout(120)
    return browser.driver.execute_async_script(WINDOWS_AGAINST_WHOLE, text, window_sizes(text))


def test_an_answer_rendered_in_windows_of_any_size_is_the_whole_answer(browser):
    browser.open_side_panel()
    for name, text in TEXTS.items():
        result = windows_against_whole(browser, text)
        assert result["count"] == 0, f"{name}: {result['count']} window sizes render otherwise, such as {result['differing']}"
        assert result["pwned"] is None
        # The ordinary texts did go on in later tasks; the two that depend on far text did not.
        if name in ("reference", "open link"):
            assert result["later"] == 0, name
        else:
            assert result["later"] > 30, (name, result["later"])
    both = windows_against_whole(browser, REFERENCE)["expected"]
    assert 'href="https://example.com/docs"' in both  # the link found its definition below it
    plain = windows_against_whole(browser, OPEN_LINK)["expected"]
    assert 'href="https://example.com/after"' not in plain  # as marked has it, whole


# Records the length of every text marked lexes while a long answer renders.
LEXED_LENGTHS = """
const [text, done] = arguments;
Promise.all([import(chrome.runtime.getURL("extension/vendor/marked/marked.esm.js")),
             import(chrome.runtime.getURL("extension/sidepanel/markdown.js"))]).then(async ([{ Marked }, { renderMarkdown }]) => {
  const lexed = [];
  const perTask = []; // characters lexed in each task that lexed
  let inTask = false; // reset when the task's script is over (its microtasks run)
  const lexer = Marked.prototype.lexer;
  Marked.prototype.lexer = function (src, ...rest) {
    if (!inTask) { inTask = true; perTask.push(0); queueMicrotask(() => (inTask = false)); }
    perTask[perTask.length - 1] += src.length;
    lexed.push(src.length);
    return lexer.call(this, src, ...rest);
  };
  const element = document.querySelector("#conversation").appendChild(document.createElement("div"));
  try {
    await renderMarkdown(element, text);
  } finally {
    Marked.prototype.lexer = lexer;
  }
  done({ lexed, perTask, paragraphs: element.querySelectorAll("p").length, code: element.querySelectorAll("pre").length });
});
"""


def megabyte(definition: str = "") -> str:
    return "\n\n".join(f"Paragraph {n} with **bold** words, `code` and a [link](https://example.com/{n}). " * 13
                       for n in range(1_000)) + definition


def test_no_task_lexes_a_megabyte_answer_whole(browser):
    browser.open_side_panel()
    browser.driver.set_script_timeout(60)
    result = browser.driver.execute_async_script(LEXED_LENGTHS, megabyte())
    assert result["paragraphs"] == 1_000
    assert max(result["lexed"]) < 40_000, max(result["lexed"])
    assert sum(result["lexed"]) < 1.5 * len(megabyte())  # each window's last two blocks lexed again, no more
    # A link definition anywhere: lexed whole, as before (the links before it find it).
    whole = browser.driver.execute_async_script(LEXED_LENGTHS, megabyte("\n\n[docs]: https://example.com/docs"))
    assert max(whole["lexed"]) > 1_000_000


def test_a_long_block_is_lexed_again_in_tasks_of_its_own(browser):
    """A block longer than a window (120,000 characters of code amid paragraphs) is lexed in a
    window that doubles from one task to the next: no task lexes much more than the block."""
    browser.open_side_panel()
    browser.driver.set_script_timeout(60)
    block = "```text\n" + "a line of code that goes on\n" * 4_400 + "```"
    assert 118_000 < len(block) < 124_000
    paragraphs = "\n\n".join(f"Paragraph {n}, in words." for n in range(400))
    result = browser.driver.execute_async_script(LEXED_LENGTHS, f"{paragraphs}\n\n{block}\n\n{paragraphs}")
    assert result["paragraphs"] == 800 and result["code"] == 1
    assert max(result["perTask"]) < 1.2 * len(block), result["perTask"]


# How much text each frame of the panel saw added while a long answer rendered.
PER_FRAME = """
const [text, done] = arguments;
import(chrome.runtime.getURL("extension/sidepanel/markdown.js")).then(async ({ renderMarkdown }) => {
  const element = document.querySelector("#conversation").appendChild(document.createElement("div"));
  const added = [];
  let last = 0;
  let rendering = true;
  const frame = () => {
    const now = element.textContent.length;
    added.push(now - last);
    last = now;
    if (rendering) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  await renderMarkdown(element, text);
  rendering = false;
  done({ added, hidden: document.hidden });
});
"""


def test_each_frame_lays_out_one_window(browser):
    """The browser lays out and paints what one window added between two frames, not several
    windows' worth (a frame of five took 60 ms of CPU)."""
    browser.open_side_panel()
    browser.driver.set_script_timeout(120)
    result = browser.driver.execute_async_script(PER_FRAME, megabyte())
    assert not result["hidden"]
    assert sum(result["added"]) > 700_000 and len(result["added"]) > 100  # the text, its marks gone
    assert max(result["added"][1:]) < 9_000, sorted(result["added"])[-5:]  # after the first window


# Opens the long conversation, then the short one as soon as the long answer's first window
# is on screen; returns how far the long answer had got when it left the screen and at the end.
SWITCH = """
const [longId, shortId, done] = arguments;
import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(async () => {
  const { conversation } = globalThis.tabagentDebug;
  await conversation.open(longId);
  const answer = window.leftAnswer = document.querySelector("#conversation .message.assistant");
  const atSwitch = { busy: answer.getAttribute("aria-busy"), paragraphs: answer.querySelectorAll("p").length };
  new MutationObserver(() => { if (!answer.isConnected) atSwitch.left ??= answer.querySelectorAll("p").length; })
    .observe(document.querySelector("#conversation"), { childList: true });
  await conversation.open(shortId);
  done(atSwitch);
});
"""


def test_a_conversation_switched_away_from_while_rendering_renders_no_more(browser):
    panel = ChromiumPanel(browser).new_conversation()
    long, short = stored_answer(megabyte()), stored_answer("The short conversation's answer.", "A short one")
    for record in (long, short):
        store(browser.driver, record)
    result = browser.driver.execute_async_script(SWITCH, long["id"], short["id"])
    assert result["busy"] == "true" and 0 < result["paragraphs"] < 1_000
    left = result["left"]
    # Once the old answer is no longer busy (stopped, or all rendered), it is as it was when it
    # left the screen, and the short conversation is shown alone.
    # (The old answer is off the page: the panel keeps it for the test.)
    browser.wait(lambda d: d.execute_script("return !window.leftAnswer.hasAttribute('aria-busy')"), 60, "the old answer stayed busy")
    assert browser.driver.execute_script("return window.leftAnswer.querySelectorAll('p').length") == left
    shown = browser.driver.execute_script("return document.querySelector('#conversation').textContent")
    assert "short conversation" in shown and "Paragraph" not in shown
    # And opened again, it renders whole.
    panel.open_conversation(long["id"])
    browser.wait(lambda d: d.execute_script(
        "const a = document.querySelector('#conversation .message.assistant'); return !a.closest('[aria-busy]') && a.querySelectorAll('p').length"),
        60, "never rendered whole")
    assert browser.driver.execute_script("return document.querySelectorAll('#conversation .message.assistant p').length") == 1_000
