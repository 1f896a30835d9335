"""What a recorded picture shows: the picture a data URL holds, and a colour near another; and the
service worker's answer to a screenshot, for the Python tests' stand-ins."""

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


SPOT = "data:image/png;base64,iVBORw0KGgo="


def screenshot_reply(url: str) -> dict:
    """The service worker's answer to a screenshot of `url`: its 800×600 viewport as a 400×300 SPOT."""
    area = {"left": 0, "top": 0, "width": 800, "height": 600, "scroll_x": 0, "scroll_y": 0}
    return {"ok": True, "url": url, "result": {"image": SPOT, "width": 400, "height": 300, "area": area}}
