"""Every request fits the model's window: compaction in its order, with notes saying how to
get back what was dropped; one recovery when a server still refuses; a message that alone
is too long told as such; read_page's parts sized to the window."""

import json

import pytest
from scripted_endpoint import EMPTY_STREAM, ScriptedEndpoint, sse_reply
from tabagent.testing import ScriptedModel
from tabagent.compaction import DoesNotFit, compact, step_tokens
from tabagent.context_keeper import ContextKeeper
from tabagent.errors import ContextTooLongError
from tabagent.memory import ActionStep, FinalAnswerStep, Memory, SummaryStep, TaskStep
from tabagent.models import OpenAIModel
from tabagent.app.untrusted_content import untrusted
from tabagent.app.page_tools import page_tools
from tabagent.app.consent import CalledByHand
from tabagent.tokens import count_messages, count_text
from tabagent.tool_calling_agent import ToolCallingAgent

PAGE = untrusted("https://example.org/a", "Title: A\n\n" + "The quick brown fox jumps. " * 400)
NOTES = "Compute results. " * 200


def conversation() -> Memory:
    """A finished turn that read a page and ran a long computation, and a new question."""
    return Memory([
        TaskStep("Summarise this page"),
        ActionStep(1, tool_calls=[{"id": "c1", "name": "read_page", "arguments": '{"page": 1}'}],
                   observations=[{"id": "c1", "name": "read_page", "content": PAGE, "is_error": False}]),
        ActionStep(2, tool_calls=[{"id": "c2", "name": "compute", "arguments": "{}"}],
                   observations=[{"id": "c2", "name": "compute", "content": NOTES, "is_error": False}]),
        ActionStep(3, tool_calls=[{"id": "c3", "name": "final_answer", "arguments": '{"answer": "A fox."}'}],
                   observations=[{"id": "c3", "name": "final_answer", "content": "A fox.", "is_error": False}]),
        FinalAnswerStep("A fox."),
        TaskStep("And who wrote it?"),
    ])


def tokens(memory, system="You are helpful.") -> int:
    return count_messages(memory.to_messages(system))


def test_old_page_reads_go_first_shortened_with_a_note_saying_how_to_get_them_back():
    memory = conversation()
    full = tokens(memory)
    report = compact(memory, fixed_tokens=10, budget=full - 500)  # shortening the page read is enough
    page, notes = memory.steps[1].observations[0], memory.steps[2].observations[0]
    # Nothing of the page matches the new question: its first paragraph (title) stays, marked.
    assert page["content"] == (untrusted("https://example.org/a", "Title: A") +
                               "\n[Shortened to fit the model's context window: 8 of "
                               f"{len(PAGE) - len(untrusted('https://example.org/a', '')) + 1:,} characters kept, "
                               "the paragraphs that match the task. Call read_page({\"page\": 1}) again to read it whole.]")
    assert page["excerpted"] == len(PAGE)
    assert notes["content"] == NOTES  # other observations stay while the page read is enough
    assert report.dropped == [f'shortened step 1: read_page({{"page": 1}}), {len(PAGE):,} characters']
    assert report.summarised == 0 and report.after < report.before
    assert tokens(memory) + 10 <= full - 500 + 10
    # The memory round-trips through JSON with its notes: what is stored is what was sent.
    assert Memory.from_json(memory.to_json()).to_messages("s") == memory.to_messages("s")


def test_then_other_observations_then_older_steps_are_summarised():
    memory = conversation()
    compact(memory, fixed_tokens=10, budget=tokens(memory) - count_text(PAGE) - 200)
    assert memory.steps[2].observations[0]["content"].startswith("[Dropped to fit")
    assert not any(isinstance(s, SummaryStep) for s in memory.steps)

    memory = conversation()
    report = compact(memory, fixed_tokens=10, budget=150)
    summary = memory.steps[0]
    assert isinstance(summary, SummaryStep) and report.summarised >= 2
    assert summary.summary.startswith("Earlier in this conversation (summarised")
    assert "- The user asked: Summarise this page" in summary.summary
    assert '- Step 1: called read_page({"page": 1}); got (dropped)' in summary.summary
    assert "fox jumps" not in summary.summary  # page text reaches the model only inside its marking
    # The new question and the latest step stay whole, in order.
    assert memory.steps[-1] == TaskStep("And who wrote it?")
    assert sum(map(step_tokens, memory.steps)) + 10 <= 150  # the memory and the fixed part fit
    # Messages still pair each tool call with its result.
    messages = memory.to_messages("s")
    calls = {c["id"] for m in messages for c in m.get("tool_calls") or []}
    assert calls == {m["tool_call_id"] for m in messages if m["role"] == "tool"}


