"""Ollama without OLLAMA_ORIGINS in Firefox: TabAgent's own requests to the configured local
endpoint go without an Origin header (a declarativeNetRequest rule naming our moz-extension
host, which Firefox takes where it refuses the add-on id), and no one else's do."""

from __future__ import annotations

from tests.helpers.model_server import ModelServer, Reply


def test_the_local_endpoint_gets_no_origin_header_but_others_do(panel, model):
    panel.configure(model.base_url, provider="ollama", api_key="")
    model.script(Reply(text="Hello from a local model"))
    panel.send("Hi local")
    assert panel.wait_for_status("ok", "error") == "ok"
    assert "origin" not in model.requests[0]["headers"], model.requests[0]["headers"]
    with ModelServer() as other:  # a local server that is not the configured one keeps its Origin
        panel.run(f"fetch({other.base_url!r} + '/chat/completions', {{ method: 'POST', body: '{{}}' }}).then(() => 1, () => 0)")
        assert other.requests[0]["headers"].get("origin", "").startswith("moz-extension://")
