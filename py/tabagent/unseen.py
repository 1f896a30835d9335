"""Characters that draw nothing, and the one rule for them wherever the user is shown what the
model reads or what will run (docs/security.md): each is written out visibly, as ⟨U+E0041⟩.

A server, a page or the model can write text the user cannot see: Unicode's tag characters
(ASCII written invisibly, "ASCII smuggling"), variation selectors (bytes hidden after a
letter), zero-width characters, bidirectional controls that turn words around, control
characters. Shown as they are, the user approves or sends words they never read. Written
out, they are there to see, and the model reads the same text the user is shown.

UNSEEN is the list both sides use: wire.py hands it to JavaScript (wire.js UNSEEN, used by
extension/shared/import-checks/unseen-text.js `shown`), so the panel and settings apply the same rule.
"""

from __future__ import annotations

import re
from typing import Any

# Ranges of code points, first and last: Unicode's default-ignorable code points
# (DerivedCoreProperties.txt), the control characters but tab, line feed and carriage
# return, the line and paragraph separators, and lone surrogates.
UNSEEN = (
    (0x0000, 0x0008), (0x000B, 0x000C), (0x000E, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD),
    (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xD800, 0xDFFF),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)

# Of those, the ones that carry words a model reads while drawing nothing, or turn around the
# words that are drawn: Unicode's tag characters ("ASCII smuggling"), the variation selectors and
# their supplement (bytes hidden after a letter), the bidirectional embeddings, overrides and
# isolates. Page text loses them before it reaches the model (app/untrusted_content.py, which
# writes the list out to stand alone), and an imported record that holds them hides something
# (import-checks/unseen-text.js `hidesText`, through wire.js HIDING): one list for both, a test
# checks they agree. One variation selector after a letter is how an emoji is written (❤️): on
# its own it hides nothing, and only a run of them does (LONE_SHOWS).
HIDING = ((0x202A, 0x202E), (0x2066, 0x2069), (0xFE00, 0xFE0F), (0xE0000, 0xE007F), (0xE0100, 0xE01EF))
LONE_SHOWS = (0xFE00, 0xFE0F)


_UNSEEN = re.compile("[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in UNSEEN) + "]")


def written_out(character: str) -> str:
    return f"⟨U+{ord(character):04X}⟩"


def shown(text: str) -> str:
    """`text` with every character that draws nothing written out visibly."""
    return _UNSEEN.sub(lambda found: written_out(found.group()), str(text))


def hides_text(text: str) -> bool:
    return bool(_UNSEEN.search(str(text)))


def shown_within(value: Any) -> Any:
    """A JSON value (a tool's schema, a call's arguments) with `shown` applied to every string
    in it, keys included."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown(key): shown_within(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shown_within(item) for item in value]
    return value


def bounded(text: str, limit: int) -> str:
    """`text` shown, and cut at `limit` characters with an ellipsis (a name may be a sentence)."""
    text = shown(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"
