"""OpenAIModel against a real local HTTP server that streams real server-sent events."""

import asyncio
import json

import pytest

from tabagent.errors import (AuthError, BadRequestError, ContextTooLongError, ModelTimeoutError,
                             RateLimitError, ServerError, UnreachableError)
from tabagent.hosts.cpython import CPythonHost
from tabagent.models import OpenAIModel, parse_retry_after
from tabagent.replies import ReplyBuilder
from tests.helpers.scripted_model import canned_model, model_for
from tests.helpers.scripted_model import RecordingHost

pytestmark = pytest.mark.timeout(20)


class SleepingHost(RecordingHost):
    """The real HTTP host with real waits between retries, each recorded."""

    async def sleep(self, seconds):
        await super().sleep(seconds)
        await CPythonHost.sleep(self, seconds)


async def test_streams_text_and_reports_usage(server):
    model, tokens = model_for(server, "text"), []
    reply = await model.generate([{"role": "user", "content": "hi"}], on_token=tokens.append)
    assert reply.content == "Hello, wörld"
    assert tokens == ["Hel", "lo, ", "wörld"]  # each piece as it arrived, UTF-8 intact
    assert reply.usage == {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}
    assert reply.finish_reason == "stop" and reply.tool_calls == []


async def test_request_carries_key_model_tools_and_asks_for_usage(server):
    model = model_for(server, "text")
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    await model.generate([{"role": "user", "content": "hi"}], tools=tools)
    stats = server.stats(model.url.removesuffix("/chat/completions"))
    body, headers = stats["bodies"][0], stats["headers"][0]
    assert headers["authorization"] == "Bearer sk-test"
    assert body["model"] == "fake-model" and body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["tools"] == tools


async def test_tool_call_arguments_split_across_chunks(server):
    reply = await model_for(server, "tool_call_split").generate([{"role": "user", "content": "w"}])
    assert len(reply.tool_calls) == 1
    call = reply.tool_calls[0]
    assert (call.id, call.name) == ("call_abc", "get_weather")
    assert json.loads(call.arguments) == {"city": "Paris", "units": "C"}
    assert reply.finish_reason == "tool_calls"


