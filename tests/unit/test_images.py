"""Pictures in a conversation: sent after the tool that showed them (or as a note to a model
that takes none), to Ollama as its `images`, counted by size, dropped first by compaction,
kept within a size in the stored memory and out of the trace; and whether a model sees, from
the endpoint (OpenRouter's input_modalities, Ollama's capabilities), its name, or the setting."""

import base64
import struct

from scripted_endpoint import ScriptedEndpoint
from tabagent.compaction import compact
from tabagent.hosts.cpython import CPythonHost
from tabagent.images import (DROPPED, NOT_KEPT, NOT_SHOWN, image_part, image_tokens, keep_images_within,
                             text_part, without_image_data)
from tabagent.memory import ActionStep, Memory, TaskStep
from tabagent.ollama import _native
from tabagent.vision import Vision, discover
from tabagent.tokens import count_message


def png(width: int, height: int, padding: int = 300) -> str:
    """A data URL whose header says a PNG of that size (the rest is filler: only its size counts)."""
    head = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", width, height)
    return "data:image/png;base64," + base64.b64encode(head + b"\0" * padding).decode()


def shown(url: str) -> list[dict]:
    return [text_part("<page_content ...>\nA screenshot"), image_part(url), text_part("\n</page_content>")]


def step_with_picture(number: int, url: str, native=True) -> ActionStep:
    calls = [{"id": f"c{number}", "name": "screenshot", "arguments": "{}"}] if native else []
    observation = {"id": f"c{number}", "name": "screenshot", "content": "A screenshot follows.", "is_error": False,
                   "parts": shown(url)}
    return ActionStep(number, tool_calls=calls, native=native, observations=[observation])


def test_a_tools_pictures_follow_its_result_in_a_user_message():
    messages = step_with_picture(1, png(10, 10)).to_messages()
    assert [m["role"] for m in messages] == ["assistant", "tool", "user"]
    assert messages[1]["content"] == "A screenshot follows."
    assert messages[2]["content"][1:] == shown(png(10, 10))


def test_a_model_that_takes_no_images_gets_a_note_in_each_pictures_place():
    content = step_with_picture(1, png(10, 10), native=False).to_messages(sees_images=False)[-1]["content"]
    assert content[0]["text"].startswith("Observation:\n")
    assert not any(part["type"] == "image_url" for part in content)
    assert {"type": "text", "text": NOT_SHOWN} in content


def test_ollama_gets_the_pictures_as_base64_images():
    url = png(10, 10)
    native = _native({"role": "user", "content": shown(url)})
    assert native["images"] == [url.partition(",")[2]]
    assert "A screenshot" in native["content"] and "base64" not in native["content"]


def test_a_picture_counts_by_its_size():
    small, large = (count_message({"role": "user", "content": [image_part(png(*size))]}) for size in ((100, 100), (1568, 882)))
    assert image_tokens(png(300, 250)) == 300 * 250 // 750
    assert small < 100 < 1500 < large  # a thumbnail costs little; a screenshot its 1,600 tokens, not its bytes


def test_compaction_drops_old_pictures_first_with_a_note():
    memory = Memory([TaskStep("look"), step_with_picture(1, png(1568, 882)), step_with_picture(2, png(1568, 882)),
                     step_with_picture(3, png(1568, 882))])
    before = sum(count_message(m) for m in memory.to_messages("system"))
    report = compact(memory, 0, before - 1000)
    first = memory.steps[1].observations[0]
    assert report.dropped == ["step 1: 1 picture"] and report.summarised == 0
    assert {"type": "text", "text": DROPPED} in first["parts"] and first["content"] == "A screenshot follows."
    assert memory.steps[3].observations[0]["parts"] == shown(png(1568, 882))  # the latest stays


def test_the_stored_memory_keeps_only_the_newest_pictures_within_its_size():
    old, new = png(10, 10, padding=3000), png(10, 10, padding=3000)
    memory = Memory([TaskStep("look"), step_with_picture(1, old), step_with_picture(2, new)])
    assert keep_images_within(memory.steps, limit=len(new) + 10) == 1
    assert memory.steps[1].observations[0]["parts"][1] == text_part(NOT_KEPT)
    assert memory.steps[2].observations[0]["parts"][1] == image_part(new)
    assert Memory.from_json(memory.to_json()).steps[2].observations[0]["parts"][1] == image_part(new)


def test_the_trace_says_a_pictures_size_instead_of_its_bytes():
    url = png(10, 10, padding=3000)
    text = without_image_data(f'{{"url": "{url}"}}')
    assert "data:image/png;base64,[" in text and "characters of picture, not kept" in text and len(text) < 200


async def sees(routes, provider="", model="some-model"):
    with ScriptedEndpoint(routes) as endpoint:
        return await discover(CPythonHost(), endpoint.base_url, model, "sk-x", provider)


async def test_openrouter_says_which_models_take_images():
    def listing(modalities, model="some-model"):
        return {("GET", "/v1/models"): (200, {"data": [{"id": model, "architecture": {"input_modalities": modalities}}]})}
    assert await sees(listing(["text", "image"]), "openrouter") == (True, "the endpoint")
    # the endpoint's word beats the name's
    assert await sees(listing(["text"], "gpt-4o-text"), "openrouter", model="gpt-4o-text") == (False, "the endpoint")


