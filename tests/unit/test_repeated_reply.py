"""A reply that says word for word what the reply before it said: the next request, and only it,
is sampled otherwise (repeated_reply.py). Qwen2.5-Coder-0.5B as the CodeAgent (the real-model
bench, closed-day at b8ee412, temperature 0) read the page, then wrote the same code block 7 times:
nothing varied the next request. What each endpoint is sent is read from the request bodies."""

import json

import pytest

from scripted_endpoint import ScriptedEndpoint, sse_reply
from tabagent import CodeAgent, ToolCallingAgent
from tabagent.ollama import OllamaModel
from tabagent.models import OpenAIModel
from tabagent.repeated_reply import PENALTY, VARIED_TEMPERATURE
from tabagent.tools import tool

pytestmark = pytest.mark.timeout(30)

VARIED = {"temperature": VARIED_TEMPERATURE, "frequency_penalty": PENALTY, "presence_penalty": PENALTY}
FIELDS = ("temperature", "frequency_penalty", "presence_penalty")


@tool
def read_page() -> str:
    """Reads the page.
    """
    return "Open Monday to Friday, 9 to 5."


def sampling(body: dict) -> dict:
    return {key: body[key] for key in FIELDS if key in body}


def replies(agent_class) -> list[str]:
    """The row's habit: the same reply twice (its white space apart), then another, then the answer."""
    if agent_class is CodeAgent:
        same = "```python\nprint(read_page())\n```"
        return [same, same.replace("\n", " \n\n"), "```python\nx = read_page()\nprint(x)\n```",
                "```python\nfinal_answer('Monday to Friday')\n```"]
    same = '{"name": "read_page", "arguments": {}}'
    return [same, '{"name":"read_page",  "arguments":{}}', "Let me read it once more.",
            '{"name": "final_answer", "arguments": {"answer": "Monday to Friday"}}']


@pytest.mark.parametrize("agent_class", [CodeAgent, ToolCallingAgent])
async def test_a_reply_said_again_word_for_word_varies_the_next_request_only(agent_class):
    with ScriptedEndpoint() as endpoint:
        endpoint.chat.extend(sse_reply(text) for text in replies(agent_class))
        model = OpenAIModel(endpoint.base_url, model="m", temperature=0, max_retries=0)
        answer = await agent_class(model, [read_page], max_steps=6).run("When is the shop open?")
    assert answer == "Monday to Friday"
    sent = [sampling(body) for body in endpoint.chat_requests]
    assert sent == [{"temperature": 0}, {"temperature": 0}, VARIED, {"temperature": 0}]


async def test_a_user_s_temperature_above_the_varied_one_is_raised_a_little():
    with ScriptedEndpoint() as endpoint:
        endpoint.chat.append(sse_reply("Hello."))
        model = OpenAIModel(endpoint.base_url, model="m", temperature=1.3, max_retries=0)
        await model.generate([{"role": "user", "content": "Hi"}], varied=True)
    assert sampling(endpoint.chat_requests[0]) == {**VARIED, "temperature": 1.5}


async def test_ollama_s_native_api_takes_them_in_its_options():
    with ScriptedEndpoint() as ollama:
        ollama.chat.append(json.dumps({"model": "m", "message": {"role": "assistant", "content": "Hi."},
                                       "done": True, "done_reason": "stop"}).encode() + b"\n")
        model = OllamaModel(ollama.base_url, model="m", temperature=0, max_retries=0)
        await model.generate([{"role": "user", "content": "Hi"}], varied=True)
    options = ollama.chat_requests[0]["options"]
    assert options == {"num_ctx": options["num_ctx"], **VARIED}
    assert not set(FIELDS) & set(ollama.chat_requests[0])  # the native API takes them in options only


async def test_an_endpoint_that_refuses_them_is_asked_as_the_user_set_it_and_never_varied_again():
    """OpenAI's reasoning models take no temperature but 1, and no penalty: a 400."""
    refusal = (400, {"error": {"message": "Unsupported parameter: 'presence_penalty' is not supported with this "
                               "model.", "type": "invalid_request_error", "param": "presence_penalty"}})
    with ScriptedEndpoint() as endpoint:
        endpoint.chat.extend([refusal, sse_reply("First."), sse_reply("Second.")])
        model = OpenAIModel(endpoint.base_url, model="o-like", max_retries=0)
        reply = await model.generate([{"role": "user", "content": "Hi"}], varied=True)
        assert reply.content == "First." and len(reply.exchanges) == 2  # the trace shows both
        assert not model.can_vary
        await model.generate([{"role": "user", "content": "Hi"}], varied=True)
    assert [sampling(body) for body in endpoint.chat_requests] == [VARIED, {}, {}]
