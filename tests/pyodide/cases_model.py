"""Model-client cases run inside Pyodide (and, for parity, in CPython).

Plain `async def test_*` functions with asserts: no pytest inside Pyodide. The
server is tests/unit/fake_openai.py, started by test_in_pyodide.py; its address
comes in the TABAGENT_TEST_SERVER environment variable. In Pyodide the default host
is the JavaScript-fetch one, so these cases prove that path on a real socket.
"""

import asyncio
import json
import os
import sys
import uuid

from tabagent.errors import AuthError, ModelTimeoutError, RateLimitError, ServerError, UnreachableError
from tabagent.hosts import default_host
from tabagent.models import OpenAIModel


async def refused(model, error_type) -> Exception:
    """The `error_type` error that asking `model` to answer "hi" raises; fails if it answers."""
    try:
        await model.generate([{"role": "user", "content": "hi"}])
    except error_type as error:
        return error
    raise AssertionError(f"expected {error_type.__name__}")


def base_url(scenario: str) -> str:
    return f"{os.environ['TABAGENT_TEST_SERVER']}/s/{scenario}/{uuid.uuid4().hex}/v1"


def recording_host():
    """The interpreter's real host, with waits between retries recorded, not slept."""
    host = default_host()
    host.sleeps = []

    async def sleep(seconds):
        host.sleeps.append(seconds)

    host.sleep = sleep
    return host


def model_for(scenario: str, **options) -> OpenAIModel:
    options.setdefault("host", recording_host())
    options.setdefault("backoff_base", 0.001)
    return OpenAIModel(base_url(scenario), api_key="sk-test", model="fake-model", **options)


async def server_stats(model: OpenAIModel) -> dict:
    url = model.url.removesuffix("/chat/completions") + "/stats"
    response = await model.host.request("GET", url, {}, None, 5)
    return json.loads(await response.read())


async def test_default_host_matches_the_interpreter():
    expected = "PyodideHost" if sys.platform == "emscripten" else "CPythonHost"
    assert type(default_host()).__name__ == expected


async def test_streams_text_token_by_token():
    model, tokens = model_for("text"), []
    reply = await model.generate([{"role": "user", "content": "hi"}], on_token=tokens.append)
    assert reply.content == "Hello, wörld", reply.content
    assert tokens == ["Hel", "lo, ", "wörld"], tokens
    assert reply.usage == {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}
    headers = (await server_stats(model))["headers"][0]
    assert headers["authorization"] == "Bearer sk-test"


async def test_tool_call_arguments_split_across_chunks():
    reply = await model_for("tool_call_split").generate([{"role": "user", "content": "w"}])
    (call,) = reply.tool_calls
    assert (call.id, call.name) == ("call_abc", "get_weather")
    assert json.loads(call.arguments) == {"city": "Paris", "units": "C"}


async def test_two_parallel_tool_calls():
    reply = await model_for("parallel_tool_calls").generate([{"role": "user", "content": "x"}])
    assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [
        ("add", {"a": 2, "b": 3}), ("mul", {"a": 3, "b": 4})]


async def test_429_with_retry_after_then_success():
    model, retries = model_for("rate_limited_once"), []
    reply = await model.generate([{"role": "user", "content": "hi"}],
                                 on_retry=lambda error, attempt, delay: retries.append(error))
    assert reply.content == "Hello, wörld"
    assert model.host.sleeps == [1.0], model.host.sleeps
    assert isinstance(retries[0], RateLimitError)


async def test_500_three_times_then_a_clear_error():
    model = model_for("server_error", max_retries=2)
    error = await refused(model, ServerError)
    assert str(error).startswith(f"500 from {model.url}: the server failed"), str(error)
    assert "gave up after 3 tries" in str(error)
    assert (await server_stats(model))["requests"] == 3


async def test_401_fails_at_once():
    model = model_for("unauthorized")
    error = await refused(model, AuthError)
    assert str(error).startswith(f"401 from {model.url}: check the API key."), str(error)
    assert model.host.sleeps == [] and (await server_stats(model))["requests"] == 1


async def test_dropped_connection_mid_stream():
    model = model_for("drop_mid_stream", max_retries=0)
    error = await refused(model, UnreachableError)
    assert "mid-response" in str(error), str(error)


async def test_dropped_connection_is_retried():
    reply = await model_for("drop_once").generate([{"role": "user", "content": "hi"}])
    assert reply.content == "Hello, wörld"


async def test_cancellation_mid_stream_aborts_the_request():
    model, first_token = model_for("slow_stream"), asyncio.Event()
    task = asyncio.ensure_future(model.generate([{"role": "user", "content": "hi"}],
                                                on_token=lambda text: first_token.set()))
    await asyncio.wait_for(first_token.wait(), 5)
    task.cancel()
    try:
        await task
        raise AssertionError("expected CancelledError")
    except asyncio.CancelledError:
        pass
    for _ in range(100):
        if (await server_stats(model))["disconnected"]:
            break
        await asyncio.sleep(0.02)
    assert (await server_stats(model))["disconnected"], "the server never saw the client hang up"


async def test_timeout_waiting_for_headers():
    model = model_for("slow_headers", timeout=0.2, max_retries=0)
    error = await refused(model, ModelTimeoutError)
    assert "within 0.2 s" in str(error)


async def test_endpoint_that_does_not_stream():
    reply = await model_for("non_streaming", stream=False).generate([{"role": "user", "content": "hi"}])
    assert reply.content == "Hello from a plain endpoint" and reply.usage["total_tokens"] == 15
