#!/usr/bin/env python3
"""The on-device model: llama.cpp in WebAssembly inside the extension, beside llama.cpp's native
server code (llama-cpp-python) on the same GGUF file and the same number of threads.

The model is Qwen2.5-Coder-0.5B-Instruct Q4_K_M (scripts/local_models.py, `make models`), the
one a fresh `make run` answers with. For each side, on the same machine, one after the other:
- load: from the file to ready (the extension's: the model read from 127.0.0.1 as a Blob, as
  `make run` serves it, and loaded by wllama; native: Llama(model_path));
- prefill and decode, tokens per second, as llama.cpp's own timings say them (wllama's last
  chunk carries the server's `timings`; llama-cpp-python's, its perf context), for a short
  question (37 tokens in, 64 out) and for a summary of a 2,000-word page (its prefill);
- time to the first token of that summary, the model loaded;
- memory: the PSS of the extension's renderer processes with the model loaded (wasm memory, its
  workers), less before; native: the process's RSS growth;
- memory at rest with the model downloaded: a cold Chromium start on a profile that holds the
  model (downloaded through the extension's own download, into its OPFS, its record kept), the
  panel never opened, beside a cold start of the same profile before the download.
The machine is shared: every row prints the 1-minute load average its runs were measured at.
Threads: Chrome's extension pages are cross-origin isolated, so wllama runs pthreads, one per
core the browser reports (2 here): native gets the same count. Firefox (one thread: no
SharedArrayBuffer in its extension pages) has rows of its own, beside native on one thread.

    python bench/bench_on_device.py [--runs 2]

Goal printed beside the figures: decode at half of native or better.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import local_models  # noqa: E402
from bench_at_rest import SETTLE_S, extension_pss_mb, offscreen_open  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import chromium_panel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.model_host import ModelHost  # noqa: E402

MODEL = "qwen2.5-coder-0.5b"
KEPT_ID = "bench-model"  # not the short list's id: that one is always fetched from its pinned address
WINDOW = 4096
SHORT = [{"role": "user", "content": "Write a short poem about the sea."}]
WORDS = ("The committee met again on Tuesday to review the harbour's budget, the new ferry timetable and the "
         "library's plan to open on Sundays; members asked for figures on costs and on how many people would use it. ")


def page_of_2000_words() -> str:
    words = (WORDS * 100).split()[:2000]
    return " ".join(words)


SUMMARY = [{"role": "user", "content": "Summarize this page in three sentences.\n\n" + page_of_2000_words()}]

# Run in an extension page (cross-origin isolated): load the runner's wllama and time it.
IN_PAGE = """(async (url, window, short, summary) => {
  const { Wllama } = await import(chrome.runtime.getURL("extension/vendor/wllama/index.js"));
  const { threadsHere } = await import(chrome.runtime.getURL("extension/offscreen/on-device/model-runner.js"));
  const out = globalThis.benchOut = { threads: threadsHere(), isolated: globalThis.crossOriginIsolated };
  const t0 = performance.now();
  const blob = await (await fetch(url)).blob();
  const wllama = new Wllama({ default: chrome.runtime.getURL("extension/vendor/wllama/wllama.wasm") }, { suppressNativeLog: true,
    logger: { debug() {}, log() {}, warn() {}, error: console.error } });
  await wllama.loadModel([blob], { n_ctx: window, n_threads: out.threads, n_gpu_layers: 0, jinja: true });
  out.loadMs = performance.now() - t0;
  out.usedThreads = wllama.getNumThreads();
  out.loaded = true;
  const run = async (messages, maxTokens) => {
    const started = performance.now();
    let first = null, timings = null;
    for await (const chunk of await wllama.createChatCompletion({ messages, max_tokens: maxTokens, temperature: 0, stream: true })) {
      if (first === null && chunk.choices?.[0]?.delta?.content) first = performance.now() - started;
      if (chunk.timings) timings = chunk.timings;
    }
    return { first, timings };
  };
  out.short = await run(short, 64);
  out.summary = await run(summary, 16);
  await wllama.exit();
  out.done = true;
})"""


def wasm_run(url: str) -> dict:
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        browser.open_tab(browser.url("extension/options/options.html"))
        time.sleep(2)
        before = extension_pss_mb(browser)
        browser.driver.execute_script(f"({IN_PAGE})(arguments[0], {WINDOW}, {json.dumps(SHORT)}, {json.dumps(SUMMARY)})"
                                      ".catch((e) => (globalThis.benchOut = { error: String(e) }))", url)
        out, loaded_pss = {}, None
        for _ in range(3600):
            out = browser.driver.execute_script("return globalThis.benchOut ?? {}")
            if out.get("loaded") and loaded_pss is None:
                loaded_pss = extension_pss_mb(browser)
            if out.get("done") or out.get("error"):
                break
            time.sleep(1)
        if out.get("error"):
            raise RuntimeError(out["error"])
        return {**out, "memory": (loaded_pss or 0) - before, "load": os.getloadavg()[0]}
    finally:
        browser.quit()
        remove_profile(profile)


def firefox_run(url: str) -> dict:
    """The same, in Firefox's build (an extension page of dist/firefox/, one thread)."""
    from tests.helpers.firefox import FIREFOX_BUILD, Firefox

    firefox = Firefox().start(FIREFOX_BUILD)
    try:
        page = firefox.open_tab(firefox.url("extension/options/options.html"))
        firefox.evaluate(page, f"(({IN_PAGE})({json.dumps(url)}, {WINDOW}, {json.dumps(SHORT)}, {json.dumps(SUMMARY)})"
                               ".catch((e) => (globalThis.benchOut = { error: String(e) })), 1)")
        out = {}
        for _ in range(3600):
            out = firefox.evaluate(page, "globalThis.benchOut ?? {}")
            if out.get("done") or out.get("error"):
                break
            time.sleep(1)
        if out.get("error"):
            raise RuntimeError(out["error"])
        return {**out, "memory": None, "load": os.getloadavg()[0]}
    finally:
        firefox.quit()


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def native_reply(llm, messages, max_tokens: int) -> dict:
    """One streamed reply, with llama.cpp's own timings of it (its perf context)."""
    from llama_cpp import llama_perf_context, llama_perf_context_reset

    llm.reset()
    llama_perf_context_reset(llm._ctx.ctx)
    started, first = time.perf_counter(), None
    for chunk in llm.create_chat_completion(messages=messages, max_tokens=max_tokens, temperature=0, stream=True):
        if first is None and chunk["choices"][0]["delta"].get("content"):
            first = (time.perf_counter() - started) * 1000
    perf = llama_perf_context(llm._ctx.ctx)
    return {"first": first, "timings": {"prompt_n": perf.n_p_eval, "prompt_per_second": 1000 * perf.n_p_eval / perf.t_p_eval_ms,
                                        "predicted_n": perf.n_eval, "predicted_per_second": 1000 * perf.n_eval / perf.t_eval_ms}}


