"""MCP servers through the whole extension, against a real server written with the official
Python SDK (tests/helpers/mcp_server.py) on 127.0.0.1, which checks the Origin header as the
SDK does by default: a server added in settings and Test connection, ToolCallingAgent and
CodeAgent turns whose MCP calls wait for the user, the per-tool policies, Stop during a long
call, an unreachable server. The attacks on this surface are in test_red_team_mcp.py."""

import json

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.mcp_server import MCPTestServer
from tests.helpers.model_server import Reply

from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told
from tests.helpers.panel_backends import chromium_panel
from tests.helpers.mcp_settings import check, server_entry, use_servers

pytestmark = pytest.mark.e2e


def test_settings_add_a_server_and_test_connection_shows_its_tools_as_the_model_sees_them(browser, mcp):
    browser.open_tab(browser.url("extension/options/options.html"))
    driver = browser.driver
    driver.find_element(By.ID, "mcp-name").send_keys("lab")
    driver.find_element(By.ID, "mcp-url").send_keys(mcp.url)
    driver.find_element(By.ID, "mcp-header-name").send_keys("X-Team")
    driver.find_element(By.ID, "mcp-header-value").send_keys("blue-secret")
    driver.find_element(By.ID, "mcp-add-button").click()
    status = browser.wait(lambda d: (s := d.find_elements(By.CSS_SELECTOR, ".mcp-status[data-ok=true]")) and s[0], 60,
                  "Test connection never succeeded")
    assert status.text == "tabagent-test-server · protocol 2026-07-28 · 8 tools"
    tools = {li.get_attribute("data-tool"): li for li in driver.find_elements(By.CSS_SELECTOR, ".mcp-tool")}
    assert tools["add"].find_element(By.CSS_SELECTOR, ".mcp-tool-description").text == \
        "(from the MCP server 'lab') Adds two integers."
    assert tools["add"].find_element(By.TAG_NAME, "select").get_attribute("value") == "ask"
    browser.screenshot("mcp-settings")
    stored = driver.execute_async_script("const done = arguments[0]; chrome.storage.local.get(['mcpServers', 'mcpSecrets']).then(done);")
    [server] = stored["mcpServers"]
    assert server["name"] == "lab" and server["url"] == mcp.url
    assert "blue-secret" not in json.dumps(server)  # the header is kept apart, like the API key
    assert stored["mcpSecrets"] == {server["id"]: {"X-Team": "blue-secret"}}
    use_servers(chromium_panel(browser))


def test_test_connection_says_in_words_why_it_failed(browser, mcp):
    use_servers(chromium_panel(browser), {**server_entry(mcp), "url": "http://127.0.0.1:9/mcp"})
    result = check(chromium_panel(browser))
    assert not result["ok"] and result["error"].startswith("could not reach the MCP server at http://127.0.0.1:9/mcp")
    use_servers(chromium_panel(browser))


def test_a_tool_calling_turn_asks_before_the_call_and_reads_the_result_as_untrusted(lab_chat, model):
    model.script(tool_call("lab__add", a=2, b=40), Reply(text="It is 42."))
    lab_chat.send("What is 2 + 40? Use the lab.")
    asked = lab_chat.question(0)
    assert asked["message"] == "Call a tool of the MCP server lab"
    assert asked["details"]["server"] == "lab" and asked["details"]["tool"] == "add"
    assert json.loads(asked["details"]["arguments"]) == {"a": 2, "b": 40}
    # Allowing a whole site is for actions on a page, not for a server's tools.
    assert not lab_chat.question_boxes()[0].find_elements(By.CSS_SELECTOR, 'button[data-decision="site"]')
    lab_chat.screenshot("mcp-confirmation")
    lab_chat.answer_question(0, "once")
    lab_chat.wait_for_status("ok")
    source, content = page_content(told(model, 1))
    assert source == "MCP server lab, tool add" and json.loads(content) == {"sum": 42}
    offered = {t["function"]["name"]: t["function"] for t in model.requests[0]["body"]["tools"]}
    assert offered["lab__add"]["description"] == "(from the MCP server 'lab') Adds two integers."


def test_a_denied_call_never_reaches_the_server(lab_chat, model, mcp):
    model.script(tool_call("lab__slow", seconds=0.1), Reply(text="As you wish."))
    lab_chat.send("Wait a bit on the lab")
    lab_chat.question(0)
    lab_chat.answer_question(0, "deny")
    lab_chat.wait_for_status("ok")
    assert told(model, 1).startswith("The user denied this call of lab__slow: nothing was done.")


def test_policies_always_and_off(lab_chat, model, mcp):
    fingerprints = {t["name"]: t["fingerprint"] for t in check(lab_chat)["tools"]}
    use_servers(lab_chat, server_entry(mcp, {"add": {"policy": "always", "second_look": True, "fingerprint": fingerprints["add"]},
                                         "fail": {"policy": "off", "fingerprint": fingerprints["fail"]}}))
    model.script(tool_call("lab__add", a=1, b=1), Reply(text="2."))
    lab_chat.send("1 + 1 on the lab")
    lab_chat.wait_for_status("ok")
    assert not lab_chat.question_boxes()  # always allowed: not asked
    assert json.loads(page_content(told(model, 1))[1]) == {"sum": 2}
    assert "lab__fail" not in {t["function"]["name"] for t in model.requests[0]["body"]["tools"]}


