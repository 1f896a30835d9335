"""OpenAIModel against a scripted or canned server, with waits between retries recorded
instead of slept."""

from __future__ import annotations

from tabagent.hosts.cpython import CPythonHost
from tabagent.models import OpenAIModel


def model_for(server, scenario, **options):
    options.setdefault("host", RecordingHost())
    options.setdefault("backoff_base", 0.001)
    return OpenAIModel(server.base_url(scenario), api_key="sk-test", model="fake-model", **options)


def canned_model(chunks, headers=None, **options):
    host = CannedHost(200, headers if headers is not None else {"content-type": "text/event-stream"}, chunks)
    return OpenAIModel("https://llm.example/v1", model="m", host=host, max_retries=0, **options)


class RecordingHost(CPythonHost):
    """The real HTTP host, but waits between retries are recorded, not slept."""

    def __init__(self):
        super().__init__()
        self.sleeps = []

    async def sleep(self, seconds):
        self.sleeps.append(seconds)


class CannedHost(CPythonHost):
    """Answers every request with one canned response, for stream corner cases."""

    def __init__(self, status, headers, chunks):
        super().__init__()
        self.status, self.headers, self.body = status, headers, chunks

    async def request(self, method, url, headers, body=None, timeout=None, follow_redirects=True):
        from tabagent.host import Response

        canned = self

        class Canned(Response):
            async def chunks(self):
                for piece in canned.body:
                    yield piece

            async def close(self):
                pass

        return Canned(self.status, self.headers)