def native_run(path: Path, threads: int) -> dict:
    from llama_cpp import Llama

    before = rss_mb()
    started = time.perf_counter()
    llm = Llama(model_path=str(path), n_ctx=WINDOW, n_threads=threads, n_threads_batch=threads, verbose=False)
    out = {"loadMs": (time.perf_counter() - started) * 1000, "memory": rss_mb() - before}
    out["short"], out["summary"] = native_reply(llm, SHORT, 64), native_reply(llm, SUMMARY, 16)
    llm.close()
    return {**out, "load": os.getloadavg()[0]}


def at_rest_pss(profile: Path) -> dict:
    """A cold start of Chromium on `profile`: the extension's PSS at rest, panel never opened."""
    browser = Browser(profile).start()
    try:
        time.sleep(SETTLE_S)
        return {"pss": extension_pss_mb(browser), "python": offscreen_open(browser), "load": os.getloadavg()[0]}
    finally:
        browser.quit()


def download_into(profile: Path, url: str, size: int, sha256: str) -> None:
    """The model downloaded through the extension (the settings page's Download), then the browser closed."""
    browser = Browser(profile).start()
    try:
        browser.open_side_panel()
        panel = chromium_panel(browser)
        panel.ask_background("download-device-model", request={"id": KEPT_ID, "name": "Qwen2.5-Coder 0.5B", "url": url,
                                                               "size": size, "sha256": sha256})
        kept = "chrome.storage.local.get('deviceModels').then((s) => (s.deviceModels ?? {}))"
        for _ in range(1800):
            if KEPT_ID in panel.run(kept):
                return
            status = panel.ask_background("device-model-status")
            failed = [d for d in status.get("downloads", []) if d.get("status") in ("failed", "paused")]
            if failed:
                raise RuntimeError(f"the download failed: {failed}")
            time.sleep(1)
        raise RuntimeError("the download never ended")
    finally:
        browser.quit()


def rest_with_model(url: str, path: Path, runs: int) -> tuple[list[dict], list[dict]]:
    """At rest before and after a model is downloaded, cold starts of one profile."""
    import hashlib

    profile = fresh_profile()
    try:
        before = [at_rest_pss(profile) for _ in range(runs)]
        digest = hashlib.sha256()
        with path.open("rb") as file:
            while piece := file.read(16 << 20):
                digest.update(piece)
        download_into(profile, url, path.stat().st_size, digest.hexdigest())
        after = [at_rest_pss(profile) for _ in range(runs)]
        return before, after
    finally:
        remove_profile(profile)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def loads(runs) -> str:
    values = [r["load"] for r in runs]
    return f"{min(values):.1f}" if len(values) == 1 else f"{min(values):.1f}–{max(values):.1f}"