def test_the_model_s_python_calls_mcp_tools_and_each_call_still_asks(lab_chat, model):
    lab_chat.configure(model.base_url, agent="code")
    try:
        code = 'print(lab__add(a=20, b=22))'
        model.script(Reply(text=f"Asking the lab.\n```python\n{code}\n```"), Reply(text="42."))
        lab_chat.send("20 + 22 with the lab, in code")
        assert lab_chat.question(0)["message"] == "Call a tool of the MCP server lab"
        lab_chat.answer_question(0, "once")
        lab_chat.wait_for_status("ok", timeout=60)
    finally:
        lab_chat.configure(model.base_url, agent="tool_calling")
    observation = model.requests[1]["body"]["messages"][-1]["content"]
    assert 'source="MCP server lab, tool add" untrusted="true">\n{\n  "sum": 42\n}' in observation


def test_stop_during_a_long_call_cancels_it_on_the_server(lab_chat, model, mcp):
    fingerprint = {t["name"]: t["fingerprint"] for t in check(lab_chat)["tools"]}["slow"]
    use_servers(lab_chat, server_entry(mcp, {"slow": {"policy": "always", "second_look": True, "fingerprint": fingerprint}}))
    before = mcp.cancelled_calls()
    model.script(tool_call("lab__slow", seconds=60), Reply(text="never"))
    lab_chat.send("Wait a minute on the lab")
    lab_chat.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "article.turn details.tool"), 30, "the call never started")
    lab_chat.driver.find_element(By.ID, "stop").click()
    lab_chat.wait_for_status("cancelled", timeout=20)
    lab_chat.wait(lambda d: mcp.cancelled_calls() == before + 1, 20, "the server was never told to cancel")


def test_an_unreachable_server_is_told_and_the_turn_goes_on(panel, model, mcp):
    use_servers(panel, {**server_entry(mcp), "url": "http://127.0.0.1:9/mcp"})
    model.script(Reply(text="Answered without the lab."))
    panel.send("Hello")
    panel.wait_for_status("ok", timeout=60)
    notice = panel.driver.find_element(By.CSS_SELECTOR, "article.turn .error.kind-mcp").text
    assert notice.startswith("The MCP server lab is left out of this turn: could not reach the MCP server at http://127.0.0.1:9/mcp")
    use_servers(panel)


def test_the_tools_view_lists_mcp_tools_beside_the_others_with_their_policy(panel, mcp):
    use_servers(panel, server_entry(mcp, {"fail": {"policy": "off", "fingerprint": "x"}}))
    try:
        panel.driver.find_element(By.ID, "show-tools").click()
        panel.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '.tools-list li[data-server="lab"]'), 60, "no MCP tool listed")
        listed = [li.get_attribute("data-tool") for li in panel.driver.find_elements(By.CSS_SELECTOR, ".tools-list li[data-tool]")]
        assert "read_page" in listed and "lab__add" in listed and "lab__resources" in listed
        assert "lab__fail" not in listed  # off: the model never sees it
        item = panel.driver.find_element(By.CSS_SELECTOR, '.tools-list li[data-tool="lab__add"]')
        item.find_element(By.TAG_NAME, "summary").click()
        assert item.find_element(By.CSS_SELECTOR, ".tool-policy").text == \
            "From the MCP server lab · Ask every time · runs in turns only"
        assert "def lab__add(a: int, b: int)" in item.find_element(By.CSS_SELECTOR, ".tool-signature").text
    finally:
        panel.driver.find_element(By.ID, "show-tools").click()
        use_servers(panel)


def test_a_tool_the_server_adds_is_offered_from_the_next_turn_on(panel, model):
    with MCPTestServer() as growing:
        use_servers(panel, server_entry(growing))
        fingerprint = {t["name"]: t["fingerprint"] for t in check(panel)["tools"]}["grow"]
        use_servers(panel, server_entry(growing, {"grow": {"policy": "always", "second_look": True, "fingerprint": fingerprint}}))
        model.script(tool_call("lab__grow"), Reply(text="Grown."), Reply(text="I see a new tool."))
        panel.send("Grow the lab")
        panel.wait_for_status("ok")
        assert "lab__late" not in {t["function"]["name"] for t in model.requests[0]["body"]["tools"]}
        panel.send("And now?")
        panel.wait(lambda d: len(model.requests) == 3, 30)
        panel.wait_for_status("ok")
        assert "lab__late" in {t["function"]["name"] for t in model.requests[2]["body"]["tools"]}
    use_servers(panel)


def test_a_server_prompt_is_a_slash_command_whose_text_the_user_sees_before_it_is_sent(lab_chat, model):
    box = lab_chat.driver.find_element(By.ID, "prompt")
    box.send_keys("/lab.")
    [suggested] = lab_chat.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '#slash-commands li[data-kind="mcp"]'), 60,
                       "the server's prompt was never suggested")
    assert suggested.text == "/lab.summarise Asks for a summary of a topic. topic=…"
    suggested.find_element(By.TAG_NAME, "button").click()
    assert box.get_attribute("value") == "/lab.summarise "
    box.send_keys("MCP")
    lab_chat.driver.find_element(By.ID, "send").click()
    lab_chat.wait(lambda d: box.get_attribute("value") == "Summarise MCP in three lines.", 30, "the prompt never came")
    assert model.requests == []  # nothing was sent: the user reads it first
    model.script(Reply(text="Three lines."))
    lab_chat.driver.find_element(By.ID, "send").click()
    lab_chat.wait_for_status("ok")
    assert model.requests[0]["body"]["messages"][-1]["content"] == "Summarise MCP in three lines."
