"""Knowing the model's context window: from the endpoint where it says, from the model's
name, else the setting; and from a server's refusal."""

import pytest
from scripted_endpoint import ScriptedEndpoint
from tabagent.context_window import DEFAULT_WINDOW, ContextWindow, discover, window_from_error
from tabagent.hosts.cpython import CPythonHost


async def window(routes, provider="", model="some-model", setting=None):
    with ScriptedEndpoint(routes) as endpoint:
        found = await discover(CPythonHost(), endpoint.base_url, model, "sk-x", provider, setting)
        return found, endpoint.seen


def listing(**fields):
    return (200, {"object": "list", "data": [{"id": "other", "context_length": 1},
                                             {"id": "some-model", "object": "model", **fields}]})


async def test_openrouter_model_list_gives_the_window_of_the_chosen_model():
    found, seen = await window({("GET", "/v1/models"): listing(context_length=163_840)}, "openrouter")
    assert found == ContextWindow(163_840, "the endpoint (/models)")
    assert seen == [("GET", "/v1/models", None)]


async def test_groq_and_vllm_spell_it_their_own_way():
    assert (await window({("GET", "/v1/models"): listing(context_window=131_072)}, "groq"))[0].tokens == 131_072
    assert (await window({("GET", "/v1/models"): listing(max_model_len=32_768)}))[0].tokens == 32_768


async def test_lm_studio_says_the_loaded_window_in_its_own_model_list():
    found, _ = await window({("GET", "/api/v0/models"): listing(max_context_length=131_072,
                                                               loaded_context_length=4096)}, "lmstudio")
    assert found == ContextWindow(4096, "the endpoint (/api/v0/models)")


async def test_llama_cpp_server_props_give_the_servers_own_window():
    props = (200, {"default_generation_settings": {"n_ctx": 2048}, "total_slots": 1})
    found, seen = await window({("GET", "/props"): props}, "llamacpp", model="smollm2-135m")
    assert found == ContextWindow(2048, "the endpoint (/props)")  # not SmolLM2's own 8192
    assert ("GET", "/props", None) in seen


async def test_a_custom_endpoint_is_asked_in_turn_until_one_place_says():
    props = (200, {"default_generation_settings": {"n_ctx": 4096}})
    found, seen = await window({("GET", "/v1/models"): listing(), ("GET", "/props"): props})
    assert found.tokens == 4096
    assert [path for _, path, _ in seen] == ["/v1/models", "/props"]


async def test_ollama_show_gives_the_models_window_capped_by_the_setting_and_a_modelfile_num_ctx():
    show = (200, {"model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32_768}})
    found, seen = await window({("POST", "/api/show"): show}, "ollama", model="qwen2.5:7b", setting=65_536)
    assert found == ContextWindow(32_768, "the endpoint (/api/show)")
    assert seen == [("POST", "/api/show", {"model": "qwen2.5:7b"})]
    # Ollama gives what num_ctx asks, memory or not: the user's setting is the most asked for,
    # and with no setting, Ollama's own default below 24 GiB of VRAM.
    found, _ = await window({("POST", "/api/show"): show}, "ollama", model="qwen2.5:7b", setting=8192)
    assert found == ContextWindow(8192, "the setting (the model takes 32,768, says /api/show)")
    assert (await window({("POST", "/api/show"): show}, "ollama"))[0].tokens == 4096
    show[1]["parameters"] = "stop \"<|im_end|>\"\nnum_ctx 6000"
    assert (await window({("POST", "/api/show"): show}, "ollama", setting=8192))[0].tokens == 6000


@pytest.mark.parametrize("name, tokens", [("gpt-4o-mini", 128_000), ("openai/gpt-4.1", 1_047_576),
                                          ("llama3.1:8b", 131_072), ("Meta-Llama-3-8B-Instruct", 8_192),
                                          ("qwen2.5-coder:7b", 32_768), ("SmolLM2-135M-Instruct", 8_192)])
async def test_a_known_model_name_is_used_when_the_endpoint_does_not_say(name, tokens):
    found, _ = await window({("GET", "/v1/models"): listing()}, "openai", model=name)
    assert found == ContextWindow(tokens, f"the model's name ({name})")


async def test_a_local_server_without_a_say_uses_the_setting_not_the_models_name():
    found, _ = await window({}, "llamacpp", model="SmolLM2-135M-Instruct", setting=2048)
    assert found == ContextWindow(2048, "the setting")


async def test_else_the_setting_and_else_its_default():
    assert (await window({}, model="my-finetune", setting=16_000))[0] == ContextWindow(16_000, "the setting")
    assert (await window({}, model="my-finetune"))[0] == ContextWindow(DEFAULT_WINDOW, "the setting")


async def test_an_unreachable_endpoint_is_no_error_here():
    found = await discover(CPythonHost(), "http://127.0.0.1:9/v1", "mystery", None, "", 3000)
    assert found == ContextWindow(3000, "the setting")


def test_the_budget_keeps_room_for_the_reply_and_page_parts_follow_the_window():
    small, large = ContextWindow(2048, "x"), ContextWindow(128_000, "x")
    assert small.budget == 2048 - 256 and large.budget == 128_000 - 4096
    assert small.part_tokens == 512 and large.part_tokens == 4000
    assert ContextWindow(4096, "x").part_tokens == 1024


@pytest.mark.parametrize("text, tokens", [
    ("This model's maximum context length is 2048 tokens. However, you requested 3000 tokens", 2048),
    ("Requested tokens (3000) exceed context window of 2048", 2048),
    ('{"error": {"code": 400, "message": "the request exceeds the available context size, try '
     'increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}', 4096),
    ("Prompt exceeds n_ctx: 5000 > 4096", None),  # two numbers, neither said to be the window
    ("Rate limit reached", None),
])
def test_a_refusal_that_names_the_window_is_read(text, tokens):
    assert window_from_error(text) == tokens
