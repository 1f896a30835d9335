"""Red team: the model endpoint gets the API key and nothing of the user's browser (issue 22).

The user is logged in on the website that shares the model endpoint's host (here a page on
127.0.0.1, whose cookie the browser also sends to the scripted model on another port: cookies
go by host). An extension with host permission would send that cookie with its own requests
even in fetch's default mode, and after any redirect the endpoint answers with; the key is
the endpoint's only credential, so its requests carry no cookie: the chat requests made from
Python and the model list the panel and the settings load.
"""

from __future__ import annotations

import pytest

from tests.helpers.model_server import Reply

from .red_team import RED_TEAM_PAGES

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("signed_in")]

COOKIE = "provider_session=logged-in-4410"

LIST_MODELS = """
const [url, base_url, done] = arguments;
import(url).then((connection) => connection.fetchModels(base_url, "sk-endpoint-key")).then(done, (e) => done(String(e)));
"""


SITE = RED_TEAM_PAGES


@pytest.fixture(scope="module")
def signed_in(tabs, model, site):
    """The scripted model with an API key, and the user's session cookie on the hostile host."""
    tabs.configure(model.base_url, agent="tool_calling", api_key="sk-endpoint-key")
    tabs.show(site.url("private.html"))
    tabs.in_page(f"document.cookie = '{COOKIE}; path=/'")  # the user's session on that host


def test_the_chat_requests_carry_the_key_and_no_cookie(tabs, model):
    model.reset()
    model.script(Reply(text="Hello."))
    tabs.new_conversation()
    tabs.send("Say hello")
    tabs.wait_for_status("ok")
    assert model.requests, "the turn reached the model"
    for request in model.requests + model.lookups:
        assert request["headers"].get("authorization") == "Bearer sk-endpoint-key"
        assert "cookie" not in request["headers"], request["path"]


def test_the_model_list_carries_the_key_and_no_cookie(tabs, model, browser):
    model.reset()
    listed = browser.driver.execute_async_script(LIST_MODELS, browser.url("extension/shared/settings/connection.js"), model.base_url)
    assert listed["ok"] and listed["models"] == ["scripted-model", "scripted-model-large"]
    [lookup] = model.lookups
    assert lookup["headers"].get("authorization") == "Bearer sk-endpoint-key"
    assert "cookie" not in lookup["headers"]