def row(name, runs, unit, pick, goal=""):
    values = [pick(r) for r in runs]
    return f"| {name} | {median(values):.1f} {unit} | {min(values):.1f}–{max(values):.1f} | {loads(runs)} | {goal} |"


SIDES = ("rest", "native", "chromium", "native-1", "firefox")


def print_side(side: str, runs: list[dict]) -> None:
    """One side's rows, printed as soon as it is measured (a long run on a shared machine may be cut short)."""
    rows = [row(f"load, {side}", runs, "s", lambda r: r["loadMs"] / 1000),
            row(f"prefill, 37-token question, {side}", runs, "tok/s", lambda r: r["short"]["timings"]["prompt_per_second"]),
            row(f"prefill, 2,000-word page, {side}", runs, "tok/s", lambda r: r["summary"]["timings"]["prompt_per_second"]),
            row(f"decode, {side}", runs, "tok/s", lambda r: r["short"]["timings"]["predicted_per_second"]),
            row(f"first token of the page's summary (loaded), {side}", runs, "s", lambda r: (r["summary"]["first"] or 0) / 1000)]
    if runs[0]["memory"] is not None:
        rows.append(row(f"memory with the model loaded, {side}", runs, "MB", lambda r: r["memory"]))
    print("\n".join(rows), flush=True)


def print_rest(path: Path, before: list[dict], after: list[dict]) -> None:
    print(row("extension memory at rest (PSS), no model downloaded, Chromium", before, "MB", lambda r: r["pss"]))
    print(row(f"extension memory at rest (PSS), {path.stat().st_size:,}-byte model downloaded, Chromium", after, "MB",
              lambda r: r["pss"], "unchanged"))
    print(f"| Python running at rest, model downloaded | {sum(r['python'] for r in after)} of {len(after)} starts | | "
          f"{loads(after)} | never |", flush=True)


def decode_ratio(name: str, wasm: list[dict], native: list[dict]) -> None:
    if wasm and native:
        ratio = median([w["short"]["timings"]["predicted_per_second"] for w in wasm]) / median(
            [n["short"]["timings"]["predicted_per_second"] for n in native])
        print(f"| decode, {name} | {ratio:.2f} | | {loads(wasm + native)} | ≥ 0.5 |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--only", default=",".join(SIDES), help=f"which of {', '.join(SIDES)} to measure, in that order")
    args = parser.parse_args()
    build_checkout()
    only = set(args.only.split(","))
    path = local_models.model_path(MODEL)
    threads = max(1, min(os.cpu_count() or 1, 8))  # what the extension runs with where it is isolated (model-runner.js)
    print(f"\nQwen2.5-Coder-0.5B-Instruct Q4_K_M; {args.runs} run(s) a side; each row with the 1-minute load average "
          f"it was measured at (a shared machine)\n")
    print("| measure | median | spread | load (1 min) | goal |\n|---|---|---|---|---|", flush=True)
    found = {}
    with ModelHost({path.name: path}) as host:
        url = host.url(f"/files/{path.name}")
        if "rest" in only:
            print_rest(path, *rest_with_model(url, path, args.runs))
        if "native" in only:
            found["native"] = [native_run(path, threads) for _ in range(args.runs)]
            print_side(f"native llama.cpp ({threads} threads)", found["native"])
        if "chromium" in only:
            found["chromium"] = [wasm_run(url) for _ in range(args.runs)]
            print_side(f"Chromium extension (wasm, {found['chromium'][0]['usedThreads']} threads, isolated: "
                       f"{found['chromium'][0]['isolated']})", found["chromium"])
        if "native-1" in only:
            found["native-1"] = [native_run(path, 1)]
            print_side("native llama.cpp (1 thread)", found["native-1"])
        if "firefox" in only:
            found["firefox"] = [firefox_run(url)]
            print_side("Firefox extension (wasm, 1 thread)", found["firefox"])
    decode_ratio(f"Chromium wasm ÷ native, {threads} threads", found.get("chromium"), found.get("native"))
    decode_ratio("Firefox wasm ÷ native, 1 thread", found.get("firefox"), found.get("native-1"))
    if found.get("chromium"):
        print(f"\nThe page's summary prompt: {found['chromium'][0]['summary']['timings']['prompt_n']} tokens (wasm's count).")


if __name__ == "__main__":
    main()