def test_a_message_that_alone_exceeds_the_window_is_told_as_such():
    memory = Memory([TaskStep("Please read this: " + "lorem ipsum dolor " * 3000)])
    with pytest.raises(DoesNotFit, match=r"Your message alone is about [\d,]+ tokens, more than the 1,792 tokens"):
        compact(memory, fixed_tokens=100, budget=1792)
    with pytest.raises(DoesNotFit, match="instructions and tool descriptions alone"):
        compact(Memory([TaskStep("hi")]), fixed_tokens=3000, budget=1792)


def test_the_latest_observation_is_cut_when_nothing_else_is_left():
    memory = Memory([TaskStep("Read it"), ActionStep(
        1, tool_calls=[{"id": "c1", "name": "read_page", "arguments": "{}"}],
        observations=[{"id": "c1", "name": "read_page", "content": PAGE, "is_error": False}])])
    report = compact(memory, fixed_tokens=100, budget=1000)
    text = memory.steps[1].observations[0]["content"]
    assert "[... cut to fit the model's context window:" in text and text.startswith(PAGE[:500])
    assert report.dropped[0].startswith("cut step 1: read_page")
    assert tokens(memory, "") + 100 <= 1000


async def test_an_agent_compacts_before_a_request_that_would_not_fit_and_says_so(recorder):
    def read_page(part: int = 1) -> str:
        """Reads the page."""
        return PAGE

    replies = [{"tool_calls": [{"name": "read_page", "arguments": {}}]},
               {"tool_calls": [{"name": "read_page", "arguments": {"part": 2}}]},
               {"tool_calls": [{"name": "final_answer", "arguments": {"answer": "done"}}]}]
    model = ScriptedModel(replies)
    agent = ToolCallingAgent(model, [read_page], listeners=[recorder], context=ContextKeeper.fixed(4096))
    assert await agent.run("Read the page twice") == "done"
    sent = [count_messages(call["messages"], call["tools"]) for call in model.calls]
    assert max(sent) <= 4096 - 512
    compactions = recorder.of("compaction")
    assert compactions and compactions[0].data["reason"] == "before_request"
    data = compactions[0].data
    assert data["window"] == 4096 and data["window_source"] == "the setting"
    assert data["dropped"] and data["after"] < data["before"]
    assert data["message"].startswith("The conversation outgrew the model's context window (4,096 tokens")
    # The event comes before the request it made fit, and the model saw the note.
    assert recorder.kinds().index("compaction") < len(recorder.kinds()) - 1
    assert any("[Shortened to fit" in (m.get("content") or "") for m in model.calls[2]["messages"])


def refusal(window=1024):
    return (400, {"error": {"message": f"This model's maximum context length is {window} tokens. However, "
                                       f"you requested 3000 tokens (2900 in the messages, 100 in the "
                                       f"completion).", "type": "invalid_request_error",
                            "param": "messages", "code": "context_length_exceeded"}})


async def run_against(endpoint, memory, recorder, window=8192):
    model = OpenAIModel(endpoint.base_url, model="m", max_retries=3, backoff_base=0.01)
    agent = ToolCallingAgent(model, [], listeners=[recorder], memory=memory, context=ContextKeeper.fixed(window))
    return await agent.run("And who wrote it?", reset=False), agent


@pytest.mark.parametrize("refused", ["http_400", "empty_stream", "error_in_stream"])
async def test_a_server_that_still_refuses_gets_one_compacted_request_never_the_same(refused, recorder):
    memory = conversation()
    memory.steps.pop()  # the question comes with the run
    first = {"http_400": refusal(),
             "empty_stream": EMPTY_STREAM,
             "error_in_stream": [{"error": {"message": "Input is too long for the context window",
                                            "code": "context_length_exceeded"}}]}[refused]
    with ScriptedEndpoint() as endpoint:
        endpoint.chat += [first, sse_reply("Nobody knows.")]
        answer, agent = await run_against(endpoint, memory, recorder)
        first_sent, second_sent = endpoint.chat_requests
    assert answer == "Nobody knows."
    assert len(endpoint.chat_requests) == 2 and second_sent["messages"] != first_sent["messages"]
    compaction = recorder.of("compaction")[-1].data
    assert compaction["reason"] == "server_refused" and "Trying once more" in compaction["message"]
    if refused == "http_400":  # the server named its window: that is what the request now fits
        assert compaction["window"] == 1024 and compaction["window_source"] == "the server's error"
        assert count_messages(second_sent["messages"]) <= 1024 - 256
    else:  # it did not: the next smaller usual window below what was sent
        assert compaction["window"] < count_messages(first_sent["messages"])
    assert not [e for e in recorder.of("error") if e.data["kind"] == "retrying"]  # no blind resend


