"""The trace: every request to the model and what came back, exactly, as model_call events."""

import json

import pytest

from tabagent import ToolCallingAgent
from tabagent.errors import AuthError

from tests.helpers.scripted_model import model_for

pytestmark = pytest.mark.timeout(20)


async def test_a_streamed_reply_records_the_exact_request_and_response(server):
    model = model_for(server, "text")
    reply = await model.generate([{"role": "user", "content": "hi"}])
    [exchange] = reply.exchanges
    sent = json.loads(exchange["request"])
    assert sent["messages"] == [{"role": "user", "content": "hi"}] and sent["stream"] is True
    assert exchange["status"] == 200
    assert exchange["response"].startswith("data: ") and "[DONE]" in exchange["response"]
    assert "wörld" in exchange["response"]
    assert exchange["started"] <= exchange["ended"]
    assert "sk-test" not in json.dumps(exchange)  # the key travels in a header, never in the trace


async def test_each_attempt_of_a_retried_request_is_recorded(server):
    reply = await model_for(server, "rate_limited_once").generate([{"role": "user", "content": "hi"}])
    assert [e["status"] for e in reply.exchanges] == [429, 200]


async def test_a_failed_request_keeps_its_exchange_for_the_trace(server):
    model = model_for(server, "unauthorized")
    with pytest.raises(AuthError) as failure:
        await model.generate([{"role": "user", "content": "hi"}])
    assert [e["status"] for e in failure.value.exchanges] == [401]


async def test_the_agent_emits_a_model_call_event_per_request(server):
    events = []
    agent = ToolCallingAgent(model_for(server, "text"), listeners=[events.append])
    await agent.run("hi")
    calls = [e for e in events if e.kind == "model_call"]
    assert len(calls) == 1 and json.loads(calls[0].data["request"])["messages"][-1]["content"] == "hi"
    kinds = [e.kind for e in events]
    assert kinds.index("model_call") < kinds.index("final_answer")


async def test_a_failed_run_still_traces_the_request(server):
    events = []
    agent = ToolCallingAgent(model_for(server, "unauthorized"), listeners=[events.append])
    with pytest.raises(AuthError):
        await agent.run("hi")
    assert [e.data["status"] for e in events if e.kind == "model_call"] == [401]


async def test_each_exchange_carries_the_usage_read_from_its_reply(server):
    # The trace shows usage from here: it never has to pick it out of the raw reply text.
    reply = await model_for(server, "rate_limited_once").generate([{"role": "user", "content": "hi"}])
    failed, answered = reply.exchanges
    assert "usage" not in failed  # a refused attempt used nothing the server reported
    assert answered["usage"] == reply.usage == {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}
