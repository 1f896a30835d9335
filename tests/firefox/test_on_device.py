"""The "On this device" provider in Firefox: llama.cpp in WebAssembly in the Python page (a frame
of Firefox's background page), on one thread (Firefox gives extension pages no cross-origin
isolation, so no SharedArrayBuffer), its worker started from the extension's own file (Firefox's
extension CSP refuses blob: workers). A download from a local stand-in for the model host, cut
and resumed, a wrong SHA-256 refused, a turn answered with a page read, and the model unloaded
when idle. SmolLM2-135M-Instruct: mechanics, never what it says."""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from tests.helpers.model_host import tampered
from tests.helpers.page_server import PageServer
from tests.helpers.panel_backends import firefox_panel

pytestmark = pytest.mark.timeout(1200)

# The chat page keeps what it is told: downloads' progress, and each turn's end (with its events
# and memory), so the tests wait on those messages, not on polling storage against a clock.
LISTEN = """(() => { globalThis.heard = []; chrome.runtime.onMessage.addListener((m) => {
  if (["device-model-download", "turn-finished"].includes(m?.type)) globalThis.heard.push(m); }); return true; })()"""


@pytest.fixture(scope="module")
def on_device_chat(firefox):
    context = firefox.open_sidebar_page()
    firefox.wait_for(context, "document.getElementById('python-status')?.dataset.ready === 'true'", 180, "Python never became ready")
    firefox.evaluate(context, LISTEN)
    return context


def download(firefox, chat, **request) -> dict:
    firefox_panel(firefox, chat).ask_background("download-device-model", request=request)
    ended = f"globalThis.heard.filter((m) => m.id === {json.dumps(request['id'])} && ['done', 'failed', 'paused'].includes(m.status)).at(-1)"
    return firefox.wait_for_value(chat, ended, 300, "the download never ended")


def test_a_cut_download_resumes_and_a_wrong_hash_is_refused(firefox, on_device_chat, model_host, smollm2_gguf):
    chat, data = on_device_chat, smollm2_gguf.read_bytes()
    end = download(firefox, chat, id="smollm2", name="SmolLM2", url=model_host.url("/cut/smollm2.gguf"), size=len(data),
                   sha256=hashlib.sha256(data).hexdigest())
    assert end["status"] == "done", end
    ranges = [r for path, r in model_host.seen if path == "/cut/smollm2.gguf"]
    assert ranges[0] is None and ranges[1] and ranges[1] != "bytes=0-", ranges
    wrong = download(firefox, chat, id="wrong", name="wrong", url=model_host.url("/files/smollm2.gguf"), sha256="0" * 64)
    assert wrong["status"] == "failed" and "SHA-256" in wrong["error"], wrong
    # Red team: the right name and size, a GGUF file's first bytes, other bytes after: refused by its hash.
    swapped = download(firefox, chat, id="swapped", name="SmolLM2", url=model_host.url("/tampered/smollm2.gguf"), size=len(data),
                       sha256=hashlib.sha256(data).hexdigest())
    assert swapped["status"] == "failed" and hashlib.sha256(tampered(data)).hexdigest() in swapped["error"], swapped
    kept = firefox.evaluate(chat, "chrome.storage.local.get('deviceModels').then((s) => s.deviceModels)")
    assert kept["smollm2"]["size"] == len(data) and "wrong" not in kept and "swapped" not in kept


def test_a_turn_is_answered_on_device_with_the_page_read_then_the_model_unloads(firefox, on_device_chat, tmp_path):
    chat = on_device_chat
    panel = firefox_panel(firefox, chat)
    (tmp_path / "article.html").write_text("<title>Otters</title><h1>Otters</h1><p>" + "Sea otters hold hands while they sleep. " * 20 + "</p>")
    with PageServer(tmp_path) as pages:
        firefox.open_tab(pages.url("article.html"))
        panel.ask_background("save-settings", apiKey="", settings={
            "provider": "ondevice", "model": "smollm2", "agent": "tool_calling", "max_steps": 2,
            "max_output_tokens": 48, "idle_close_minutes": 0.1})
        tab = firefox.evaluate(chat, f"chrome.tabs.query({{}}).then((tabs) => tabs.find((t) => t.url === {json.dumps(pages.url('article.html'))}))")
        started = panel.ask_background("start-turn", text="What do sea otters do while they sleep?",
                                       attachedTabs=[{"tabId": tab["id"], "url": tab["url"], "title": "Otters"}])
        # The turn's end is the Python page's turn-finished message, heard by this page: polling the
        # conversation store (an IndexedDB open 20 times a second, in the extension's one process,
        # beside the model) until a clock ran out was the flaky part at a high load.
        ended = f"globalThis.heard.find((m) => m.type === 'turn-finished' && m.conversationId === {json.dumps(started['conversationId'])})"
        try:
            finished = firefox.wait_for_value(chat, ended, 840, "the turn never ended")
        except Exception:
            print(panel.ask_background("device-model-status"))
            raise
    assert finished["status"] == "ok", finished["events"][-2:]
    assert "token" in [e["kind"] for e in finished["events"]]
    assert "Sea otters hold hands" in json.dumps(finished["memory"])
    # What the load was, read from the runner's record of it: the model may already be unloaded
    # here (the idle spell is 6 s, and a loaded machine takes longer than that to get here).
    status = panel.ask_background("device-model-status")["runner"]
    assert status["loads"] == 1 and status["lastLoaded"]["threads"] == 1  # one thread: no SharedArrayBuffer here
    deadline = time.monotonic() + 180  # the spell is 6 s from the last reply: generous for a busy machine's timers
    while panel.ask_background("device-model-status")["runner"]["loaded"] is not None and time.monotonic() < deadline:
        time.sleep(1)
    assert panel.ask_background("device-model-status")["runner"]["loaded"] is None, "the model stayed loaded"
