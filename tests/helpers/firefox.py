"""Real Firefox ESR with TabAgent installed, driven over WebDriver BiDi.

Firefox speaks WebDriver BiDi itself (`--remote-debugging-port`), so no geckodriver is needed:
one websocket (websocket-client) to `ws://127.0.0.1:<port>/session`. A `Firefox` is one
headless firefox-esr process with a fresh profile whose prefs stop its own traffic (updates,
telemetry, safe browsing, remote settings...) and send anything not for 127.0.0.1 to a dead
proxy. TabAgent is installed from dist/firefox/ (`webExtension.install`, as a temporary
add-on) under a fixed moz-extension UUID (the `extensions.webextensions.uuids` pref), and its
pages are opened as tabs and driven with `script.evaluate`. Console errors and uncaught
exceptions of the pages BiDi sees (tabs, not the background page) are recorded, so tests can
fail on them.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import websocket
from tests.helpers.processes import end_within

ROOT = Path(__file__).resolve().parents[2]
FIREFOX = os.environ.get("TABAGENT_FIREFOX", "/usr/bin/firefox-esr")
FIREFOX_BUILD = ROOT / "dist" / "firefox"
ADDON_ID = "tabagent@tabagent.dev"  # manifest.json: browser_specific_settings.gecko.id
EXTENSION_UUID = "0b1c2d3e-4f50-4617-8283-94a5b6c7d8e9"
DEAD_PROXY_PORT = 9  # "discard": nothing listens there, so a request not for 127.0.0.1 fails at once

PREFS = {
    # TabAgent under a fixed address, so tests can name its pages.
    "extensions.webextensions.uuids": json.dumps({ADDON_ID: EXTENSION_UUID}),
    "xpinstall.signatures.required": False,
    "extensions.autoDisableScopes": 0,
    "extensions.enabledScopes": 5,
    # Nothing leaves 127.0.0.1: every other address goes to a proxy that is not there ...
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": DEAD_PROXY_PORT,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": DEAD_PROXY_PORT,
    "network.proxy.socks": "127.0.0.1",
    "network.proxy.socks_port": DEAD_PROXY_PORT,
    "network.proxy.socks_remote_dns": True,
    "network.proxy.no_proxies_on": "localhost, 127.0.0.1",
    "network.proxy.allow_hijacking_localhost": False,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.trr.mode": 5,
    # ... and Firefox asks for nothing of its own.
    "app.update.disabledForTesting": True,
    "app.update.auto": False,
    "app.normandy.enabled": False,
    "app.normandy.api_url": "",
    "app.shield.optoutstudies.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.blockedURIs.enabled": False,
    "browser.safebrowsing.provider.google4.updateURL": "",
    "browser.safebrowsing.provider.mozilla.updateURL": "",
    "browser.search.update": False,
    "browser.region.network.url": "",
    "browser.region.update.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.startup.page": 0,
    "browser.startup.homepage": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.shell.checkDefaultBrowser": False,
    "browser.topsites.contile.enabled": False,
    "browser.urlbar.suggest.quicksuggest.sponsored": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.server": "",
    "toolkit.coverage.endpoint.base": "",
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "extensions.blocklist.enabled": False,
    "extensions.systemAddon.update.enabled": False,
    "services.settings.server": f"http://127.0.0.1:{DEAD_PROXY_PORT}/",
    "media.gmp-manager.url": "",
    "media.gmp-gmpopenh264.enabled": False,
    "geo.provider.network.url": "",
    "dom.push.connection.enabled": False,
    "identity.fxaccounts.enabled": False,
    "browser.ping-centre.telemetry": False,
}


def _user_js(prefs: dict) -> str:
    return "".join(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n" for name, value in prefs.items())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class BiDiError(RuntimeError):
    pass


@dataclass
class Firefox:
    extra_prefs: dict = field(default_factory=dict)
    locale: str | None = None  # the browser's language, as a langpack would make it ("de")
    env: dict = field(default_factory=dict)  # more environment (HOME: where it reads native host manifests)
    profile: Path = field(init=False)
    process: subprocess.Popen = field(init=False)
    problems: list = field(default_factory=list, init=False)

    def start(self, extension_dir: Path = FIREFOX_BUILD) -> "Firefox":
        if not (extension_dir / "manifest.json").is_file():
            raise RuntimeError(f"{extension_dir} is missing: run `make build` (scripts/browser_builds.py)")
        self.profile = Path(tempfile.mkdtemp(prefix="tabagent-firefox-"))
        (self.profile / "user.js").write_text(_user_js({**PREFS, **self.extra_prefs}))
        port = _free_port()
        self.log = open(self.profile / "firefox.log", "wb")
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--profile", str(self.profile), f"--remote-debugging-port={port}", "--remote-allow-system-access", "about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1", **self.env},
        )
        try:
            self._connect(port)
            self.send("session.new", {"capabilities": {}})
            self.send("session.subscribe", {"events": ["log.entryAdded"]})
            if self.locale:
                self._speak(self.locale)
            self.addon = self.send("webExtension.install", {"extensionData": {"type": "path", "path": str(extension_dir)}})["extension"]
        except BaseException:
            self.quit()  # no Firefox outlives a start that failed
            raise
        return self

    def _speak(self, locale: str) -> None:
        """Firefox in `locale`, before TabAgent is installed (an add-on picks its language as it
        starts). Debian's firefox-esr ships English only, so the language is made available
        the way Firefox's own tests do, in the browser's process (--remote-allow-system-access)."""
        [window, *_] = self.send("browsingContext.getTree", {"moz:scope": "chrome"})["contexts"]
        script = f"Services.locale.availableLocales = [{json.dumps(locale)}, 'en-US']; Services.locale.requestedLocales = [{json.dumps(locale)}];"
        self.send("script.evaluate", {"expression": script, "target": {"context": window["context"]}, "awaitPromise": False})

    def _connect(self, port: int, timeout: float = 300) -> None:
        """Waits for Firefox to listen (it prints the address once it does), then connects. The
        wait ends as soon as it listens or its process ends; the deadline only bounds a Firefox
        that hangs (at a load of 30 to 40 on two cores a start took over 60 s)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=120, suppress_origin=True)
                break
            except (ConnectionRefusedError, websocket.WebSocketException, OSError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"Firefox did not start: {(self.profile / 'firefox.log').read_text(errors='replace')[-2000:]}") from None
                time.sleep(0.1)
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[threading.Event, list]] = {}
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="bidi-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                message = json.loads(self._ws.recv())
            except Exception:
                break
            if message.get("type") == "event":
                self._on_event(message)
                continue
            waiter = self._pending.pop(message.get("id"), None)
            if waiter:
                waiter[1].append(message)
                waiter[0].set()

    def _on_event(self, message: dict) -> None:
        entry = message.get("params", {})
        if message.get("method") == "log.entryAdded" and entry.get("level") == "error":
            self.problems.append(f"{entry.get('source', {}).get('context')}: {entry.get('text')}")

    def send(self, method: str, params: dict, timeout: float = 90) -> dict:
        command_id = next(self._ids)
        done, box = threading.Event(), []
        self._pending[command_id] = (done, box)
        with self._lock:
            self._ws.send(json.dumps({"id": command_id, "method": method, "params": params}))
        if not done.wait(timeout):
            self._pending.pop(command_id, None)
            raise BiDiError(f"{method}: no answer within {timeout} s")
        reply = box[0]
        if reply.get("type") == "error":
            raise BiDiError(f"{method}: {reply.get('error')}: {reply.get('message')}")
        return reply["result"]

    # -- pages -----------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return f"moz-extension://{EXTENSION_UUID}/{path.lstrip('/')}"

    def open_tab(self, url: str) -> str:
        """Opens `url` in a new tab, waits for it to load; returns its browsing context."""
        context = self.send("browsingContext.create", {"type": "tab"})["context"]
        self.send("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"})
        return context

    def open_sidebar_page(self) -> str:
        """The chat, as a tab: the same page Firefox shows in its sidebar."""
        return self.open_tab(self.url("extension/sidepanel/sidepanel.html"))

    def evaluate(self, context: str, expression: str, timeout: float = 60):
        """The value of `expression` (awaited when it is a promise) in the page, as JSON."""
        wrapped = f"(async () => JSON.stringify(await ({expression})))()"
        result = self.send("script.evaluate", {"expression": wrapped, "target": {"context": context}, "awaitPromise": True,
                                               "resultOwnership": "none"}, timeout=timeout)
        if result.get("type") == "exception":
            details = result["exceptionDetails"]
            raise BiDiError(f"in the page: {details.get('text')}")
        value = result["result"].get("value")
        return None if value is None else json.loads(value)

    def wait_for(self, context: str, expression: str, timeout: float = 60, message: str = ""):
        """Waits, inside the page, until `expression` is truthy; returns its value. The page
        re-checks on every change of its DOM (and every 50 ms), so nothing here races."""
        script = f"""new Promise((resolve, reject) => {{
          const check = () => {{ try {{ const value = ({expression}); if (value) {{ stop(); resolve(value); }} }} catch (error) {{ stop(); reject(error); }} }};
          const observer = new MutationObserver(check);
          const timer = setInterval(check, 50);
          const giveUp = setTimeout(() => {{ stop(); reject(new Error({json.dumps(message or 'never true: ' + expression)})); }}, {int(timeout * 1000)});
          function stop() {{ observer.disconnect(); clearInterval(timer); clearTimeout(giveUp); }}
          observer.observe(document, {{ subtree: true, childList: true, characterData: true, attributes: true }});
          check();
        }})"""
        return self.evaluate(context, script, timeout=timeout + 10)

    def wait_for_value(self, context: str, expression: str, timeout: float = 60, message: str = ""):
        """Like wait_for, for an expression that gives a promise (storage, messages): asked again
        as soon as each answer comes, until one is truthy."""
        script = f"""(async () => {{
          const giveUp = Date.now() + {int(timeout * 1000)};
          while (Date.now() < giveUp) {{
            const value = await ({expression});
            if (value) return value;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }}
          throw new Error({json.dumps(message or 'never true: ' + expression)});
        }})()"""
        return self.evaluate(context, script, timeout=timeout + 10)

    def set_files(self, context: str, selector: str, paths: list) -> None:
        """Chooses `paths` in the page's file input, as the file picker would (input.setFiles)."""
        found = self.send("script.evaluate", {"expression": f"document.querySelector({json.dumps(selector)})", "target": {"context": context},
                                              "awaitPromise": False, "resultOwnership": "root"})
        element = {"sharedId": found["result"]["sharedId"]}
        self.send("input.setFiles", {"context": context, "element": element, "files": [str(path) for path in paths]})

    def context_showing(self, prefix: str, timeout: float = 30) -> str:
        """The browsing context (tab or window) whose address starts with `prefix`, once one does."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for context in self.send("browsingContext.getTree", {})["contexts"]:
                if context["url"].startswith(prefix):
                    return context["context"]
            time.sleep(0.1)
        raise AssertionError(f"no window showed {prefix}")

    def submit_form(self, context: str, fields: dict[str, str]) -> None:
        """Fills the page's fields (by name) once they are shown, and presses its submit button."""
        first = next(iter(fields))
        self.wait_for(context, f"document.querySelector('[name={first}]')")
        self.evaluate(context, f"""(() => {{
          for (const [name, value] of Object.entries({json.dumps(fields)})) document.querySelector(`[name=${{name}}]`).value = value;
          document.querySelector('button[type=submit]').click();
          return true;
        }})()""")

    def take_problems(self) -> list:
        problems, self.problems = self.problems, []
        return problems

    # -- lifetime ----------------------------------------------------------------------------

    def quit(self) -> None:
        try:
            self.send("browser.close", {}, timeout=10)
        except Exception:
            pass
        try:
            self._ws.close()
        except Exception:
            pass  # never connected, or already gone
        end_within(self.process, 20)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)
