"""A stand-in for the offscreen document's bridge to the browser's built-in LanguageModel."""

from __future__ import annotations

import asyncio
import json


class FakeBridge:
    """Stands in for the offscreen document's bridge to LanguageModel."""

    def __init__(self, replies, fail=None):
        self.replies, self.fail, self.calls, self.aborted = list(replies), fail, [], []

    async def stream(self, request_id, initial_json, prompt):
        if self.fail:
            raise RuntimeError(self.fail)
        self.calls.append((json.loads(initial_json), prompt))
        reply = self.replies.pop(0)

        async def pieces():
            for word in reply.split(" "):
                await asyncio.sleep(0)
                yield word + " "
        return pieces()

    def abort(self, request_id):
        self.aborted.append(request_id)
