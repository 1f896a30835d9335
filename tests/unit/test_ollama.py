"""Ollama through its native API: each request asks for the context it needs (num_ctx),
the reply streams from its lines of JSON, and tool calls go both ways."""

import json

from scripted_endpoint import ScriptedEndpoint
from scripted_ollama import ScriptedOllama, ndjson
from tabagent.context_keeper import ContextKeeper
from tabagent.errors import ContextTooLongError
from tabagent.ollama import OllamaModel, num_ctx_for
from tabagent.app.turns import Turns, build_model, context_keeper, endpoint_recognised
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


def tokens_long(count: int) -> list[dict]:
    return [{"role": "user", "content": "word " * count}]


def test_num_ctx_is_chosen_once_and_only_grows_within_the_window():
    """Ollama reloads the model whenever num_ctx changes: a turn keeps its first choice until a
    request needs more, never goes back down, and the next turn starts where it ended."""
    model = OllamaModel("http://127.0.0.1:9/v1", model="keeps-its-size")
    model._cap = 16384
    sizes = [model.num_ctx(tokens_long(n), None) for n in (10, 2500, 10, 5000, 40_000, 100)]
    assert sizes == [4096, 4096, 4096, 8192, 16384, 16384]  # 40,000 words: capped at the window
    next_turn = OllamaModel("http://127.0.0.1:9/v1", model="keeps-its-size")
    assert next_turn.num_ctx(tokens_long(10), None) == 16384


def echo(text: str) -> str:
    """Says the text back.

    Args:
        text: what to say.
    """
    return text


async def test_a_conversation_keeps_one_num_ctx_within_the_window_across_turns(recorder):
    with ScriptedOllama({"qwen2.5:3b": {"context_length": 32768, "tools": True}}) as ollama:
        settings = {"provider": "ollama", "base_url": ollama.base_url, "model": "qwen2.5:3b",
                    "agent": "tool_calling", "max_steps": 6, "context_window": 8192}
        call = {"model": "qwen2.5:3b", "message": {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "echo", "arguments": {"text": "word " * 1500}}}]}, "done": False}
        for _ in range(4):  # each step's request is longer by the 3,000 words called and echoed
            ollama.chat.append(ndjson(call, said("", done=True, done_reason="stop")))
        ollama.chat += [ndjson(said("Done.", done=True, done_reason="stop")),
                        ndjson(said("Hi.", done=True, done_reason="stop"))]
        first = {"conversation_id": "a", "task": "Echo four times.", "memory": None, "settings": settings}
        await Turns().run(first, lambda event: None, tools=[echo])
        await Turns().run({**first, "conversation_id": "b", "task": "hi"}, lambda event: None, tools=[echo])
    sizes = [r["options"]["num_ctx"] for r in ollama.chat_requests]
    assert len(sizes) == 6 and sizes[0] == 4096 and sizes[-1] == 8192
    assert sizes == sorted(sizes) and max(sizes) == 8192  # grown when needed, never past the window


def test_the_command_line_pointed_at_ollamas_openai_route_gets_its_window_and_num_ctx(capsys):
    """`python -m tabagent --base-url http://localhost:11434/v1`: the README's way. Ollama is
    recognised by its /api/version, and spoken to through /api/chat with a num_ctx within
    the model's window capped by the setting (8,192 by default), not its trained 131,072."""
    from tabagent.app import cli

    with ScriptedOllama({"llama3.2": {"context_length": 131072, "tools": True}}) as ollama:
        ollama.chat.append(ndjson(said("Hello from Ollama.", done=True, done_reason="stop")))
        status = cli.main(["--base-url", ollama.base_url, "--model", "llama3.2", "--agent", "tool_calling",
                           "--events", "hi"])
        paths = [path for _, path, _ in ollama.seen]
    assert status == 0
    assert "/api/version" in paths and "/api/chat" in paths and "/v1/chat/completions" not in paths
    assert ollama.chat_requests[0]["options"]["num_ctx"] == 4096
    assert ("POST", "/api/show", {"model": "llama3.2"}) in ollama.seen
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [e["data"]["answer"] for e in events if e["kind"] == "final_answer"] == ["Hello from Ollama."]


async def test_the_custom_provider_recognises_ollama_and_leaves_other_servers_alone():
    with ScriptedOllama({"qwen3:4b": {"context_length": 40960, "tools": True}}) as ollama:
        request = {"settings": {"provider": "custom", "base_url": ollama.base_url, "model": "qwen3:4b"}}
        assert (await endpoint_recognised(request))["settings"]["provider"] == "ollama"
        chosen = {"settings": {"provider": "lmstudio", "base_url": ollama.base_url, "model": "qwen3:4b"}}
        assert await endpoint_recognised(chosen) == chosen  # a provider the user chose is kept
    with ScriptedEndpoint({("GET", "/api/version"): (404, {"error": "not found"})}) as other:
        request = {"settings": {"provider": "custom", "base_url": other.base_url, "model": "m"}}
        assert await endpoint_recognised(request) == request
