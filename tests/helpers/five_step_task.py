"""The five-step page task of issue 37, for the unit tests and the bench: read an article,
list the page's controls, click the search box, type into it, answer from the article.

The article (about 40 KB of Markdown, as a long news page gives) is made from a seed: the
bridge's engineer and the year it opened differ from one seed to the next, so no answer can
be written in advance. `ScriptedReader` plays the model: each step it does the next of the
five things, taking what it needs (the engineer's name, the search box's locator, the year)
from the text of the request it was sent, and nothing else; when the request no longer holds
the article's fact, it says it does not know, and the task fails.

`PageBridge` answers like the service worker and the content scripts (read_page in parts of
max_tokens, list_controls, describe_action, click, type_text), and allows every action.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

if "tabagent" not in sys.modules:  # the e2e tests and the bench run it from a checkout: py/
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))

from tabagent.replies import ModelReply, ToolCall, new_call_id  # noqa: E402

URL = "https://news.example/bridges/old-harbour-bridge"
TASK = ("Read the article on this page. Then search this site for the engineer who designed the "
        "bridge: click the search box and type the engineer's name into it. Finally tell me in "
        "which year the bridge opened, as the article says.")
FIRST = ("Ada", "Bruno", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas")
LAST = ("Marwick", "Ostrander", "Pellegrini", "Quist", "Rasmussen", "Szabo", "Tennant", "Ulloa")
FILLER = ("council river traffic ferry harbour timber steel cable tide merchants toll winter "
          "repairs newspaper crowd ceremony mayor workers painters rivets storm survey quarry "
          "barges lamps railway market district engineers drawings budget delay").split()


def article(seed: int) -> tuple[str, str, int]:
    """(Markdown of about 40 KB, the engineer's name, the year the bridge opened)."""
    rng = random.Random(seed)
    engineer, year = f"{rng.choice(FIRST)} {rng.choice(LAST)}", rng.randrange(1861, 1939)
    paragraphs = [_filler(rng, 90) for _ in range(60)]
    paragraphs[1] = (f"The bridge was designed by the engineer {engineer}, who had drawn ferry "
                     f"piers for the harbour board before. " + _filler(rng, 40))
    paragraphs[3] = (f"After eleven years of work, the Old Harbour Bridge opened to traffic in "
                     f"{year}, with the mayor crossing first. " + _filler(rng, 40))
    body = "\n\n".join(f"## {rng.choice(FILLER).title()}\n\n{p}" if i % 8 == 0 else p
                       for i, p in enumerate(paragraphs))
    return f"# The Old Harbour Bridge at 150\n\n{body}\n", engineer, year


def _filler(rng: random.Random, words: int) -> str:
    sentences, left = [], words
    while left > 0:
        n = min(left, rng.randrange(8, 16))
        sentences.append(" ".join(rng.choice(FILLER) for _ in range(n)).capitalize() + ".")
        left -= n
    return " ".join(sentences)


CONTROLS = [("link", "Home"), ("link", "News"), ("link", "Sport"), ("link", "Culture"), ("button", "Menu"),
            ("searchbox", "Search the archive"), ("button", "Search"), ("link", "Subscribe"),
            ("button", "Share"), ("link", "Bridges"), ("link", "Harbour"), ("link", "Letters"),
            ("button", "Next article"), ("link", "Contact"), ("link", "Privacy")]


class PageBridge:
    """The page as the service worker and content scripts answer for it."""

    def __init__(self, markdown: str):
        self.markdown, self.done, self.asked = markdown, [], []

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        if name == "read_page":
            return self._read(args.get("page", 1), args.get("max_tokens", 4000))
        if name == "list_controls":
            lines = [f"ta-{i} {role} “{label}”" for i, (role, label) in enumerate(CONTROLS, 1)]
            return self._ok({"count": len(CONTROLS), "url": URL, "page": 1, "pages": 1, "controls": "\n".join(lines)})
        if name == "describe_action":
            return self._ok({"action": args["name"], "summary": f"{args['name']} {json.dumps(args['args'])}",
                             "page_url": URL, "element": {"summary": "searchbox", "locator": args["args"].get("locator")}})
        if name in ("click", "type_text"):
            self.done.append((name, {k: v for k, v in args.items() if k != "plan_id"}))
            return self._ok({"did": name, "locator": args.get("locator")})
        return {"ok": False, "error": f"{name} is not on this page"}

    async def confirm(self, ask_id, tool, message, details) -> str:
        self.asked.append(tool)
        return "turn"

    def _read(self, page: int, max_tokens: int) -> dict:
        size = max_tokens * 4  # about four characters a token, as the content script cuts parts
        parts = [self.markdown[i:i + size] for i in range(0, len(self.markdown), size)]
        return self._ok({"title": "The Old Harbour Bridge at 150", "url": URL, "length": len(self.markdown),
                         "page": page, "pages": len(parts), "markdown": parts[page - 1]})

    @staticmethod
    def _ok(result: dict) -> dict:
        return {"ok": True, "tab_id": 1, "url": URL, "title": "The Old Harbour Bridge at 150", "result": result}


def request_text(messages: list[dict]) -> str:
    """Everything a request says, as the model would read it."""
    def text(content):
        if isinstance(content, list):
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return content or ""
    parts = [text(m.get("content")) for m in messages]
    parts += [c["function"]["arguments"] for m in messages for c in m.get("tool_calls") or []]
    return "\n".join(parts)


class ScriptedReader:
    """The model of the five-step task; `kind` is "tool_calling" or "code". It keeps only its
    step count: every fact it uses is read from the request in front of it."""

    takes_tools = True

    def __init__(self, kind: str, read_args: dict | None = None):
        self.kind, self.step, self.requests = kind, 0, []
        self.read_args = read_args or {}  # e.g. {"max_tokens": 2500}: a model that reads long parts

    async def generate(self, messages, tools=None, on_token=None, on_retry=None, on_reasoning=None):
        self.requests.append({"messages": messages, "tools": tools})
        self.step += 1
        name, args = self._next(request_text(messages))
        if self.kind == "code":
            call = "final_answer" if name == "final_answer" else f"print({name}"
            code = f"{call}({', '.join(f'{k}={v!r}' for k, v in args.items())})" + (")" if name != "final_answer" else "")
            return ModelReply(f"Next: {name}.\n```python\n{code}\n```")
        return ModelReply("", [ToolCall(new_call_id(), name, json.dumps(args))])

    def _next(self, seen: str) -> tuple[str, dict]:
        if self.step == 1:
            return "read_page", dict(self.read_args)
        if self.step == 2:
            return "list_controls", {}
        box = re.search(r"(ta-\d+) searchbox", seen)
        if self.step == 3:
            return "click", {"locator": box.group(1) if box else "unknown"}
        if self.step == 4:
            engineer = re.search(r"designed by the engineer ([A-Z]\w+ [A-Z]\w+)", seen)
            return "type_text", {"locator": box.group(1) if box else "unknown",
                                 "text": engineer.group(1) if engineer else "unknown"}
        year = re.search(r"opened to traffic in (\d{4})", seen)
        return "final_answer", {"answer": f"It opened in {year.group(1)}." if year else "I do not know."}