async def test_two_parallel_tool_calls_interleaved_by_index(server):
    reply = await model_for(server, "parallel_tool_calls").generate([{"role": "user", "content": "x"}])
    assert [(c.id, c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [
        ("call_1", "add", {"a": 2, "b": 3}), ("call_2", "mul", {"a": 3, "b": 4})]


async def test_429_with_retry_after_then_success(server):
    model, retries = model_for(server, "rate_limited_once"), []
    reply = await model.generate([{"role": "user", "content": "hi"}],
                                 on_retry=lambda error, attempt, delay: retries.append((error, attempt, delay)))
    assert reply.content == "Hello, wörld"
    assert model.host.sleeps == [1.0]  # Retry-After: 1 honoured, not the tiny backoff
    (error, attempt, delay), = retries
    assert isinstance(error, RateLimitError) and error.status == 429
    assert (attempt, delay) == (1, 1.0)


async def test_500_three_times_then_a_clear_error(server):
    model = model_for(server, "server_error", max_retries=2, host=SleepingHost())
    with pytest.raises(ServerError) as caught:
        await model.generate([{"role": "user", "content": "hi"}])
    assert len(model.host.sleeps) == 2 and all(0 < s <= 0.002 for s in model.host.sleeps)  # the tiny backoff, really slept
    assert server.stats(model.url.removesuffix("/chat/completions"))["requests"] == 3
    message = str(caught.value)
    assert message.startswith(f"500 from {model.url}: the server failed")
    assert "The server had an error" in message and "gave up after 3 tries" in message
    assert caught.value.kind == "server" and caught.value.status == 500


async def test_backoff_grows_exponentially_with_jitter(server):
    model = model_for(server, "server_error", max_retries=3, backoff_base=1.0)
    with pytest.raises(ServerError):
        await model.generate([{"role": "user", "content": "hi"}])
    first, second, third = model.host.sleeps
    assert 0.5 <= first <= 1 and 1 <= second <= 2 and 2 <= third <= 4


async def test_401_fails_at_once_with_an_actionable_message(server):
    model = model_for(server, "unauthorized")
    with pytest.raises(AuthError) as caught:
        await model.generate([{"role": "user", "content": "hi"}])
    assert server.stats(model.url.removesuffix("/chat/completions"))["requests"] == 1
    assert model.host.sleeps == []
    assert str(caught.value).startswith(f"401 from {model.url}: check the API key.")
    assert "Incorrect API key provided" in str(caught.value)
    assert caught.value.kind == "auth"


async def test_context_too_long_is_recognised(server):
    with pytest.raises(ContextTooLongError) as caught:
        await model_for(server, "context_too_long").generate([{"role": "user", "content": "hi"}])
    assert caught.value.kind == "context_too_long" and "longer context" in str(caught.value)


async def test_dropped_connection_mid_stream_is_a_clear_error(server):
    model = model_for(server, "drop_mid_stream", max_retries=0)
    with pytest.raises(UnreachableError) as caught:
        await model.generate([{"role": "user", "content": "hi"}])
    assert "mid-response" in str(caught.value) and model.url in str(caught.value)


async def test_dropped_connection_is_retried(server):
    model, tokens, retries = model_for(server, "drop_once"), [], []
    reply = await model.generate([{"role": "user", "content": "hi"}], on_token=tokens.append,
                                 on_retry=lambda *args: retries.append(args))
    assert reply.content == "Hello, wörld"
    assert retries[0][0].kind == "unreachable"
    # The partial text of the broken attempt was streamed too: the retry event tells
    # the side panel to drop it (see docs/events.md).
    assert tokens[:2] == ["Partial", " answ"] and tokens[2:] == ["Hel", "lo, ", "wörld"]


async def test_cancellation_mid_stream_aborts_the_request(server):
    model, first_token = model_for(server, "slow_stream"), asyncio.Event()
    task = asyncio.create_task(model.generate([{"role": "user", "content": "hi"}],
                                              on_token=lambda text: first_token.set()))
    await asyncio.wait_for(first_token.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    key = model.url.removesuffix("/chat/completions")
    for _ in range(100):  # the server notices the hang-up on its next keep-alive write
        if server.stats(key)["disconnected"]:
            break
        await asyncio.sleep(0.02)
    assert server.stats(key)["disconnected"]


async def test_timeout_waiting_for_headers(server):
    model = model_for(server, "slow_headers", timeout=0.2, max_retries=0)
    with pytest.raises(ModelTimeoutError) as caught:
        await model.generate([{"role": "user", "content": "hi"}])
    assert "within 0.2 s" in str(caught.value) and caught.value.kind == "timeout"


async def test_endpoint_that_does_not_stream(server):
    tokens = []
    reply = await model_for(server, "non_streaming", stream=False).generate(
        [{"role": "user", "content": "hi"}], on_token=tokens.append)
    assert reply.content == "Hello from a plain endpoint" and tokens == [reply.content]
    assert reply.usage["total_tokens"] == 15


async def test_streaming_request_answered_with_plain_json_still_works(server):
    reply = await model_for(server, "non_streaming").generate([{"role": "user", "content": "hi"}])
    assert reply.content == "Hello from a plain endpoint"


async def test_unreachable_server(server):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    model = OpenAIModel(f"http://127.0.0.1:{port}/v1", model="m", host=RecordingHost(),
                        max_retries=1, backoff_base=0.001)
    with pytest.raises(UnreachableError) as caught:
        await model.generate([{"role": "user", "content": "hi"}])
    assert f"could not reach http://127.0.0.1:{port}/v1/chat/completions" in str(caught.value)
    assert "check the base URL" in str(caught.value) and len(model.host.sleeps) == 1


async def test_400_is_not_retried(server):
    model = model_for(server, "bad_request")
    with pytest.raises(BadRequestError) as caught:
        await model.generate([{"role": "user", "content": "hi"}])
    assert model.host.sleeps == [] and caught.value.kind == "bad_request"
    assert "'temperature' must be a number" in str(caught.value)


def test_reply_builder_handles_servers_that_omit_the_index():
    builder = ReplyBuilder()
    builder.add({"choices": [{"delta": {"tool_calls": [
        {"id": "a", "function": {"name": "f", "arguments": '{"x"'}}]}}]})
    builder.add({"choices": [{"delta": {"tool_calls": [{"function": {"arguments": ": 1}"}}]}}]})
    builder.add({"choices": [{"delta": {"tool_calls": [
        {"id": "b", "function": {"name": "g", "arguments": {"y": 2}}}]}, "finish_reason": "tool_calls"}]})
    reply = builder.reply()
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        ("a", "f", '{"x": 1}'), ("b", "g", '{"y": 2}')]


def test_retry_after_as_seconds_or_http_date():
    assert parse_retry_after("7", 0) == 7.0
    assert parse_retry_after(None, 0) is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", 1445412480.0) == 30.0
    assert parse_retry_after("soon", 0) is None


async def test_stream_without_content_type_is_still_read_as_events():
    model = canned_model([b'data: {"choices": [{"delta": {"content": "ok"}, "finish_reason": "stop"}]}\n\n'],
                         headers={})
    assert (await model.generate([])).content == "ok"


async def test_error_sent_inside_the_stream():
    model = canned_model([b'data: {"choices": [{"delta": {"content": "par"}}]}\n\n',
                          b'data: {"error": {"message": "upstream overloaded", "code": 502}}\n\n'])
    with pytest.raises(ServerError, match="llm.example/v1/chat/completions answered with an error mid-response \\(502\\).*upstream overloaded"):
        await model.generate([])


async def test_unreadable_event_is_a_bad_response():
    from tabagent.errors import BadResponseError

    with pytest.raises(BadResponseError, match="is it an OpenAI-compatible endpoint"):
        await canned_model([b"data: <html>oops</html>\n\n"]).generate([])


async def test_stream_that_ends_cleanly_without_done_or_finish_reason_was_cut():
    model = canned_model([b'data: {"choices": [{"delta": {"content": "Hal"}}]}\n\n'])
    with pytest.raises(UnreachableError, match="closed mid-response"):
        await model.generate([])


async def test_stream_that_ends_after_finish_reason_without_done_is_fine():
    model = canned_model([b'data: {"choices": [{"delta": {"content": "Hi"}, "finish_reason": "stop"}]}\n\n'])
    assert (await model.generate([])).content == "Hi"


def test_base_url_may_be_given_with_or_without_the_endpoint_path():
    assert OpenAIModel("https://x.test/v1/", host=CPythonHost()).url == "https://x.test/v1/chat/completions"
    assert OpenAIModel("https://x.test/v1/chat/completions", host=CPythonHost()).url == \
        "https://x.test/v1/chat/completions"


def test_default_host_in_cpython_is_httpx():
    from tabagent.hosts import default_host

    assert isinstance(default_host(), CPythonHost)


@pytest.mark.parametrize("recording", ["DEEPSEEK_REASONER", "OPENAI_REFUSAL", "GROQ_RAW", "PLAIN_REPLY"])
async def test_a_first_chunk_shorter_than_a_field_name_is_not_taken_for_garbage(recording):
    """Networks cut streams anywhere: a first chunk of b"dat" (or b"\\n:" or b"{") is the start
    of the same reply, read once enough bytes have come."""
    import provider_streams

    body = getattr(provider_streams, recording).encode()
    whole = await canned_model([body]).generate([])
    for cut in range(1, 12):
        pieces = [body[:1], body[1:cut], body[cut:]] if cut > 1 else [body[:cut], body[cut:]]
        reply = await canned_model([p for p in pieces if p]).generate([])
        assert (reply.content, reply.reasoning, reply.usage) == (whole.content, whole.reasoning, whole.usage), cut


async def test_a_reply_that_stops_inside_a_field_name_is_unexpected_not_empty():
    from tabagent.errors import BadResponseError

    with pytest.raises(BadResponseError, match="unexpected response .*b'dat'"):
        await canned_model([b"da", b"t"]).generate([])
