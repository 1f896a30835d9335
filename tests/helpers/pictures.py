"""What a recorded picture shows: the picture a data URL holds, and a colour near another."""

from __future__ import annotations

import base64
import io

from PIL import Image


def picture(data_url: str) -> Image.Image:
    """The picture a data URL holds, as RGB pixels."""
    head, _, data = data_url.partition(",")
    assert head in ("data:image/png;base64", "data:image/jpeg;base64"), head
    return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")


def near(colour, expected, slack=40) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour, expected))
