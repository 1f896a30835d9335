"""The "On this device" provider in Chromium: a model downloaded from a local stand-in for the
model host (progress, a cut download resumed with Range, a wrong hash, a file that is not a GGUF
and an address that redirects to another site refused), a turn answered by that model, run by
llama.cpp in WebAssembly in the offscreen document, with a page read, and the model unloaded
when idle and loaded again by the next message.

The model is SmolLM2-135M-Instruct (tests/helpers/llama_server.py finds its file): the tests
assert on mechanics, never on what it says.
"""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from tests.helpers.model_host import tampered
from tests.helpers.quiet import stays_quiet
from tests.helpers.page_server import PageServer
from tests.helpers.panel_backends import ChromiumPanel, chromium_panel

pytestmark = pytest.mark.timeout(900)

LISTEN = """(() => { globalThis.heard = []; chrome.runtime.onMessage.addListener((m) => {
  if (m?.type === "device-model-download") globalThis.heard.push(m); }); return true; })()"""


def panel_run(browser, expression):
    return browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"Promise.resolve({expression}).then(done, (e) => done({{ error: String(e) }}))")


def heard(browser) -> list[dict]:
    return browser.driver.execute_script("return globalThis.heard")


def wait_for_download(browser, model_id, timeout=240) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ends = [m for m in heard(browser) if m["id"] == model_id and m["status"] in ("done", "failed", "paused")]
        if ends:
            return ends[-1]
        time.sleep(0.3)
    raise AssertionError(f"the download of {model_id} never ended: {heard(browser)[-3:]}")


def device_models(browser) -> dict:
    return panel_run(browser, "chrome.storage.local.get('deviceModels').then((s) => s.deviceModels ?? {})")


def start(browser, **request):
    return chromium_panel(browser).ask_background("download-device-model", request=request)


def test_a_cut_download_resumes_shows_progress_and_is_kept(browser, model_host, smollm2_gguf):
    ChromiumPanel(browser).new_conversation()
    browser.driver.execute_script(f"return {LISTEN}")
    data = smollm2_gguf.read_bytes()
    start(browser, id="smollm2", name="SmolLM2 135M", url=model_host.url("/cut/smollm2.gguf"), size=len(data),
          sha256=hashlib.sha256(data).hexdigest())
    end = wait_for_download(browser, "smollm2")
    assert end["status"] == "done", end
    ranges = [r for path, r in model_host.seen if path == "/cut/smollm2.gguf"]
    assert ranges[0] is None and ranges[1] and int(ranges[1].removeprefix("bytes=").rstrip("-")) > 0, ranges
    told = [m["received"] for m in heard(browser) if m["id"] == "smollm2" and m["status"] == "downloading"]
    assert len(told) >= 2 and told == sorted(told)
    record = device_models(browser)["smollm2"]
    assert record["size"] == len(data) and record["stored"] and record["window"] == 8192
    assert record["architecture"] == "llama"


@pytest.mark.parametrize(("path", "expected", "why"), [
    ("/files/smollm2.gguf", "0" * 64, "SHA-256"),
    ("/not-gguf.gguf", "", "not a GGUF"),
    ("/away/smollm2.gguf", "", "another site"),
])
def test_a_download_that_fails_its_checks_keeps_nothing(browser, model_host, path, expected, why):
    ChromiumPanel(browser).new_conversation()
    browser.driver.execute_script(f"return {LISTEN}")
    start(browser, id="refused", name="refused", url=model_host.url(path), sha256=expected)
    end = wait_for_download(browser, "refused")
    assert end["status"] == "failed" and why in end["error"], end
    assert "refused" not in device_models(browser)
    size = panel_run(browser, """navigator.storage.getDirectory().then((root) => root.getDirectoryHandle("on-device-models"))
      .then((dir) => dir.getFileHandle("refused.gguf")).then((h) => h.getFile()).then((f) => f.size, () => -1)""")
    assert size == -1


