"""Replies as real providers send them, byte for byte in their shape: reasoning in its
various fields, errors inside streams, refusals, tool calls that share an index.

Written after the providers' documented and observed streams (ids, timestamps and
fingerprints are made up; field order, extra fields, keep-alive comments and the
position of errors are theirs). fake_openai.py plays them at `/s/recorded_<name>/`;
a name with several recordings plays one per attempt (the last one repeats).
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Recording:
    body: str
    status: int = 200
    content_type: str | None = "text/event-stream; charset=utf-8"


def sse(*payloads, done: bool = True) -> str:
    """`data:` lines the way servers write them: compact JSON, a blank line after each."""
    lines = []
    for payload in payloads:
        lines.append(f"{payload}\n\n" if isinstance(payload, str)  # a comment, e.g. ": keep-alive"
                     else f"data: {json.dumps(payload, separators=(',', ':'), ensure_ascii=False)}\n\n")
    if done:
        lines.append("data: [DONE]\n\n")
    return "".join(lines)


# --- DeepSeek (deepseek-reasoner): reasoning_content, then content ------------------------

def _deepseek(delta, finish=None, usage=None):
    chunk = {"id": "3f1d6c1e-8b1b-4c5e-9a55-0c4ad3c1d2aa", "object": "chat.completion.chunk",
             "created": 1748000000, "model": "deepseek-reasoner", "system_fingerprint": "fp_5417b77867_prod0425fp8",
             "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}
    if usage:
        chunk["usage"] = usage
    return chunk


DEEPSEEK_USAGE = {"prompt_tokens": 14, "completion_tokens": 42, "total_tokens": 56,
                  "prompt_tokens_details": {"cached_tokens": 0},
                  "completion_tokens_details": {"reasoning_tokens": 30},
                  "prompt_cache_hit_tokens": 0, "prompt_cache_miss_tokens": 14}

DEEPSEEK_REASONER = sse(
    _deepseek({"role": "assistant", "content": None, "reasoning_content": ""}),
    _deepseek({"content": None, "reasoning_content": "The user"}),
    _deepseek({"content": None, "reasoning_content": " asks 9.11 vs 9.8."}),
    ": keep-alive",
    _deepseek({"content": None, "reasoning_content": " 9.8 is larger."}),
    _deepseek({"content": "9.8", "reasoning_content": None}),
    _deepseek({"content": " is larger.", "reasoning_content": None}),
    _deepseek({"content": "", "reasoning_content": None}, "stop", DEEPSEEK_USAGE),
)

# Thinking mode with tools: reasoning, then a tool call (reasoning_content must come back).
DEEPSEEK_TOOL_CALL = sse(
    _deepseek({"role": "assistant", "content": None, "reasoning_content": ""}),
    _deepseek({"content": None, "reasoning_content": "I need the weather for Paris."}),
    _deepseek({"content": None, "reasoning_content": None, "tool_calls": [{"index": 0, "id": "call_00_8Nv2xH",
               "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
    _deepseek({"content": None, "reasoning_content": None, "tool_calls": [{"index": 0,
               "function": {"arguments": "{\"city\": \"Paris\"}"}}]}),
    _deepseek({"content": None, "reasoning_content": None}, "tool_calls", DEEPSEEK_USAGE),
)


# --- Qwen3 through Ollama's /v1: <think> inline in the content --------------------------

def _ollama(content, finish=None):
    return {"id": "chatcmpl-412", "object": "chat.completion.chunk", "created": 1748000001, "model": "qwen3:8b",
            "system_fingerprint": "fp_ollama",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": content}, "finish_reason": finish}]}


OLLAMA_QWEN3 = sse(
    *[_ollama(piece) for piece in ["<think>", "\n", "Okay", ", the user", " wants a greeting", ".\n", "</think>",
                                   "\n\n", "Hello", "!", " How can I help?"]],
    _ollama("", "stop"),
    {"id": "chatcmpl-412", "object": "chat.completion.chunk", "created": 1748000001, "model": "qwen3:8b",
     "system_fingerprint": "fp_ollama", "choices": [],
     "usage": {"prompt_tokens": 12, "completion_tokens": 25, "total_tokens": 37}},
)


# --- Groq, reasoning_format "raw": tags split across chunks; and its in-stream error -----

def _groq(delta, finish=None, x_groq=None):
    chunk = {"id": "chatcmpl-2c6f1b1a", "object": "chat.completion.chunk", "created": 1748000002,
             "model": "qwen/qwen3-32b", "system_fingerprint": "fp_5cf3fa1dd4",
             "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}
    if x_groq:
        chunk["x_groq"] = x_groq
    return chunk


GROQ_RAW = sse(
    _groq({"role": "assistant", "content": ""}, x_groq={"id": "req_01jv8"}),
    *[_groq({"content": piece}) for piece in ["<thi", "nk>\nLet me count: ", "2 + 2 = 4.", "\n</th",
                                              "ink>\n\nThe answer", " is 4."]],
    _groq({}, "stop", {"id": "req_01jv8", "usage": {"queue_time": 0.05, "prompt_tokens": 18,
                                                     "prompt_time": 0.003, "completion_tokens": 19,
                                                     "completion_time": 0.04, "total_tokens": 37,
                                                     "total_time": 0.043}}),
)

GROQ_TOOL_USE_FAILED = sse(
    _groq({"role": "assistant", "content": ""}, x_groq={"id": "req_01jv9"}),
    {"error": {"message": "Failed to call a function. Please adjust your prompt. See 'failed_generation' for "
                          "more details.", "type": "invalid_request_error", "code": "tool_use_failed",
               "failed_generation": "<function=get_weather>{\"city\": \"Paris\"</function>",
               "status_code": 400}},
    done=False,
)


# --- OpenRouter: reasoning and reasoning_details, errors inside the stream --------------

def _openrouter(delta, finish=None, **extra):
    return {"id": "gen-1748000003-Qx7", "provider": "DeepInfra", "model": "deepseek/deepseek-r1",
            "object": "chat.completion.chunk", "created": 1748000003,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "native_finish_reason": finish,
                         "logprobs": None}], **extra}


def _thought(text):
    return {"role": "assistant", "content": "", "reasoning": text,
            "reasoning_details": [{"type": "reasoning.text", "text": text, "format": "unknown", "index": 0}]}


OPENROUTER_REASONING = sse(
    ": OPENROUTER PROCESSING",
    _openrouter(_thought("Paris is")),
    _openrouter(_thought(" the capital.")),
    _openrouter({"role": "assistant", "content": "Paris."}),
    _openrouter({"role": "assistant", "content": ""}, "stop",
                usage={"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21}),
)

# Only the structured form (as with models that send summaries, e.g. OpenAI's o-series).
OPENROUTER_DETAILS_ONLY = sse(
    _openrouter({"role": "assistant", "content": "", "reasoning_details": [
        {"type": "reasoning.summary", "summary": "Compared both numbers.", "format": "openai-responses-v1",
         "index": 0},
        {"type": "reasoning.encrypted", "data": "gAAAAABo...", "format": "openai-responses-v1", "index": 1}]}),
    _openrouter({"role": "assistant", "content": "9.8 is larger."}, "stop"),
)

OPENROUTER_TOKEN_LIMIT = sse(
    ": OPENROUTER PROCESSING",
    _openrouter({"role": "assistant", "content": "Here is a long list: one, two,"}),
    _openrouter({"role": "assistant", "content": " three"}, "length"),
    _openrouter({"role": "assistant", "content": ""}, "error", error={"code": 400, "message": "Token limit reached"}),
    done=False,
)

OPENROUTER_RATE_LIMITED_UPSTREAM = sse(
    ": OPENROUTER PROCESSING",
    {"id": "gen-1748000004-Zr2", "object": "chat.completion.chunk", "created": 1748000004,
     "model": "meta-llama/llama-3.3-70b-instruct:free", "provider": "Venice",
     "error": {"message": "Provider returned error", "code": 429, "metadata": {
         "raw": "meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream. Please retry "
                "shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
         "provider_name": "Venice"}},
     "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}]},
    done=False,
)


# --- Mistral (magistral): thinking content parts ---------------------------------------

def _mistral(content, finish=None, usage=None):
    delta = {"content": content} if content is not None else {}
    chunk = {"id": "9e4c0f0a6b8f4f0c", "object": "chat.completion.chunk", "created": 1748000005,
             "model": "magistral-medium-2509", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage:
        chunk["usage"] = usage
    return chunk


MISTRAL_THINKING = sse(
    {"id": "9e4c0f0a6b8f4f0c", "object": "chat.completion.chunk", "created": 1748000005,
     "model": "magistral-medium-2509", "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                                     "finish_reason": None}]},
    _mistral([{"type": "thinking", "thinking": [{"type": "text", "text": "Two plus two"}]}]),
    _mistral([{"type": "thinking", "thinking": [{"type": "text", "text": " makes four."}]}]),
    _mistral("The answer is "),
    _mistral("4."),
    _mistral("", "stop", {"prompt_tokens": 10, "total_tokens": 30, "completion_tokens": 20}),
)


# --- OpenAI: a refusal, and complete tool calls that share index 0 ---------------------

def _openai(delta, finish=None, model="gpt-4o-2024-08-06"):
    return {"id": "chatcmpl-B9mx", "object": "chat.completion.chunk", "created": 1748000006, "model": model,
            "service_tier": "default", "system_fingerprint": "fp_a288987b44",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            "obfuscation": "Zx3"}


OPENAI_REFUSAL = sse(
    _openai({"role": "assistant", "content": None, "refusal": ""}),
    _openai({"refusal": "I'm sorry,"}),
    _openai({"refusal": " I can't help with that."}),
    _openai({}, "stop"),
)

# Gemini's OpenAI-compatible endpoint sends each complete call at index 0, told apart by id.
SHARED_INDEX_CALLS = sse(
    {"choices": [{"delta": {"role": "assistant", "tool_calls": [{"function": {
        "arguments": "{\"city\":\"Paris\"}", "name": "get_weather"}, "id": "function-call-1",
        "index": 0, "type": "function"}]}, "index": 0}], "created": 1748000007, "model": "gemini-2.5-flash",
        "object": "chat.completion.chunk"},
    {"choices": [{"delta": {"role": "assistant", "tool_calls": [{"function": {
        "arguments": "{\"timezone\":\"Europe/Paris\"}", "name": "get_time"}, "id": "function-call-2",
        "index": 0, "type": "function"}]}, "finish_reason": "stop", "index": 0}], "created": 1748000007,
        "model": "gemini-2.5-flash", "object": "chat.completion.chunk"},
)


# A CodeAgent's reply from a raw reasoning model: code inside the thoughts must not run.
DEEPSEEK_R1_CODE = sse(
    *[_ollama(piece) for piece in ["<think>\nMaybe:\n```py", "thon\nprint('from the thoughts')\n```\n",
                                   "Better to compute it.\n</think>", "\n\nThought: compute it.\n```python\n",
                                   "final_answer(6 * 7)\n```"]],
    _ollama("", "stop"),
)


# --- Bodies that are not what their headers say ----------------------------------------

PLAIN_REPLY = json.dumps({"id": "chatcmpl-9", "object": "chat.completion", "created": 1748000008,
                          "model": "deepseek-r1:7b", "choices": [{"index": 0, "finish_reason": "stop", "message": {
                              "role": "assistant", "content": "<think>\nShort question.\n</think>\n\nYes."}}],
                          "usage": {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14}})

ERROR_BODY = json.dumps({"error": {"message": "Invalid 'messages[1].content': string too long.",
                                   "type": "invalid_request_error", "param": "messages[1].content",
                                   "code": "string_above_max_length"}})

RECORDINGS: dict[str, list[Recording]] = {
    "deepseek_reasoner": [Recording(DEEPSEEK_REASONER)],
    "deepseek_tool_call": [Recording(DEEPSEEK_TOOL_CALL), Recording(DEEPSEEK_REASONER)],
    "ollama_qwen3": [Recording(OLLAMA_QWEN3)],
    "groq_raw": [Recording(GROQ_RAW)],
    "groq_tool_use_failed": [Recording(GROQ_TOOL_USE_FAILED)],
    "openrouter_reasoning": [Recording(OPENROUTER_REASONING)],
    "openrouter_details_only": [Recording(OPENROUTER_DETAILS_ONLY)],
    "openrouter_token_limit": [Recording(OPENROUTER_TOKEN_LIMIT)],
    "openrouter_rate_limited": [Recording(OPENROUTER_RATE_LIMITED_UPSTREAM), Recording(OPENROUTER_REASONING)],
    "mistral_thinking": [Recording(MISTRAL_THINKING)],
    "deepseek_r1_code": [Recording(DEEPSEEK_R1_CODE)],
    "openai_refusal": [Recording(OPENAI_REFUSAL)],
    "shared_index_calls": [Recording(SHARED_INDEX_CALLS)],
    # A JSON reply to a streaming request, labelled as a stream; and one with no content type.
    "json_labelled_as_stream": [Recording(PLAIN_REPLY)],
    "stream_without_content_type": [Recording(OPENROUTER_REASONING, content_type=None)],
    "error_body_with_200": [Recording(ERROR_BODY, content_type="application/json")],
}
