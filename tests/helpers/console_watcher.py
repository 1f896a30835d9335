"""Hears every uncaught exception and console.error in the extension's own contexts.

Attached to a browser's DevTools connection, it watches the service worker, the offscreen
document, the side panel and every other extension page, however it was opened: a tab
opened blank and then sent to an extension page (how the tests open the side panel) is
watched from the moment it shows the extension. Chrome hands a late session what the page
logged before it came, so nothing said at load is missed.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from .cdp import CDP


@dataclass
class ConsoleProblem:
    where: str
    text: str

    def __str__(self) -> str:
        return f"[{self.where}] {self.text}"


def is_extension_page(url: str) -> bool:
    return url.startswith("chrome-extension://")


class ConsoleWatcher:
    def __init__(self, cdp: CDP):
        self.cdp = cdp
        self.problems: list[ConsoleProblem] = []
        self.sessions: dict[str, str] = {}  # our session -> where its problems come from
        self.session_targets: dict[str, str] = {}  # our session -> its target id
        self.asked: set[str] = set()  # target ids we asked to attach to
        self.addresses: dict[str, str] = {}  # target id -> the address it shows now
        cdp.on("Target.attachedToTarget", self._attached)
        cdp.on("Runtime.exceptionThrown", self._exception)
        cdp.on("Runtime.consoleAPICalled", self._console)
        cdp.on("Target.targetCreated", self._seen)
        cdp.on("Target.targetInfoChanged", self._seen)
        cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True})
        cdp.send("Target.setDiscoverTargets", {"discover": True})

    def take_problems(self) -> list[ConsoleProblem]:
        problems, self.problems = self.problems, []
        return [problem for problem in problems if not expected(problem)]

    def _attached(self, params, _session) -> None:
        info = params["targetInfo"]
        self.addresses[info["targetId"]] = info["url"]
        if not is_extension_page(info["url"]) or info["targetId"] in self.session_targets.values():
            return  # one session per target, or each problem would be counted twice
        self.sessions[params["sessionId"]] = f"{info['type']} {info['url'].split('/', 3)[-1]}"
        self.session_targets[params["sessionId"]] = info["targetId"]
        # Never block the reader thread: enabling waits for the reader to deliver the reply.
        threading.Thread(target=self._enable_runtime, args=(params["sessionId"],), daemon=True).start()

    def _seen(self, params, _session) -> None:
        info = params["targetInfo"]
        self.addresses[info["targetId"]] = info["url"]
        if is_extension_page(info["url"]) and info["targetId"] not in self.asked | set(self.session_targets.values()):
            self.asked.add(info["targetId"])
            threading.Thread(target=self._attach_quietly, args=(info["targetId"],), daemon=True).start()

    def _still_ours(self, session) -> bool:
        # A tab that left the extension for a web page is no longer the extension's to answer for.
        return session in self.sessions and is_extension_page(self.addresses.get(self.session_targets[session], ""))

    def _exception(self, params, session) -> None:
        if self._still_ours(session):
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self.problems.append(ConsoleProblem(self.sessions[session], f"uncaught: {text}"))

    def _console(self, params, session) -> None:
        if self._still_ours(session) and params.get("type") == "error":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.problems.append(ConsoleProblem(self.sessions[session], f"console.error: {text}"))

    def _attach_quietly(self, target_id: str) -> None:
        try:
            self.cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})
        except Exception:
            pass  # the target went away before we got to it

    def _enable_runtime(self, session_id: str) -> None:
        try:
            self.cdp.send("Runtime.enable", session_id=session_id, timeout=10)
            self.cdp.send("Runtime.runIfWaitingForDebugger", session_id=session_id, timeout=10)
        except Exception:
            pass


# The problems that are expected, as (pattern over "[where] text", why). Empty: when the
# watcher first heard the side panel, no test of the whole e2e suite logged an error there
# that was not a fault. An entry here is an error no test will ever fail on again.
EXPECTED: list[tuple[str, str]] = []


def expected(problem: ConsoleProblem) -> bool:
    return any(re.search(pattern, str(problem)) for pattern, _why in EXPECTED)
