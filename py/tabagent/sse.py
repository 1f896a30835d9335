"""An incremental parser for server-sent events (the WHATWG event-stream format).

Bytes arrive in arbitrary pieces: a line, a UTF-8 character or a CRLF pair may be
split across chunks. `feed` keeps what is incomplete and returns only whole events,
so any split of a stream yields the same events.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class SSEEvent:
    data: str
    event: str = "message"
    id: str | None = None


class SSEParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""       # the current, not yet terminated, line
        self._skip_lf = False   # the last chunk ended in "\r": a leading "\n" is its pair
        self._started = False
        self._data: list[str] = []
        self._event = ""
        self._id = None         # the id field's value so far (the spec's "last event ID buffer")
        self._last_id: str | None = None  # the id of the last whole event (set as it is dispatched)
        self.retry_ms: int | None = None  # the server's `retry:`, how long to wait before reconnecting

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return self._feed_text(self._decoder.decode(chunk))

    def close(self) -> list[SSEEvent]:
        """End of stream. Per the spec, an event without its blank line is dropped."""
        self._feed_text(self._decoder.decode(b"", final=True))
        return []

    def _feed_text(self, text: str) -> list[SSEEvent]:
        if not self._started and text:
            self._started = True
            text = text.removeprefix("\ufeff")
        if self._skip_lf and text.startswith("\n"):
            text, self._skip_lf = text[1:], False
        if text:
            self._skip_lf = text.endswith("\r")
        lines = _LINE_END.split(self._buffer + text)
        self._buffer = lines.pop()
        events: list[SSEEvent] = []
        for line in lines:
            self._line(line, events)
        return events

    def _line(self, line: str, events: list[SSEEvent]) -> None:
        if not line:  # a blank line dispatches the event, and makes its id the stream's last
            self._last_id = self._id
            if self._data:
                events.append(SSEEvent("\n".join(self._data), self._event or "message", self._id))
            self._data, self._event = [], ""
            return
        if line.startswith(":"):  # a comment, e.g. a keep-alive
            return
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry_ms = int(value)

    @property
    def last_id(self) -> str | None:
        """The id of the last whole event (also of one that carried no data: a priming event),
        what a reconnection resumes after. An event whose blank line has not come yet does not
        count (WHATWG: the last event ID is set as an event is dispatched): a stream cut in the
        middle of one is resumed before it, and the server sends it again whole."""
        return self._last_id
