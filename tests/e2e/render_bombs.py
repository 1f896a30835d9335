"""Answers built to break the side panel's renderer, as a hostile page would get a model to
quote them: nesting ten thousand deep (a stack overflow in the parser), and a TeX macro bomb
(2 KB that KaTeX would expand into millions of tokens, a minute of work)."""

from __future__ import annotations

DEPTH = 10_000


def deep_quote(depth: int = DEPTH) -> str:
    return ">" * depth + " the innermost line"


def deep_braces(depth: int = DEPTH) -> str:
    return "$$" + "{" * depth + "x" + "}" * depth + "$$"


def macro_bomb() -> str:
    """About 2 KB: \\a is a 1.9 KB formula, \\b twenty of them, and twenty \\b follow: 420
    expansions (under KaTeX's own limit of 1,000) into 2.5 million elements."""
    tex = "\\def\\a{" + "x^{2}+" * 316 + "}\\def\\b{" + "\\a" * 20 + "}" + "\\b" * 20
    return f"$$\n{tex}\n$$"


BOMBS = {"quote": deep_quote(), "braces": deep_braces(), "macros": macro_bomb()}

# What must keep rendering: quotes and math of ordinary depth, a macro of ordinary size.
ORDINARY = """> A quote
>> inside a quote
>>> three deep

Euler: $e^{i\\pi} + 1 = 0$, and with a macro of its own:

$$\\def\\R{\\mathbb{R}} f\\colon \\R \\to \\R,\\quad \\frac{1}{\\sqrt{x^2+1}}$$

- one
  - two
    - three

That is ***all*** ~~there is~~."""

# More of the same, for the Markdown renderer alone.
DEEP_EMPHASIS = "**a " * DEPTH + "x" + " a**" * DEPTH
LONG_LIST = "".join(f"- item {n}\n" for n in range(21_000))  # 21,001 elements in one block
LONG_CODE = "```python\n" + "def f(x):\n    return x + 1\n" * 1_000 + "```"  # 27,000 characters
DEEP_DIVS = "<div>" * DEPTH + "the innermost box" + "</div>" * DEPTH
DEEP_SPANS = "Inline: " + "<span>" * DEPTH + "the innermost word"
