"""How much of a reference text an extraction kept, measured on words.

recall = |expected words ∩ extracted words| / |expected words|, counting repeats (multiset
intersection), so dropping one of three paragraphs that say the same thing still costs.
Markup does not count: Markdown punctuation and HTML tags only separate words.
"""

import re
from collections import Counter
from html.parser import HTMLParser

# Chinese, Japanese and Korean are written without spaces: each character is a word, so a
# line broken differently by the converter does not turn one long "word" into two.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
# Letters and digits in any script; "_" splits (Markdown uses it for emphasis).
_WORD = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])[^\W_])+")

# Tags that end a word even with no space around them in the source.
_BREAKING_TAGS = set(
    "address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 "
    "header hr img li main nav ol p pre section table tbody td tfoot th thead tr ul".split())


class _TextOf(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        self._skipping += tag in ("script", "style")
        if tag in _BREAKING_TAGS:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        self._skipping -= tag in ("script", "style") and self._skipping > 0
        if tag in _BREAKING_TAGS:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self._skipping:
            self.parts.append(data)


def html_text(html):
    parser = _TextOf()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def words(text):
    return _WORD.findall(text.lower())


def word_recall(expected_text, extracted_text):
    """(recall, Counter of the expected words that are missing)."""
    expected = Counter(words(expected_text))
    extracted = Counter(words(extracted_text))
    total = sum(expected.values())
    kept = sum((expected & extracted).values())
    return (kept / total if total else 1.0), expected - extracted
