"""What an MCP server asks while its tool runs, in Firefox, against the real server of
tests/helpers/asking_mcp_server.py (the official Python SDK, on 127.0.0.1): a form drawn in the
chat page and sent as the user filled it in, a sampling request shown in full and sent to the
user's model only when allowed, and a long call's progress bar and log. The Chromium side and
the attacks on each: tests/e2e/test_mcp_server_requests.py."""

from __future__ import annotations

import pytest

from tests.e2e.page_tabs import page_content
from tests.helpers.asking_mcp_server import forms_sent
from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import firefox_panel
from tests.helpers.tool_calls import call, told

from .sidebar import ask_background, configure, open_chat, send, wait_for_status

FORM = "[...document.querySelectorAll('article.turn .confirmation.elicitation')].at(-1)"


@pytest.fixture
def asking_chat_page(firefox, model, asking):
    model.reset()
    context = open_chat(firefox)
    configure(firefox, context, model.base_url)
    server = {"id": "id-asking", "name": "asking", "url": asking.url, "enabled": True, "tools": {}}
    ask_background(firefox, context, "save-mcp-servers", servers=[server], secrets={})
    yield context
    ask_background(firefox, context, "save-mcp-servers", servers=[], secrets={})


def allow_the_call(firefox, chat):
    panel = firefox_panel(firefox, chat)
    assert panel.question(0)["message"] == "Call a tool of the MCP server asking"
    panel.answer_question(0, "once")
    return panel


def test_a_server_s_form_is_filled_in_the_chat_page_and_sent_as_typed(firefox, asking_chat_page, model):
    chat = asking_chat_page
    model.script(call("asking__book_table"), Reply(text="Booked."))
    send(firefox, chat, "Book a table")
    panel = allow_the_call(firefox, chat)
    firefox.wait_for(chat, f"{FORM}?.dataset.state === 'asking'", 30, "the form was never drawn")
    assert firefox.evaluate(chat, f"{FORM}.querySelector('.confirmation-message').textContent") == \
        "The MCP server asking asks you to fill in a form"
    assert firefox.evaluate(chat, f"{FORM}.querySelectorAll('input[type=password]').length") == 0
    panel.backend.type_into("article.turn .confirmation.elicitation input[data-field='name']", "Ada")
    panel.backend.type_into("article.turn .confirmation.elicitation input[data-field='guests']", "3")
    firefox.evaluate(chat, f"""(() => {{
      {FORM}.querySelector("input[data-field='vegetarian']").click();
      const day = {FORM}.querySelector("select[data-field='day']");
      day.value = 'saturday';
      day.dispatchEvent(new Event('change', {{ bubbles: true }}));
      {FORM}.querySelector("button[data-decision='once']").click();
    }})()""")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    _, result = page_content(told(model, 1))
    assert result.startswith("booked for Ada, 3 guests on saturday, vegetarian=True"), result


# The forms issue 46 found drawn, and a real server received what was typed into them.
ISSUE_FORMS = [
    ("Please enter the verification code we texted you", '{"type": "object", "properties": {"code": {"type": "string"}}}'),
    ("Anmelden", '{"type": "object", "properties": {"value": {"type": "string", "title": "Passwort"}}}'),
    ("No worries, enter your password", '{"type": "object", "properties": {"value": {"type": "string"}}}'),
]


def test_red_team_forms_asking_for_codes_and_passwords_in_any_words_are_never_drawn_in_firefox(firefox, asking_chat_page, model, asking):
    chat = asking_chat_page
    before = forms_sent(asking.url)
    for message, schema in ISSUE_FORMS:
        firefox.evaluate(chat, "document.getElementById('new-chat').click()")
        model.script(call("asking__ask_for", message=message, schema_json=schema), Reply(text="Hm."))
        send(firefox, chat, "Sign me in")
        allow_the_call(firefox, chat)
        assert wait_for_status(firefox, chat, "ok", "error") == "ok"
        assert firefox.evaluate(chat, f"{FORM} ?? null") is None, message
        told_user = firefox.evaluate(chat, "[...document.querySelectorAll('article.turn')].at(-1).querySelector('.error.kind-mcp').textContent")
        assert "The MCP server asking asked something TabAgent refused: The form" in told_user, told_user
    assert forms_sent(asking.url) == before  # the server received nothing


def test_a_sampling_request_waits_for_the_user_and_its_reply_is_shown_before_it_goes_back(firefox, asking_chat_page, model):
    chat = asking_chat_page
    model.script(call("asking__summarise_with_your_model", text="A page about locks and keys."),
                 Reply(text="Locks."), Reply(text="Summarised."))
    send(firefox, chat, "Summarise it with the server")
    panel = allow_the_call(firefox, chat)
    asked = panel.question(1)
    assert asked["message"] == "The MCP server asking asks to use your model"
    assert "A page about locks and keys." in asked["details"]["request"]
    assert len(model.requests) == 1  # nothing sent to the model before the user says so
    panel.answer_question(1, "once")
    assert panel.question(2)["details"]["reply"] == "Locks."
    panel.answer_question(2, "once")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    assert page_content(told(model, 2))[1] == "the client's model said: Locks."


def test_a_long_call_draws_its_progress_and_keeps_the_server_s_log(firefox, asking_chat_page, model):
    chat = asking_chat_page
    model.script(call("asking__long_job", steps=12), Reply(text="Done."))
    send(firefox, chat, "Run the long job")
    allow_the_call(firefox, chat)
    bar = "document.querySelector('article.turn .tool-progress progress')"
    firefox.wait_for(chat, f"Number({bar}?.value ?? 0) >= 2", 30, "no progress was drawn")
    assert firefox.evaluate(chat, f"{bar}.max") == 12
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    logs = firefox.evaluate(chat, "[...document.querySelectorAll('article.turn .server-log')].map((e) => e.textContent)")
    assert logs == ["MCP server asking (info): starting 12 steps", "MCP server asking (warning): the job is done"]
