"""Ollama through its native API: each request asks for the context it needs (num_ctx),
the reply streams from its lines of JSON, and tool calls go both ways."""

import json

from scripted_endpoint import ScriptedEndpoint
from tabagent.context import ContextKeeper
from tabagent.errors import ContextTooLongError
from tabagent.ollama import OllamaModel, num_ctx_for
from tabagent.app.turn_request import build_model, context_keeper
from tabagent.tool_calling_agent import ToolCallingAgent


def lines(*objects) -> bytes:
    return b"".join(json.dumps(o).encode() + b"\n" for o in objects)


def said(text, done=False, **extra):
    return {"model": "qwen2.5:7b", "message": {"role": "assistant", "content": text}, "done": done, **extra}


def test_num_ctx_holds_the_request_and_a_reply_in_powers_of_two():
    short = [{"role": "user", "content": "hi"}]
    long = [{"role": "user", "content": "word " * 6000}]
    assert num_ctx_for(short, None) == 4096
    assert num_ctx_for(long, None) == 8192
    assert num_ctx_for([{"role": "user", "content": "word " * 30000}], None) == 65536


async def test_a_turn_asks_for_the_context_it_needs_and_streams(recorder):
    show = (200, {"model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768}})
    with ScriptedEndpoint({("POST", "/api/show"): show}) as ollama:
        settings = {"provider": "ollama", "base_url": ollama.base_url, "model": "qwen2.5:7b"}
        model = build_model(settings, None)
        assert isinstance(model, OllamaModel) and model.url == ollama.root + "/api/chat"
        ollama.chat.append(lines(
            said("", tool_calls=None) | {"message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": "add", "arguments": {"a": 2, "b": 3}}}]}},
            said("", done=True, done_reason="stop", prompt_eval_count=40, eval_count=9)))
        ollama.chat.append(lines(said("The sum "), said("is 5."), said("", done=True, done_reason="stop",
                                                                        prompt_eval_count=60, eval_count=4)))

        def add(a: int, b: int) -> int:
            """Adds.

            Args:
                a: one number.
                b: another.
            """
            return a + b

        agent = ToolCallingAgent(model, [add], listeners=[recorder],
                                 context=context_keeper(model, settings, None))
        assert await agent.run("What is 2 + 3?") == "The sum is 5."
        first, second = ollama.chat_requests
    assert ("POST", "/api/show", {"model": "qwen2.5:7b"}) in ollama.seen
    assert first["options"] == {"num_ctx": 4096} and first["stream"] is True
    assert first["tools"][0]["function"]["name"] == "add"
    # The tool call goes back with its arguments as an object, and its result as a tool message.
    assistant, tool = second["messages"][-2:]
    assert assistant["tool_calls"] == [{"function": {"name": "add", "arguments": {"a": 2, "b": 3}}}]
    assert tool == {"role": "tool", "content": "5"}
    assert [e.data["text"] for e in recorder.of("token")] == ["The sum ", "is 5."]
    assert recorder.of("done")[-1].data["usage"]["prompt_tokens"] == 100


async def test_an_error_line_is_told_and_a_context_error_recovered_once(recorder):
    with ScriptedEndpoint() as ollama:
        model = OllamaModel(ollama.base_url, model="m")
        ollama.chat.append((400, {"error": "model 'm' not found, try pulling it first"}))
        agent = ToolCallingAgent(model, [], listeners=[recorder])
        try:
            await agent.run("hi")
        except Exception as error:
            assert error.kind == "not_found" or "not found" in str(error)
        ollama.chat.append(lines({"error": "the input is too long for the context window"}))
        agent = ToolCallingAgent(model, [], listeners=[recorder], context=ContextKeeper.fixed(4096))
        try:
            await agent.run("hi")
            raise AssertionError("a refusal that compacting cannot help must be told")
        except ContextTooLongError as error:
            assert "Ollama said: the input is too long" in str(error)
        assert len(ollama.chat_requests) == 2  # one per run: the refused one was not sent again
