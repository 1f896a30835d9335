"""The CPU time of the longest task on the side panel's main thread, from a Chromium trace:
on a machine shared with other work, a task's wall time includes the time it waited for a
core, its CPU time does not (what the task would take with a core to itself)."""

from __future__ import annotations

import json
import threading

CATEGORIES = ["toplevel", "v8", "devtools.timeline", "disabled-by-default-devtools.timeline"]


class TaskCpu:
    """with TaskCpu(browser) as trace: ...; then trace.longest() in ms."""

    def __init__(self, browser):
        self.cdp = browser.cdp
        self.events: list[dict] = []
        self.complete = threading.Event()
        self.cdp.on("Tracing.dataCollected", lambda params, session=None: self.events.extend(params["value"]))
        self.cdp.on("Tracing.tracingComplete", lambda params, session=None: self.complete.set())

    def __enter__(self):
        self.events.clear()
        self.complete.clear()
        self.cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES}, "transferMode": "ReportEvents"})
        return self

    def __exit__(self, *exc):
        self.cdp.send("Tracing.end")
        self.complete.wait(60)

    def longest(self) -> float:
        """The CPU time (ms) of the longest top-level event on the panel's main thread."""
        names = {(e["pid"], e["tid"]): e["args"]["name"] for e in self.events if e.get("ph") == "M" and e.get("name") == "thread_name"}
        # The panel's process: the one whose scripts came from the side panel's page.
        panel = {e["pid"] for e in self.events if e.get("name") in ("FunctionCall", "EvaluateScript") and "sidepanel" in json.dumps(e.get("args", {}))}
        main = sorted((e for e in self.events if e.get("ph") == "X" and e["pid"] in panel and names.get((e["pid"], e["tid"])) == "CrRendererMain"),
                      key=lambda e: (e["tid"], e["ts"], -e["dur"]))
        longest, ends = 0.0, {}
        for event in main:  # top-level: no earlier event of the thread still covers it
            if event["ts"] >= ends.get(event["tid"], -1):
                ends[event["tid"]] = event["ts"] + event["dur"]
                longest = max(longest, event.get("tdur", 0) / 1000)
        return longest
