"""Answers worth reading (issue 14): live Markdown while streaming, highlighted code with a
copy button, math, tables, the answer first with the steps folded, and the message actions
(copy, regenerate, edit and resend, delete), driven as a user would."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.keys import Keys

from tests.helpers.model_server import Reply

from tests.helpers.rich_answer import RICH_ANSWER


# Clipboard writes are recorded in the page (headless Chromium has no clipboard to read back).
RECORD_CLIPBOARD = "window.copied = []; navigator.clipboard.writeText = async (text) => { window.copied.push(text); };"


def test_markdown_renders_live_block_by_block_while_streaming(panel, model):
    model.script(Reply(text=RICH_ANSWER, token_delay=0.08))
    panel.send("Show me everything")
    # The first paragraph, rendered and finished (not in the growing tail) while the reply streams...
    panel.wait(lambda d: d.execute_script(
        "const p = document.querySelector('article.turn:last-of-type .step .reply > p');"
        "if (p) p.dataset.marked = 'kept'; return Boolean(p);"), 20)
    reply = ".step .reply"
    assert panel.driver.execute_script(f"return document.querySelector('{reply} h2')?.textContent") == "Result"
    assert panel.last_turn().get_attribute("data-status") == "running"
    # ... is the same element once the code block streams in: finished blocks are not redrawn.
    panel.wait(lambda d: d.execute_script(f"return document.querySelector('{reply} pre code .hljs-keyword')"), 20)
    assert panel.driver.execute_script(f"return document.querySelector('{reply} > p').dataset.marked") == "kept"
    panel.wait_for_status("ok")
    answer = panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant")
    assert answer.find_element(By.TAG_NAME, "h2").text == "Result"
    # KaTeX renders in a worker: a formula shows as its source until its rendering is in.
    panel.wait(lambda d: answer.find_elements(By.CSS_SELECTOR, ".katex") and answer.find_elements(By.CSS_SELECTOR, ".math-block .katex-display"), 10)
    assert answer.find_elements(By.CSS_SELECTOR, ".math-pending") == []
    assert [c.text for c in answer.find_elements(By.CSS_SELECTOR, "table td")] == ["a", "1"]
    keywords = [k.text for k in answer.find_elements(By.CSS_SELECTOR, "pre code.language-python .hljs-keyword")]
    assert keywords == ["def", "return"]
    panel.driver.execute_script(RECORD_CLIPBOARD)
    answer.find_element(By.CSS_SELECTOR, "pre button.copy").click()
    panel.wait(lambda d: d.execute_script("return window.copied.length") == 1, 5)
    assert panel.driver.execute_script("return window.copied[0]") == "def add(a, b):\n    return a + b\n"
    panel.screenshot("chat-rich-answer")


def test_answer_comes_first_and_the_steps_fold_into_one_line(panel, model):
    model.script(
        Reply(tool_calls=[{"name": "get_selection", "arguments": {}}], token_delay=0.05),
        Reply(text="The answer, *first*.", token_delay=0.3),
    )
    panel.send("What did I select?")
    panel.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "article.turn details.steps[open]"), 10, "steps not open while running")
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    steps = turn.find_element(By.CSS_SELECTOR, "details.steps")
    summary = steps.find_element(By.TAG_NAME, "summary")
    assert steps.get_attribute("open") is None
    assert summary.text == "2 steps · get_selection"
    # The answer comes before the steps' details in reading order, in body size.
    answer = turn.find_element(By.CSS_SELECTOR, ".message.assistant")
    assert answer.is_displayed() and answer.text == "The answer, first."
    assert answer.value_of_css_property("font-size") == "14px"
    assert not turn.find_element(By.CSS_SELECTOR, "details.tool").is_displayed()
    summary.click()
    assert turn.find_element(By.CSS_SELECTOR, "details.tool").is_displayed()


def test_show_steps_setting_keeps_them_open(panel, model):
    settings = {"provider": "custom", "base_url": model.base_url, "model": "scripted-model", "agent": "tool_calling",
                "max_steps": 6, "show_steps": True}
    panel.ask_background("save-settings", settings=settings, apiKey="sk-test")
    shows_steps = """const done = arguments[arguments.length - 1];
      import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(() => done(globalThis.tabagentDebug.conversation.stepsOpen));"""
    panel.wait(lambda d: d.execute_async_script(shows_steps), 5)
    model.script(Reply(tool_calls=[{"name": "get_selection", "arguments": {}}]), Reply(text="Answer."))
    panel.send("Watch the steps")
    panel.wait_for_status("ok")
    assert panel.last_turn().find_element(By.CSS_SELECTOR, "details.steps").get_attribute("open") is not None


def user_texts(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "article.turn .user-text")]


def last_request_messages(model):
    return [m.get("content") for m in model.requests[-1]["body"]["messages"] if m["role"] == "user"]


def test_copy_answer_as_markdown_and_as_text(panel, model):
    model.script(Reply(text="Use **bold** and `code`."))
    panel.send("Format something")
    panel.wait_for_status("ok")
    panel.driver.execute_script(RECORD_CLIPBOARD)
    turn = panel.last_turn()
    turn.find_element(By.CSS_SELECTOR, ".action-copy-markdown").click()
    turn.find_element(By.CSS_SELECTOR, ".action-copy-text").click()
    panel.wait(lambda d: d.execute_script("return window.copied.length") == 2, 5)
    assert panel.driver.execute_script("return window.copied") == ["Use **bold** and `code`.", "Use bold and code."]


def test_regenerate_replaces_the_answer_and_the_agent_forgets_it(panel, model):
    model.script(Reply(text="First answer."), Reply(text="Second turn answer."), Reply(text="Regenerated answer."))
    panel.send("Question one")
    panel.wait_for_status("ok")
    panel.send("Question two")
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == 2)
    panel.wait_for_status("ok")
    first = panel.driver.find_elements(By.CSS_SELECTOR, "article.turn")[0]
    first.find_element(By.CSS_SELECTOR, ".action-regenerate").click()
    panel.wait(lambda d: "Regenerated answer." in d.find_element(By.ID, "conversation").text, 20)
    panel.wait_for_status("ok")
    assert user_texts(panel.driver) == ["Question one"]
    # The model saw the question again, without the turns it replaced.
    assert last_request_messages(model) == ["Question one"]
    record = [r for r in panel.stored_conversations() if r["turns"] and r["turns"][0]["text"] == "Question one"][0]
    assert len(record["turns"]) == 1


def test_edit_with_the_up_key_resends_and_replaces_the_rest(panel, model):
    model.script(Reply(text="About cats."), Reply(text="About dogs."))
    panel.send("Tell me about cats")
    panel.wait_for_status("ok")
    box = panel.driver.find_element(By.ID, "prompt")
    box.send_keys(Keys.ARROW_UP)
    editor = panel.wait(lambda d: d.find_element(By.CSS_SELECTOR, ".edit-box"), 5)
    assert panel.driver.switch_to.active_element == editor
    assert "replaces" in panel.last_turn().find_element(By.CSS_SELECTOR, ".edit-hint").text
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys("Tell me about dogs", Keys.ENTER)
    panel.wait(lambda d: "About dogs." in d.find_element(By.ID, "conversation").text, 20)
    panel.wait_for_status("ok")
    assert user_texts(panel.driver) == ["Tell me about dogs"]
    assert last_request_messages(model) == ["Tell me about dogs"]
    panel.screenshot("chat-edited")


def test_delete_a_turn_in_the_middle(panel, model):
    model.script(Reply(text="One."), Reply(text="Two."), Reply(text="Three."), Reply(text="Four."))
    for question in ("First", "Second", "Third"):
        panel.send(question)
        panel.wait(lambda d, q=question: user_texts(d)[-1:] == [q])
        panel.wait_for_status("ok")
    panel.driver.find_elements(By.CSS_SELECTOR, "article.turn")[1].find_element(By.CSS_SELECTOR, ".action-delete").click()
    panel.wait(lambda d: user_texts(d) == ["First", "Third"], 10)
    panel.send("Fourth")
    panel.wait(lambda d: user_texts(d)[-1:] == ["Fourth"])
    panel.wait_for_status("ok")
    # The agent no longer remembers the deleted turn.
    assert last_request_messages(model) == ["First", "Third", "Fourth"]


def test_math_and_code_from_the_model_render_inert(panel, model):
    # Red team: the new renderers get the model's (possibly page-steered) text too.
    hostile = ("$\\href{javascript:window.pwned=1}{click}$ and $\\url{javascript:window.pwned=2}$\n\n"
               "$$\\htmlClass{x}{y} <img src=x onerror=\"window.pwned=3\">$$\n\n"
               "```html\n<img src=x onerror=\"window.pwned=4\"><script>window.pwned=5</script>\n```\n\n"
               "`<b onmouseover=\"window.pwned=6\">inline</b>`")
    model.script(Reply(text=hostile, token_delay=0.02))
    panel.send("Render this")
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    # The hostile words may show as text; no element may carry them as code or a link.
    live = panel.driver.execute_script(
        "const turn = arguments[0];"
        "return [...turn.querySelectorAll('.message.assistant *, .step .reply *')].flatMap((e) => ["
        "  ...(e.tagName === 'SCRIPT' || e.tagName === 'IMG' ? [e.outerHTML] : []),"
        "  ...[...e.attributes].filter((a) => a.name.startsWith('on') || /^\\s*javascript:/i.test(a.value)).map((a) => a.name + '=' + a.value)]);",
        turn)
    assert live == [], live
    for link in turn.find_elements(By.CSS_SELECTOR, ".message.assistant a"):
        link.click()
    code = turn.find_element(By.CSS_SELECTOR, ".message.assistant pre code").text
    assert '<img src=x onerror="window.pwned=4">' in code  # shown as text, not run
    assert panel.driver.execute_script("return window.pwned === undefined")


SCROLL_STATE = """
const view = document.getElementById("conversation");
return { gap: view.scrollHeight - view.scrollTop - view.clientHeight, top: view.scrollTop, height: view.scrollHeight };
"""


def test_a_growing_reply_is_followed_until_the_user_scrolls_up_and_again_once_they_come_back(panel, model):
    lines = [f"Line {i} of a long answer, long enough to fill the panel." for i in range(80)]
    model.script(Reply(text="\n\n".join(lines), token_delay=0.015))
    panel.send("Write a long answer")
    taller = lambda state: state["height"] > panel.driver.execute_script("return document.getElementById('conversation').clientHeight") * 2
    panel.wait(lambda d: taller(d.execute_script(SCROLL_STATE)), 30, "the reply never filled the panel")
    # While it streams, the end stays in view.
    panel.wait(lambda d: d.execute_script(SCROLL_STATE)["gap"] < 80, 10, "the panel did not follow the reply")
    # The user turns the wheel up to read: the view stays where they put it as the reply grows.
    view = panel.driver.find_element(By.ID, "conversation")
    ActionChains(panel.driver).scroll_from_origin(ScrollOrigin.from_element(view), 0, -600).perform()
    panel.wait(lambda d: d.execute_script(SCROLL_STATE)["gap"] > 400, 10, "the wheel did not scroll up")
    kept = panel.driver.execute_script(SCROLL_STATE)
    panel.wait(lambda d: d.execute_script(SCROLL_STATE)["height"] > kept["height"] + 200, 30, "the reply stopped growing")
    assert panel.last_turn().get_attribute("data-status") == "running"
    assert panel.driver.execute_script(SCROLL_STATE)["top"] == kept["top"]
    # Back at the end, it follows again, through what the finished answer adds under it.
    ActionChains(panel.driver).scroll_from_origin(ScrollOrigin.from_element(view), 0, 100_000).perform()
    panel.wait_for_status("ok", timeout=60)
    panel.wait(lambda d: d.execute_script(SCROLL_STATE)["gap"] < 80, 10, "the panel did not follow the end again")