def test_a_file_with_the_right_name_and_size_but_other_bytes_is_refused(browser, model_host, smollm2_gguf):
    """Red team: a host (or a cache, or a man in the middle) serves a swapped file under the pinned
    name, of the pinned size, beginning as a GGUF file does. Only its SHA-256 tells it apart: it is
    refused, with both hashes and what to do said, nothing of it is kept, and the models kept
    before are all still there."""
    ChromiumPanel(browser).new_conversation()
    browser.driver.execute_script(f"return {LISTEN}")
    data = smollm2_gguf.read_bytes()
    before = device_models(browser)
    start(browser, id="swapped", name="SmolLM2 135M", url=model_host.url("/tampered/smollm2.gguf"), size=len(data),
          sha256=hashlib.sha256(data).hexdigest())
    end = wait_for_download(browser, "swapped")
    assert end["status"] == "failed", end
    assert hashlib.sha256(data).hexdigest() in end["error"] and "Download again" in end["error"], end
    assert hashlib.sha256(tampered(data)).hexdigest() in end["error"], end  # the hash of what arrived
    assert device_models(browser) == before
    size = panel_run(browser, """navigator.storage.getDirectory().then((root) => root.getDirectoryHandle("on-device-models"))
      .then((dir) => dir.getFileHandle("swapped.gguf")).then((h) => h.getFile()).then((f) => f.size, () => -1)""")
    assert size == -1


def test_a_download_the_user_did_not_start_is_not_made(browser, model_host):
    """Only the service worker, for the settings page or the panel, may ask the Python page for a
    download: the same message sent to the offscreen document from anywhere else is not obeyed."""
    ChromiumPanel(browser).new_conversation()
    before = len(model_host.seen)
    panel_run(browser, "chrome.runtime.sendMessage(" + json.dumps({
        "target": "offscreen", "type": "download-device-model",
        "request": {"id": "sneaky", "name": "x", "url": model_host.url("/files/smollm2.gguf")}}) + ")")
    stays_quiet(lambda: model_host.seen[before:], 3, every=0.2, why="the model host was asked for a download nobody started")
    assert "sneaky" not in device_models(browser)


def finished(browser, conversation_id, timeout=600) -> dict:
    """The conversation once its last turn has ended (as saved)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [c for c in chromium_panel(browser).stored_conversations() if c["id"] == conversation_id]
        if found and found[0]["turns"][-1].get("status") not in (None, "running"):
            return found[0]
        time.sleep(1)
    raise AssertionError("the turn never ended")


def offscreen(browser):
    return next(t for t in browser.extension_targets("background_page") + browser.extension_targets("page")
                if t["url"].endswith("offscreen.html"))


def runner_status(browser):
    return browser.evaluate_in(offscreen(browser), "globalThis.tabagentDebug.onDeviceModel.status()")


def test_a_turn_is_answered_on_device_with_the_page_read_then_the_model_unloads(browser, model_host, tmp_path):
    if "smollm2" not in device_models(browser):
        pytest.skip("needs the model the download test kept")
    (tmp_path / "article.html").write_text("<title>Otters</title><h1>Otters</h1><p>"
                                          + "Sea otters hold hands while they sleep. " * 20 + "</p>")
    with PageServer(tmp_path) as pages:
        browser.open_tab(pages.url("article.html"))
        panel = ChromiumPanel(browser).new_conversation()
        panel.ask_background("save-settings", apiKey="", settings={
            "provider": "ondevice", "model": "smollm2", "agent": "tool_calling", "max_steps": 2,
            "max_output_tokens": 48, "idle_close_minutes": 0.1})
        tabs = panel.run(f"chrome.tabs.query({{ url: {json.dumps(pages.url('article.html'))} }})")
        started = panel.ask_background("start-turn", text="What do sea otters do while they sleep?",
                                       attachedTabs=[{"tabId": tabs[0]["id"], "url": tabs[0]["url"], "title": "Otters"}])
        conversation = finished(browser, started["conversationId"])
    assert conversation["turns"][-1]["status"] == "ok", conversation["turns"][-1]["events"][-2:]
    kinds = [e["kind"] for e in conversation["turns"][-1]["events"]]
    assert "token" in kinds and kinds[-1] == "done"  # the on-device model streamed its answer
    assert "Sea otters hold hands" in conversation["memory"]  # the page, read into the model's request
    assert runner_status(browser)["loads"] == 1
    deadline = time.monotonic() + 60  # the idle spell is 6 s
    while runner_status(browser)["loaded"] is not None and time.monotonic() < deadline:
        time.sleep(1)
    assert runner_status(browser)["loaded"] is None, "the model stayed loaded after the idle spell"
