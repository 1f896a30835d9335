"""Servers that refuse tool definitions: recognised by their own words, never retried, and
spoken to with text calls for the rest of the conversation and the next turns (tool_refusals.py).

The refusals are the servers' own: Ollama's 400 (scripted_ollama.py says where it comes from)
and llama.cpp's 500 without --jinja ({"error": {"code": 500, "message": "tools param requires
--jinja flag", "type": "server_error"}}: tools/server/server-common.cpp, format_error_response).
"""

import json

import pytest

from scripted_endpoint import ScriptedEndpoint, sse_reply
from scripted_ollama import ScriptedOllama, ndjson
from tabagent.app.turns import build_model
from tabagent.errors import ServerError, ToolsRefusedError, error_for_status
from tabagent.hosts.cpython import CPythonHost
from tabagent.models import OpenAIModel
from tabagent.ollama import OllamaModel
from tabagent.tool_calling_agent import ToolCallingAgent

pytestmark = pytest.mark.timeout(30)

LLAMA_CPP_NO_JINJA = {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}


class NoWaitHost(CPythonHost):
    async def sleep(self, seconds):
        self.slept = getattr(self, "slept", 0) + 1


def add(a: int, b: int) -> int:
    """Adds two numbers.

    Args:
        a: one number.
        b: another.
    """
    return a + b


def ollama_says(text: str) -> bytes:
    return ndjson({"model": "gemma:2b", "message": {"role": "assistant", "content": text}, "done": False},
                  {"model": "gemma:2b", "message": {"role": "assistant", "content": ""}, "done": True,
                   "done_reason": "stop", "prompt_eval_count": 50, "eval_count": 9})


def test_the_refusals_are_recognised_by_their_words_and_not_retried():
    ollama = error_for_status(400, "http://h/api/chat", json.dumps(
        {"error": "registry.ollama.ai/library/gemma:2b does not support tools"}), "gemma:2b")
    llama = error_for_status(500, "http://h/v1/chat/completions", json.dumps(LLAMA_CPP_NO_JINJA), "m")
    for error in (ollama, llama):
        assert isinstance(error, ToolsRefusedError) and not error.retryable
    assert "tools param requires --jinja flag" in llama.message
    other = error_for_status(500, "http://h/v1/chat/completions", json.dumps({"error": {"message": "oops"}}), "m")
    assert isinstance(other, ServerError) and other.retryable  # a plain 500 is still retried


async def test_ollama_refusing_tools_gets_text_calls_for_the_turn_and_the_next(recorder):
    with ScriptedOllama({"gemma:2b": {"context_length": 8192, "tools": False}}) as ollama:
        settings = {"provider": "ollama", "base_url": ollama.base_url, "model": "gemma:2b"}
        model = build_model(settings, None)
        ollama.chat += [ollama_says('{"name": "add", "arguments": {"a": 2, "b": 3}}'), ollama_says("It is 5.")]
        agent = ToolCallingAgent(model, [add], listeners=[recorder])
        assert await agent.run("What is 2 + 3?") == "It is 5."
        refused, first, second = ollama.chat_requests
        assert refused["tools"][0]["function"]["name"] == "add"
        assert "tools" not in first and "tools" not in second
        prompt = first["messages"][0]["content"]
        assert '"name": "tool_name"' in prompt and '"a": {"type": "integer"' in prompt  # calls as text, schemas
        assert [e.data["result"] for e in recorder.of("tool_result")] == ["5"]
        told = [e.data for e in recorder.of("error")]
        assert [t["kind"] for t in told] == ["text_calls"] and "does not support tools" in told[0]["message"]
        # The next turn, with a new model object as each turn builds, asks with text calls at once.
        ollama.chat.append(ollama_says("Hello."))
        again = ToolCallingAgent(build_model(settings, None), [add], listeners=[recorder])
        assert await again.run("hi") == "Hello."
        assert "tools" not in ollama.chat_requests[-1] and len(ollama.chat_requests) == 4


async def test_ollama_with_a_model_that_takes_tools_still_gets_them(recorder):
    with ScriptedOllama({"qwen3:4b": {"context_length": 40960, "tools": True}}) as ollama:
        model = OllamaModel(ollama.base_url, model="qwen3:4b")
        ollama.chat.append(ollama_says("Hi."))
        assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("hi") == "Hi."
        assert ollama.chat_requests[0]["tools"][0]["function"]["name"] == "add"
        assert model.takes_tools and not recorder.of("error")


async def test_llama_cpp_without_jinja_is_asked_once_then_spoken_to_with_text_calls(recorder):
    with ScriptedEndpoint() as llama:
        host = NoWaitHost()
        model = OpenAIModel(llama.base_url, model="smollm2", host=host, max_retries=3)
        llama.chat += [(500, LLAMA_CPP_NO_JINJA), sse_reply('<tool_call>\n{"name": "add", "arguments": '
                                                            '{"a": 4, "b": 5}}\n</tool_call>'), sse_reply("9.")]
        assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("4 + 5?") == "9."
        assert len(llama.chat_requests) == 3 and not getattr(host, "slept", 0)  # the 500 was not retried
        assert "tools" in llama.chat_requests[0] and "tools" not in llama.chat_requests[1]
        assert not [e for e in recorder.of("error") if e.data["kind"] == "retrying"]
        assert [e.data["result"] for e in recorder.of("tool_result")] == ["9"]


async def test_a_refusal_on_the_openai_route_of_ollama_is_the_same(recorder):
    with ScriptedOllama({"gemma:2b": {"context_length": 8192, "tools": False}}) as ollama:
        model = OpenAIModel(ollama.base_url, model="gemma:2b", host=NoWaitHost())
        ollama.chat.append(sse_reply("Fine."))
        assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("hi") == "Fine."
        assert len(ollama.chat_requests) == 2 and "tools" not in ollama.chat_requests[1]
