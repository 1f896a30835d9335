"""Reasoning and provider errors inside Pyodide (and, for parity, in CPython), through the
JavaScript-fetch host: the recorded provider streams of tests/unit/provider_streams.py,
played by tests/unit/fake_openai.py in small pieces."""

from cases_model import model_for, refused, server_stats

from tabagent import ToolCallingAgent, tool
from tabagent.errors import BadRequestError


async def test_deepseek_reasoning_streams_apart_from_the_answer():
    model, tokens, thoughts = model_for("recorded_deepseek_reasoner"), [], []
    reply = await model.generate([{"role": "user", "content": "hi"}], on_token=tokens.append,
                                 on_reasoning=thoughts.append)
    assert thoughts == ["The user", " asks 9.11 vs 9.8.", " 9.8 is larger."], thoughts
    assert reply.content == "9.8 is larger." == "".join(tokens), reply.content


async def test_think_tags_split_across_chunks_stay_out_of_the_answer():
    model, tokens = model_for("recorded_groq_raw"), []
    reply = await model.generate([{"role": "user", "content": "hi"}], on_token=tokens.append)
    assert reply.content == "The answer is 4." == "".join(tokens), tokens
    assert reply.reasoning.strip() == "Let me count: 2 + 2 = 4.", reply.reasoning


async def test_an_error_inside_the_stream_is_a_400_not_retried():
    model = model_for("recorded_groq_tool_use_failed")
    error = await refused(model, BadRequestError)
    assert "tool call the server could not read" in str(error), str(error)
    assert (await server_stats(model))["requests"] == 1


async def test_text_cut_by_the_length_limit_is_kept():
    reply = await model_for("recorded_openrouter_token_limit").generate([{"role": "user", "content": "hi"}])
    assert reply.finish_reason == "length" and reply.content == "Here is a long list: one, two, three"


async def test_json_reply_labelled_as_a_stream():
    reply = await model_for("recorded_json_labelled_as_stream").generate([{"role": "user", "content": "hi"}])
    assert (reply.content, reply.reasoning.strip()) == ("Yes.", "Short question."), reply


@tool
def get_weather(city: str) -> str:
    """The weather in a city.

    Args:
        city: The city's name.
    """
    return f"Sunny in {city}"


async def test_deepseek_reasoning_content_goes_back_on_the_tool_call():
    model = model_for("recorded_deepseek_tool_call")
    events = []
    agent = ToolCallingAgent(model, [get_weather], listeners=[events.append])
    assert await agent.run("Weather in Paris?") == "9.8 is larger."
    assistant = [m for m in (await server_stats(model))["bodies"][1]["messages"] if m["role"] == "assistant"][0]
    assert assistant["reasoning_content"] == "I need the weather for Paris.", assistant
    assert [e.kind for e in events if e.kind in ("reasoning", "tool_call")][:2] == ["reasoning", "tool_call"]
