"""The trace of a turn: what the model was sent and said, exactly, at each step."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import ChromiumPanel


def test_trace_of_a_two_step_turn_is_exactly_what_crossed_the_wire(browser, model):
    panel = ChromiumPanel(browser).new_conversation()
    panel.configure(model.base_url, agent="tool_calling")
    model.script(Reply(text="Let me look at the tabs.", tool_calls=[{"name": "list_tabs", "arguments": {}}]),
                 Reply(text="You have some tabs open."))
    panel.send("Which tabs are open?")
    panel.wait_for_status("ok")
    # The panel hears the turn end as the service worker saves it: wait for the saved end.
    panel.wait(lambda _: any(r["turns"][0]["status"] == "ok" for r in panel.stored_conversations()
                                if r["turns"][0]["text"] == "Which tabs are open?"), 10)
    [record] = [r for r in panel.stored_conversations() if r["turns"][0]["text"] == "Which tabs are open?"]
    calls = [e["data"] for e in record["turns"][0]["events"] if e["kind"] == "model_call"]
    assert len(calls) == 2 and len(model.requests) == 2
    for call, request, response in zip(calls, model.requests, model.responses):
        assert call["request"] == request["raw"]  # the bytes the server received
        assert call["response"] == response  # the bytes the server sent
        assert call["status"] == 200
    assert '"list_tabs"' in calls[1]["request"]  # the second request carries the tool's result
    assert "sk-test" not in json.dumps(calls)

    panel.last_turn().find_element(By.CSS_SELECTOR, "button.show-trace").click()
    dialog = panel.wait(lambda d: (t := d.find_element(By.ID, "trace")).is_displayed() and t, 5)
    shown = dialog.find_elements(By.CSS_SELECTOR, ".model-call")
    assert len(shown) == 2
    panel.driver.execute_script("for (const d of arguments[0]) d.open = true", shown)
    first_request = json.loads(shown[0].find_element(By.CSS_SELECTOR, ".call-request").text)
    assert first_request == json.loads(model.requests[0]["raw"])
    assert shown[1].find_element(By.CSS_SELECTOR, ".call-response").text.strip() == model.responses[1].strip()
    panel.screenshot("trace")
    dialog.find_element(By.CSS_SELECTOR, ".close-trace").click()
    assert not panel.driver.find_element(By.ID, "trace").is_displayed()


def test_red_team_the_trace_writes_out_what_draws_nothing(panel, model):
    """A reply (or a page read) carrying characters that draw nothing: the request's JSON carries
    them as escapes, which the trace parsed and drew as nothing, or turned the words around with.
    Each is written out, in the request and the reply; Copy as JSON keeps the data as it is."""
    turned = "Nothing to see\u202e ti kcilc\u2060" + "".join(chr(0xE0000 + ord(c)) for c in "go")
    model.script(Reply(text=turned, tool_calls=[{"name": "list_tabs", "arguments": {}}]), Reply(text="Done."))
    panel.send("Which tabs are open?")
    panel.wait_for_status("ok")
    panel.last_turn().find_element(By.CSS_SELECTOR, "button.show-trace").click()
    dialog = panel.wait(lambda d: (t := d.find_element(By.ID, "trace")).is_displayed() and t, 5)
    texts = panel.driver.execute_script(
        "return [...arguments[0].querySelectorAll('.call-request, .call-response')].map((pre) => pre.textContent)", dialog)
    second_request = texts[2]
    assert "Nothing to see⟨U+202E⟩ ti kcilc⟨U+2060⟩⟨U+E0067⟩⟨U+E006F⟩" in second_request
    assert not any(ch in "".join(texts) for ch in ("\u202e", "\u2060", chr(0xE0067)))
    dialog.find_element(By.CSS_SELECTOR, ".close-trace").click()


# What OpenAI's chat completions send today: the counts, and objects breaking them down.
OPENAI_USAGE = {
    "prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290,
    "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                  "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
}


def test_the_trace_opens_and_shows_openais_own_usage_object(panel, model):
    model.script(Reply(text="Cached, mostly.", usage=OPENAI_USAGE))
    panel.send("How much did that cost?")
    panel.wait_for_status("ok")
    assert '"prompt_tokens_details": {"cached_tokens": 1024' in model.responses[-1]  # sent as OpenAI does
    panel.last_turn().find_element(By.CSS_SELECTOR, "button.show-trace").click()
    dialog = panel.wait(lambda d: (t := d.find_element(By.ID, "trace")).is_displayed() and t, 5)
    [call] = dialog.find_elements(By.CSS_SELECTOR, ".model-call")
    assert call.find_element(By.TAG_NAME, "summary").text.endswith("· 1234 in / 56 out tokens")
    dialog.find_element(By.CSS_SELECTOR, ".close-trace").click()


def imported_with_usage(usage) -> dict:
    """A shared conversation file whose one model call reports `usage` as its author wished."""
    def event(kind, seq, data):
        return {"kind": kind, "conversation_id": "shared", "agent": "agent", "depth": 0, "step": 1, "seq": seq, "time": 1.764e9, "data": data}

    events = [event("step_start", 1, {}),
              event("model_call", 2, {"url": "http://127.0.0.1:9/v1/chat/completions", "request": "{}", "status": 200,
                                      "response": 'data: {"usage": {"prompt_tokens": 1, "prompt_tokens_details": {"x": 1}}}',
                                      "started": 1.0, "ended": 2.0, "usage": usage}),
              event("final_answer", 3, {"answer": "Shared answer."}),
              event("done", 4, {"status": "ok", "steps": 1, "usage": {}})]
    turn = {"id": "turn-1", "text": "Shared question", "context": None, "startedAt": 1_764_000_000_000, "status": "ok", "events": events}
    return {"id": "shared", "title": "Shared usage", "createdAt": 1_764_000_000_000, "updatedAt": 1_764_000_001_000,
            "memory": None, "turns": [turn]}


def test_an_imported_trace_shows_only_whole_numbers_of_its_usage(browser, tmp_path):
    path = tmp_path / "shared.json"
    hostile = {"prompt_tokens": "<b>9999</b>", "completion_tokens": {"nested": 1}}
    path.write_text(json.dumps({"format": "tabagent-conversations", "version": 1, "conversations": [imported_with_usage(hostile)]}))
    panel = ChromiumPanel(browser).new_conversation()
    panel.driver.find_element(By.ID, "show-history").click()
    panel.driver.find_element(By.ID, "import-json").send_keys(str(path))
    panel.wait(lambda d: "Imported 1 conversation" in d.find_element(By.ID, "notice-text").text, 10)
    entry = panel.wait(lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#history-list .open") if b.text.startswith("Shared usage")], 5)[0]
    entry.click()
    panel.wait(lambda d: "Shared answer." in d.find_element(By.ID, "conversation").text, 10)
    panel.last_turn().find_element(By.CSS_SELECTOR, "button.show-trace").click()
    dialog = panel.wait(lambda d: (t := d.find_element(By.ID, "trace")).is_displayed() and t, 5)
    [call] = dialog.find_elements(By.CSS_SELECTOR, ".model-call")
    assert call.find_element(By.TAG_NAME, "summary").text.endswith("· ? in / ? out tokens")
    dialog.find_element(By.CSS_SELECTOR, ".close-trace").click()