async def test_ollama_says_it_in_its_capabilities():
    show = {("POST", "/api/show"): (200, {"capabilities": ["completion", "vision"]})}
    assert await sees(show, "ollama", model="gemma3:4b") == (True, "the endpoint")
    show = {("POST", "/api/show"): (200, {"capabilities": ["completion", "tools"]})}
    assert await sees(show, "ollama", model="qwen3") == (False, "the endpoint")


async def test_else_the_models_name_else_not():
    assert await sees({}, model="gpt-4o-mini") == (True, "the model's name")
    assert (await sees({}, model="llama3.2"))[0] is False


async def test_the_setting_yes_or_no_decides_without_asking():
    assert await Vision.for_endpoint(CPythonHost(), "http://127.0.0.1:9/v1", "llava", setting="no").known() is False
    assert await Vision.for_endpoint(CPythonHost(), "http://127.0.0.1:9/v1", "llama3.2", setting="yes").known() is True


def test_chromes_built_in_model_gets_the_note_as_text():
    from tabagent.app.builtin_model import prompt_messages
    messages = Memory([TaskStep("look"), step_with_picture(1, png(10, 10))]).to_messages("system", sees_images=False)
    _, prompt = prompt_messages(messages)
    assert isinstance(prompt, str) and NOT_SHOWN in prompt and "A screenshot" in prompt


def picture_tool():
    from tabagent import tool
    from tabagent.images import TextWithImages

    @tool
    async def look() -> str:
        """Shows a picture."""
        return TextWithImages("A picture follows.", shown(png(20, 20)))
    return look


async def test_a_code_agent_sends_the_pictures_its_code_was_shown():
    from tabagent import CodeAgent
    from tabagent.testing import ScriptedModel
    model = ScriptedModel(["```python\nseen = look()\nprint(seen)\n```", "```python\nfinal_answer('ok')\n```"])
    agent = CodeAgent(model, [picture_tool()])
    assert await agent.run("Look") == "ok"
    last = model.calls[1]["messages"][-1]
    assert last["content"][0]["text"] == "Observation:\nOutput:\nA picture follows.\n"  # the code got the text
    assert last["content"][1:] == shown(png(20, 20))  # the model got the picture


async def test_a_tool_calling_agent_sends_them_after_the_tool_message():
    from tabagent import ToolCallingAgent
    from tabagent.testing import ScriptedModel
    model = ScriptedModel([{"tool_calls": [{"name": "look", "arguments": {}}]}, "Seen."])
    agent = ToolCallingAgent(model, [picture_tool()])
    assert await agent.run("Look") == "Seen."
    *_, tool_message, pictures = model.calls[1]["messages"]
    assert tool_message == {"role": "tool", "tool_call_id": tool_message["tool_call_id"], "content": "A picture follows."}
    assert pictures["role"] == "user" and pictures["content"][1:] == shown(png(20, 20))
    assert Memory.from_json(agent.memory.to_json()).steps[1].observations[0]["parts"] == shown(png(20, 20))


async def test_pictures_the_user_attached_go_with_the_task_and_only_pictures_are_taken():
    from tabagent import ToolCallingAgent
    from tabagent.testing import ScriptedModel
    from tabagent.app.attachments import task_with_attachments
    url = png(30, 20)
    request = {"task": "What is this?", "attached_images": [
        {"name": "shot.png", "url": url}, {"name": "page", "url": "https://evil.example/x.png"},
        {"name": "svg", "url": "data:image/svg+xml;base64,PHN2Zy8+"}, "nonsense"]}
    task = await task_with_attachments(request, None)
    model = ScriptedModel(["A picture."])
    await ToolCallingAgent(model, []).run(task)
    content = model.calls[0]["messages"][-1]["content"]
    assert content == [text_part("What is this?"), text_part("The user attached a picture (shot.png):"), image_part(url)]


def test_an_old_tasks_pictures_are_dropped_first_and_the_stored_memory_limits_them_too():
    old = TaskStep("look", parts=[image_part(png(1568, 882))])
    memory = Memory([old, step_with_picture(1, png(10, 10)), TaskStep("again"), step_with_picture(2, png(10, 10))])
    before = sum(count_message(m) for m in memory.to_messages("system"))
    report = compact(memory, 0, before - 1000)
    assert report.dropped[0] == "the user's message: 1 picture" and old.parts == [text_part(DROPPED)]
    kept = TaskStep("look", parts=[image_part(png(10, 10, padding=3000))])
    assert keep_images_within(Memory([kept]).steps, limit=100) == 1 and kept.parts == [text_part(NOT_KEPT)]


def test_the_largest_picture_the_panel_attaches_reaches_the_model():
    """The panel takes a file of up to max_file_mb; its data URL (base64: 4 characters for
    every 3 bytes) must not then be dropped by Python as too large."""
    import math
    from tabagent.app.attachments import users_pictures
    from tabagent.app.wire import ATTACHED_PICTURES
    largest = ATTACHED_PICTURES["max_file_mb"] * 1024 * 1024
    url = "data:image/jpeg;base64," + "A" * (4 * math.ceil(largest / 3))
    parts = users_pictures({"attached_images": [{"name": "big.jpg", "url": url}]})
    assert parts == [text_part("The user attached a picture (big.jpg):"), image_part(url)]
    too_large = users_pictures({"attached_images": [{"name": "bigger.jpg", "url": url + "AAAA"}]})
    assert too_large == []
