"""The model client against providers' replies as they really send them (provider_streams.py),
played by a real local HTTP server in small pieces: reasoning kept apart from the answer,
errors told in words and retried only when the same error over HTTP would be."""

import pytest

from tabagent.errors import BadRequestError, BadResponseError, RateLimitError
from tabagent.reasoning import ThinkSplitter, split_unopened

from tests.helpers.scripted_model import model_for

pytestmark = pytest.mark.timeout(20)


async def generate(server, name, **options):
    model = model_for(server, f"recorded_{name}", **options)
    tokens, thoughts, retries = [], [], []
    reply = await model.generate([{"role": "user", "content": "hi"}], on_token=tokens.append,
                                 on_reasoning=thoughts.append,
                                 on_retry=lambda error, attempt, delay: retries.append(error))
    return reply, tokens, thoughts, retries


def requests(server, model_or_url) -> int:
    return server.stats(model_or_url.removesuffix("/chat/completions"))["requests"]


async def test_deepseek_reasoning_content_streams_apart_from_the_answer(server):
    reply, tokens, thoughts, _ = await generate(server, "deepseek_reasoner")
    assert thoughts == ["The user", " asks 9.11 vs 9.8.", " 9.8 is larger."]  # as it arrives
    assert tokens == ["9.8", " is larger."]
    assert reply.content == "9.8 is larger."
    assert reply.reasoning == "The user asks 9.11 vs 9.8. 9.8 is larger."
    assert reply.reasoning_field == "reasoning_content"
    assert reply.usage == {"prompt_tokens": 14, "completion_tokens": 42, "total_tokens": 56}


async def test_qwen3_through_ollama_think_block_is_reasoning_not_answer(server):
    reply, tokens, thoughts, _ = await generate(server, "ollama_qwen3")
    assert reply.content == "Hello! How can I help?"
    assert "".join(tokens) == reply.content
    assert "".join(thoughts).strip() == "Okay, the user wants a greeting."
    assert reply.reasoning.strip() == "Okay, the user wants a greeting."
    assert reply.reasoning_field is None  # inline: nothing to send back in a field


async def test_groq_raw_format_tags_split_across_chunks(server):
    reply, tokens, thoughts, _ = await generate(server, "groq_raw")
    assert reply.content == "The answer is 4."
    assert not any("<" in t or ">" in t for t in tokens + thoughts), (tokens, thoughts)
    assert reply.reasoning.strip() == "Let me count: 2 + 2 = 4."
    assert reply.usage == {"prompt_tokens": 18, "completion_tokens": 19, "total_tokens": 37}


async def test_openrouter_reasoning_is_taken_once_not_from_both_fields(server):
    reply, tokens, thoughts, _ = await generate(server, "openrouter_reasoning")
    assert thoughts == ["Paris is", " the capital."]
    assert reply.content == "Paris." and tokens == ["Paris."]
    assert reply.reasoning_field == "reasoning"


async def test_openrouter_reasoning_details_summary(server):
    reply, _, thoughts, _ = await generate(server, "openrouter_details_only")
    assert thoughts == ["Compared both numbers."]  # the encrypted part has no text to show
    assert reply.content == "9.8 is larger."


async def test_mistral_thinking_parts(server):
    reply, tokens, thoughts, _ = await generate(server, "mistral_thinking")
    assert thoughts == ["Two plus two", " makes four."]
    assert tokens == ["The answer is ", "4."]
    assert reply.content == "The answer is 4." and reply.reasoning == "Two plus two makes four."


async def test_groq_error_inside_the_stream_is_a_400_not_retried_and_told_in_words(server):
    model = model_for(server, "recorded_groq_tool_use_failed")
    with pytest.raises(BadRequestError) as caught:
        await model.generate([{"role": "user", "content": "weather?"}])
    message = str(caught.value)
    assert "mid-response (400)" in message and "tool call the server could not read" in message
    assert "the model wrote: <function=get_weather>" in message  # Groq's failed_generation
    assert "{\"error\"" not in message  # words, not raw JSON
    assert requests(server, model.url) == 1


async def test_openrouter_token_limit_after_length_keeps_the_text(server):
    reply, tokens, _, _ = await generate(server, "openrouter_token_limit")
    assert reply.finish_reason == "length"
    assert reply.content == "Here is a long list: one, two, three" == "".join(tokens)


