"""The browser's native messaging framing: each message is UTF-8 JSON after its length, four
bytes in the machine's byte order. A host may send the extension at most 1 MB at a time, and the
browser sends a host at most 64 MiB: a length above that is no message of the browser's, and is
never read (a stream that says so is broken, and the host ends)."""

from __future__ import annotations

import json
import struct
from typing import BinaryIO

MOST_TO_BROWSER = 1024 * 1024
MOST_FROM_BROWSER = 64 * 1024 * 1024


def read_message(stream: BinaryIO) -> dict | None:
    """The next message, or None when the browser closed the pipe (or broke its framing)."""
    header = stream.read(4)
    if len(header) < 4:
        return None
    (length,) = struct.unpack("=I", header)
    if length > MOST_FROM_BROWSER:
        return None
    body = stream.read(length)
    if len(body) < length:
        return None
    return json.loads(body.decode("utf-8"))


def write_message(stream: BinaryIO, message: dict) -> None:
    body = json.dumps(message).encode("utf-8")
    if len(body) > MOST_TO_BROWSER:
        raise ValueError(f"a message of {len(body)} bytes is more than the browser takes (1 MB)")
    stream.write(struct.pack("=I", len(body)) + body)
    stream.flush()
