"""Today's date, time and time zone, as every request's system text tells the model.

Without it "today", "tomorrow" and every date question are guesses. The time comes from the
host (host.py: the machine's clock in CPython, the browser's clock and time zone in the
extension). The line is kept for a few minutes, not remade for every request: a system text
that changes at each step would make an endpoint that caches the prompt's start (llama.cpp,
OpenAI, Anthropic) read the whole conversation again; a long turn still gets it refreshed.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from .host import Host
from .hosts import default_host

REFRESH_SECONDS = 300  # a turn longer than this is told the time again


def time_text(moment: datetime, zone: str | None) -> str:
    """'Now: Tuesday 28 July 2026, 14:05 (Europe/Paris).' (short: it is in every request)"""
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    utc = f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    where = zone or utc  # a zone's name says its offset to a model, in fewer tokens
    return f"Now: {moment.strftime('%A')} {moment.day} {moment.strftime('%B %Y, %H:%M')} ({where})."


class Clock:
    """The line about the time for a request, taken from `host` and kept REFRESH_SECONDS."""

    def __init__(self, host: Host | None = None) -> None:
        self._host = host
        self._said: tuple[float, str] | None = None  # (when it was taken, the line)

    @property
    def host(self) -> Host:
        if self._host is None:
            self._host = default_host()
        return self._host

    def line(self) -> str:
        now = self.host.now()
        if self._said is None or not 0 <= now - self._said[0] < REFRESH_SECONDS:
            offset_minutes, zone = self.host.time_zone(now)
            moment = datetime.fromtimestamp(now, timezone(timedelta(minutes=offset_minutes)))
            self._said = (now, time_text(moment, zone))
        return self._said[1]
