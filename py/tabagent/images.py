"""Pictures in a conversation: what a tool shows the model (a screenshot), as it is sent.

A tool that shows a picture returns `TextWithImages`: a str (what the model reads as the tool's
result, and what the model's code gets) that also carries `parts`, OpenAI-style content parts
(text and `image_url`). The agent keeps them in the step's observation and sends them after the
tool's result (memory.py); a model that does not take images gets a sentence in each picture's
place. A picture counts against the context window by its size (`image_tokens`), goes first when
the conversation must be compacted (compaction.py), stays out of the trace (its bytes are said,
not kept) and is kept in the stored memory only within a size (`keep_images_within`).
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections.abc import Iterable

# Claude counts width * height / 750 and scales pictures to about 1,600 tokens; GPT-4o's tiles
# come to about as much for a screenshot. A picture of unknown size counts as a large one.
PIXELS_PER_TOKEN = 750
LARGEST_IMAGE_TOKENS = 1600
SMALLEST_IMAGE_TOKENS = 85
# What the stored memory of a conversation keeps of pictures (data URL characters): the newest
# few screenshots; older ones give way to a note, so history and exports stay small.
KEPT_IMAGE_CHARS = 3_000_000

NOT_SHOWN = ("[A picture was here, but this model does not take images, so it could not be shown "
             "to it.]")
DROPPED = ("[A picture was here, dropped to fit the model's context window: take a new "
           "screenshot if you need to see the page.]")
NOT_KEPT = "[A picture was here; it was not kept in the conversation's record, to keep it small.]"

_IMAGE_DATA = re.compile(r"(data:image/[\w.+-]+;base64,)([A-Za-z0-9+/=]{200,})")


class TextWithImages(str):
    """A tool's text result that shows pictures too: `parts` are sent after the text."""

    parts: list[dict]

    def __new__(cls, text: str, parts: list[dict]) -> TextWithImages:
        result = super().__new__(cls, text)
        result.parts = list(parts)
        return result

    def __getnewargs__(self) -> tuple[str, list[dict]]:  # type: ignore[override]  # copied (dataclasses.asdict deep-copies) with its pictures
        return str(self), self.parts


def image_part(data_url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": data_url}}


def is_image(part: object) -> bool:
    return isinstance(part, dict) and part.get("type") == "image_url"


def image_url(part: dict) -> str:
    return (part.get("image_url") or {}).get("url") or ""


def text_part(text: str) -> dict:
    return {"type": "text", "text": text}


def replace_images(parts: list[dict], note: str) -> list[dict]:
    """`parts` with each picture replaced by the text `note`."""
    return [text_part(note) if is_image(p) else p for p in parts]


def image_size(data_url: str) -> tuple[int, int] | None:
    """(width, height) of a PNG or JPEG data URL, read from its first bytes; None if unknown."""
    _, _, data = data_url.partition(",")
    try:
        head = base64.b64decode(data[:4096 - 4096 % 4])
    except (binascii.Error, ValueError):
        return None
    if head.startswith(b"\x89PNG") and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    return _jpeg_size(head) if head.startswith(b"\xff\xd8") else None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    """A JPEG's size, from its start-of-frame segment (the first few hundred bytes of a canvas's)."""
    at = 2
    while at + 9 < len(head) and head[at] == 0xFF:
        marker, length = head[at + 1], struct.unpack(">H", head[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", head[at + 5:at + 9])
            return width, height
        at += 2 + length
    return None


def image_tokens(data_url: str) -> int:
    size = image_size(data_url)
    if not size:
        return LARGEST_IMAGE_TOKENS
    width, height = size
    return max(SMALLEST_IMAGE_TOKENS, min(LARGEST_IMAGE_TOKENS, width * height // PIXELS_PER_TOKEN))


def without_image_data(text: str) -> str:
    """`text` (a request's JSON, for the trace) with each picture's bytes replaced by their size."""
    return _IMAGE_DATA.sub(lambda m: f"{m.group(1)}[{len(m.group(2)):,} characters of picture, not kept]", text)


def keep_images_within(steps: Iterable, limit: int = KEPT_IMAGE_CHARS) -> int:
    """Keeps the newest pictures of `steps` (a memory's, memory.py) that fit in `limit`
    characters, replacing the others by a note; returns how many were replaced."""
    room, replaced = limit, 0
    for observation in reversed(list(_observations_with_parts(steps))):
        kept = []
        for part in reversed(observation["parts"]):
            if is_image(part):
                room -= len(image_url(part))
                if room < 0:
                    part, replaced = text_part(NOT_KEPT), replaced + 1
            kept.append(part)
        observation["parts"] = kept[::-1]
    return replaced


def _observations_with_parts(steps: Iterable):
    """What holds pictures, as dicts with "parts": a task's own fields (the user's pictures),
    a tool result's observation."""
    for step in steps:
        for holder in [vars(step) if step.type == "task" else None, *getattr(step, "observations", ())]:
            if holder and holder.get("parts"):
                yield holder