async def test_openrouter_upstream_rate_limit_in_stream_is_retried_with_its_detail(server):
    reply, _, _, retries = await generate(server, "openrouter_rate_limited")
    (error,) = retries
    assert isinstance(error, RateLimitError) and error.status == 429
    assert "temporarily rate-limited upstream" in error.message and "provider: Venice" in error.message
    assert (error.attempts, error.max_attempts) == (1, 4)
    assert reply.content == "Paris."


async def test_refusal_is_the_models_reply(server):
    reply, tokens, _, _ = await generate(server, "openai_refusal")
    assert reply.refusal == "I'm sorry, I can't help with that."
    assert reply.content == reply.refusal == "".join(tokens)


async def test_tool_calls_sharing_an_index_but_not_an_id_stay_separate(server):
    reply, _, _, _ = await generate(server, "shared_index_calls")
    assert [(c.id, c.name, c.arguments) for c in reply.tool_calls] == [
        ("function-call-1", "get_weather", '{"city":"Paris"}'),
        ("function-call-2", "get_time", '{"timezone":"Europe/Paris"}')]


async def test_json_reply_labelled_as_a_stream_is_read_as_json(server):
    reply, tokens, thoughts, _ = await generate(server, "json_labelled_as_stream")
    assert reply.content == "Yes." and tokens == ["Yes."]
    assert thoughts == ["\nShort question.\n"]


async def test_stream_without_content_type_is_read_as_a_stream(server):
    reply, _, thoughts, _ = await generate(server, "stream_without_content_type")
    assert reply.content == "Paris." and thoughts == ["Paris is", " the capital."]


async def test_http_200_with_an_error_body_is_that_error(server):
    model = model_for(server, "recorded_error_body_with_200")
    with pytest.raises(BadRequestError) as caught:
        await model.generate([{"role": "user", "content": "x" * 10}])
    message = str(caught.value)
    assert "string too long" in message and "messages[1].content" in message
    assert "code: string_above_max_length" in message
    assert requests(server, model.url) == 1


async def test_a_body_that_is_neither_json_nor_events_is_a_bad_response():
    from tests.helpers.scripted_model import canned_model

    with pytest.raises(BadResponseError, match="OpenAI-compatible"):
        await canned_model([b"<!doctype html><title>Login</title>"]).generate([])


# --- <think> blocks, split anywhere ---------------------------------------------------

def split_everywhere(text):
    """The splitter's result for `text` cut into two pieces at every position, and into
    single characters: all must agree."""
    results = set()
    for cuts in [[i] for i in range(len(text) + 1)] + [list(range(1, len(text)))]:
        splitter, reasoning, content = ThinkSplitter(), "", ""
        for piece in [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]:
            r, c = splitter.feed(piece)
            reasoning, content = reasoning + r, content + c
        r, c = splitter.finish()
        results.add((reasoning + r, content + c))
    return results


def test_think_block_found_however_the_stream_is_cut():
    assert split_everywhere("  <think>a < b</think>\n\nAnswer <b>x</b>") == {("a < b", "Answer <b>x</b>")}


def test_think_block_never_closed_is_all_reasoning():
    assert split_everywhere("<think>still thinking about </thi") == {("still thinking about </thi", "")}


def test_think_tag_later_in_the_answer_is_the_answers_text():
    assert split_everywhere("Use <think> tags like this") == {("", "Use <think> tags like this")}
    assert split_everywhere("<thin") == {("", "<thin")}


def test_block_opened_by_the_chat_template_is_split_at_its_end():
    assert split_unopened("The user wants X.\n</think>\n\nX.") == ("The user wants X.", "X.")
    assert split_unopened("No tags here.") == ("", "No tags here.")


def test_openrouter_detail_over_http_is_kept_too():
    from provider_streams import OPENROUTER_RATE_LIMITED_UPSTREAM

    from tabagent.errors import error_for_status

    body = OPENROUTER_RATE_LIMITED_UPSTREAM.split("data: ", 1)[1].strip()
    error = error_for_status(429, "https://openrouter.ai/api/v1/chat/completions", body, "m")
    assert isinstance(error, RateLimitError) and error.retryable
    assert "Provider returned error" in error.message and "provider: Venice" in error.message
    assert "is temporarily rate-limited upstream" in error.message


def test_an_empty_think_block_leaves_no_reasoning():
    from tabagent.replies import ReplyBuilder

    builder = ReplyBuilder()
    for piece in ["<think>\n\n</think>\n\n", "Hello."]:
        builder.add({"choices": [{"delta": {"content": piece}}]})
    builder.finish()
    reply = builder.reply()
    assert (reply.reasoning, reply.content) == ("", "Hello.")