async def test_when_compacting_frees_nothing_the_refusal_is_told_and_not_resent(recorder):
    with ScriptedEndpoint() as endpoint:
        endpoint.chat += [refusal(window=4096), sse_reply("never sent")]
        with pytest.raises(ContextTooLongError):
            await run_against(endpoint, Memory(), recorder)
    assert len(endpoint.chat_requests) == 1
    error = recorder.of("error")[-1].data
    assert error["kind"] == "context_too_long"
    assert "maximum context length is 4096" in error["message"] and "not sent again" in error["message"]


async def test_a_task_alone_longer_than_the_window_is_told_before_anything_is_sent(recorder):
    with ScriptedEndpoint() as endpoint:
        model = OpenAIModel(endpoint.base_url, model="m")
        agent = ToolCallingAgent(model, [], listeners=[recorder], context=ContextKeeper.fixed(2048))
        with pytest.raises(ContextTooLongError):
            await agent.run("Translate: " + "bonjour le monde " * 2000)
    assert endpoint.chat_requests == []
    message = recorder.of("error")[-1].data["message"]
    assert message.startswith("Your message alone is about") and "(The context window is 2,048 tokens" in message


async def test_read_page_parts_follow_the_window():
    class Bridge:
        calls = []

        async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
            if name == "describe_action":  # read_tab asks first; CalledByHand allows it
                return {"ok": True, "result": {"summary": "Read tab 1", "tab_id": 1, "url": "u"}}
            self.calls.append(args)
            return {"ok": True, "url": "u", "result": {"markdown": "x", "page": 1, "pages": 1}}

    keeper = ContextKeeper.fixed(2048)
    await keeper.known_window()
    tools = {t.name: t for t in page_tools(Bridge(), CalledByHand(), part_tokens=keeper.part_tokens)}
    await tools["read_page"]()
    await tools["read_tab"](tab_id=1)
    await tools["read_page"](max_tokens=900)  # the model may still ask for another size
    assert [c["max_tokens"] for c in Bridge.calls] == [512, 512, 900]
    schema = tools["read_page"].parameters
    assert "max_tokens" not in schema.get("required", []) and "fit your window" in json.dumps(schema)


async def test_a_small_window_gets_the_tools_told_in_one_line_each(recorder):
    def convert(value: float, unit: str) -> float:
        """Converts a value to another unit. Knows lengths, masses and a hundred more units,
        each described at length here so that the description is long.

        Args:
            value: the value.
            unit: the unit, e.g. "mi", "lb", "cup", "km/h", "gib", "f" (names like "miles" work too).
        """
        return value

    tools = [convert]
    from tabagent.code_agent import CodeAgent
    model = ScriptedModel(["It is 5."])
    big = CodeAgent(ScriptedModel(["It is 5."]), tools, context=ContextKeeper.fixed(128_000))
    small = CodeAgent(model, tools, listeners=[recorder], context=ContextKeeper.fixed(512))
    assert await big.run("How far?") == "It is 5." and not big.brief_prompt
    assert await small.run("How far?") == "It is 5." and small.brief_prompt
    system = model.calls[0]["messages"][0]["content"]
    assert "- convert(value, unit) -> float: Converts a value to another unit." in system
    assert "value (float)" not in system  # the arguments told in full only in a roomy window


def test_an_excerpt_keeps_the_marking_whole_and_parts_what_was_not_together():
    from tabagent.excerpt import excerpt, words_of
    paragraphs = ["Title: Bridges", "The ferry ran at dawn. <page", "Filler about tides. " * 30,
                  "content> The bridge opened in 1911.", "More filler. " * 30]
    text = untrusted("https://example.org/b", "\n\n".join(paragraphs))
    short = excerpt(text, words_of("When was the bridge opened? Take the ferry"), 400, 'read_page({})')
    inside = short[short.index('untrusted="true">\n') + len('untrusted="true">\n'):short.index("</page_content>")]
    assert inside == "Title: Bridges\n\nThe ferry ran at dawn. <page\n\n[…]\n\ncontent> The bridge opened in 1911.\n"
    assert short.startswith(text[:text.index('untrusted="true">\n')])  # the same note and opening tag
    assert short.endswith("</page_content>\n[Shortened to fit the model's context window: "
                          f"{len(inside) - 1:,} of {len(chr(10).join(paragraphs)) + len(paragraphs):,} characters kept, "
                          "the paragraphs that match the task. Call read_page({}) again to read it whole.]")
    assert excerpt("no marking here", {"bridge"}, 400, None) is None
