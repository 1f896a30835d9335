"""A turn end to end in the real side panel, against a scripted model server (the conversation
saved with its events, in both browsers: tests/both/test_turns.py)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import last_turn, open_steps


def test_streamed_answer_appears_token_by_token_and_ends_as_markdown(panel, model):
    words = "Here is **bold** text and a list:\n\n- one\n- two"
    model.script(Reply(text=words, token_delay=0.15))
    panel.send("Say something")
    seen = []

    def growing(driver):
        turn = last_turn(driver)
        if turn is None:
            return False
        reply = turn.find_elements(By.CSS_SELECTOR, ".step .reply")
        text = reply[0].text if reply else ""
        if text and (not seen or seen[-1] != text):
            seen.append(text)
        return turn.get_attribute("data-status") == "ok"

    panel.wait(growing, 30)
    assert len(seen) >= 3, f"the reply did not appear piece by piece: {seen}"
    assert all(later.startswith(earlier.rstrip()) or len(later) > len(earlier) for earlier, later in zip(seen, seen[1:]))
    answer = panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant")
    assert answer.find_element(By.TAG_NAME, "strong").text == "bold"
    assert [li.text for li in answer.find_elements(By.TAG_NAME, "li")] == ["one", "two"]
    assert model.requests[0]["body"]["stream"] is True
    assert model.requests[0]["headers"].get("authorization") == "Bearer sk-test"
    panel.screenshot("chat-streamed-answer")


def test_code_turn_shows_the_code_and_its_output(panel, model):
    panel.configure(model.base_url, agent="code")
    model.script(
        Reply(text="Thought: add them.\n```python\nx = 2 + 2\nprint('sum is', x)\n```"),
        Reply(text="```python\nfinal_answer(f'The sum is {x}')\n```"),
    )
    panel.send("What is 2 + 2?")
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    open_steps(turn)
    codes = [c.text for c in turn.find_elements(By.CSS_SELECTOR, "pre.code code")]
    assert codes[0].startswith("x = 2 + 2")
    outputs = [o.text for o in turn.find_elements(By.CSS_SELECTOR, "pre.output")]
    assert "sum is 4" in outputs[0]
    assert turn.find_element(By.CSS_SELECTOR, ".message.assistant").text == "The sum is 4"
    panel.screenshot("chat-code-turn")


def test_three_level_managed_agents_are_nested(panel, model):
    team = [{"name": "researcher", "description": "Finds facts.", "agent": "tool_calling",
             "team": [{"name": "reader", "description": "Reads pages.", "agent": "tool_calling"}]}]
    panel.driver.execute_async_script(
        """
        const [team, url, done] = arguments;
        chrome.runtime.sendMessage({ target: "background", type: "save-settings", apiKey: "sk-test",
          settings: { provider: "custom", base_url: url, model: "scripted-model", agent: "tool_calling", max_steps: 6, team } }).then(done);
        """,
        team, model.base_url,
    )
    model.script(
        Reply(tool_calls=[{"name": "researcher", "arguments": {"task": "Find the capital"}}]),
        Reply(tool_calls=[{"name": "reader", "arguments": {"task": "Read the atlas"}}]),
        Reply(text="The atlas says Paris."),
        Reply(text="Paris, per the reader."),
        Reply(text="The capital is **Paris**."),
    )
    panel.send("What is the capital of France?")
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    outer = turn.find_element(By.CSS_SELECTOR, 'details.tool[data-tool="researcher"]')
    middle = outer.find_element(By.CSS_SELECTOR, '.step[data-depth="1"]')
    inner = middle.find_element(By.CSS_SELECTOR, 'details.tool[data-tool="reader"] .step[data-depth="2"]')
    assert "reader" in inner.find_element(By.TAG_NAME, "header").get_attribute("textContent")
    assert turn.find_element(By.CSS_SELECTOR, ".message.assistant strong").text == "Paris"
    for details in turn.find_elements(By.CSS_SELECTOR, "details.tool"):
        panel.driver.execute_script("arguments[0].open = true", details)
    panel.screenshot("chat-managed-agents")


def test_markdown_from_the_model_renders_inert(panel, model):
    model.script(Reply(text='Look: <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script> '
                            '[link](javascript:window.pwned=3) done'))
    panel.send("Show me something")
    panel.wait_for_status("ok")
    answer = panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant")
    html = answer.get_attribute("innerHTML")
    assert "onerror" not in html and "<script" not in html and "javascript:" not in html
    for link in answer.find_elements(By.TAG_NAME, "a"):
        link.click()
    assert panel.driver.execute_script("return window.pwned === undefined")
