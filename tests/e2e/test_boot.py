"""The extension loads, the offscreen document starts Python, the side panel says so."""

from __future__ import annotations

import json
import shutil
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.helpers.browser import ROOT, Browser

PING = """
const done = arguments[arguments.length - 1];
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(done, (e) => done({ ok: false, error: String(e) }));
"""


def wait_until_ready(browser, timeout=60):
    status = WebDriverWait(browser.driver, timeout).until(
        lambda d: (el := d.find_element(By.ID, "python-status")).get_attribute("data-ready") == "true" and el
    )
    return status


def test_side_panel_shows_python_ready(browser):
    browser.open_side_panel()
    status = wait_until_ready(browser)
    assert status.get_attribute("data-ready") == "true", status.text
    # Readiness shows only while Python is not ready; the versions are the tooltip of the
    # panel's name, which stays in sight.
    assert not status.is_displayed()
    name = browser.driver.find_element(By.CSS_SELECTOR, "header .title")
    assert name.is_displayed() and name.get_attribute("title").startswith("Python 3.14"), name.get_attribute("title")
    browser.screenshot("boot-ready")


def test_offscreen_reports_python_and_tabagent_versions(browser):
    browser.open_side_panel()
    reply = browser.driver.execute_async_script(PING)
    assert reply["ok"], reply
    info = reply["result"]
    assert info["ready"] is True
    assert info["pythonVersion"].startswith("3.14.")
    version = (ROOT / "py" / "tabagent" / "__init__.py").read_text().split('__version__ = "')[1].split('"')[0]
    assert info["tabagentVersion"] == version
    assert info["startupMs"] > 0
    # The moments of the start, in the order each context goes through them (bench/bench_boot.py
    # prints them). The document may be older than this life of the service worker.
    # The worker is started by the document's first module, before offscreen.js's has run
    # (tests/e2e/test_boot_order.py).
    for order in (["serviceWorkerStarted", "serviceWorkerModuleRan", "firstPing"],
                  ["documentStarted", "documentModuleRan", "ready"],
                  ["documentStarted", "workerStarted", "moduleRan", "pyodideLoaded", "ready"]):
        moments = [info["phases"][name] for name in order]
        assert moments == sorted(moments), dict(zip(order, moments))
    offscreen = browser.extension_targets()
    assert any(t["url"].endswith("extension/offscreen/offscreen.html") for t in offscreen), offscreen


def test_ping_answered_after_service_worker_is_stopped(browser):
    browser.open_side_panel()
    assert browser.driver.execute_async_script(PING)["ok"]
    browser.stop_service_worker()
    assert browser.service_worker_target() is None
    reply = browser.driver.execute_async_script(PING)
    assert reply["ok"], reply
    assert reply["result"]["pythonVersion"].startswith("3.14.")
    assert browser.service_worker_target() is not None


def test_offscreen_document_is_recreated_when_missing(browser):
    browser.open_side_panel()
    assert browser.driver.execute_async_script(PING)["ok"]
    closed = {t["targetId"] for t in browser.extension_targets() if t["url"].endswith("offscreen.html")}
    for target_id in closed:
        browser.cdp.send("Target.closeTarget", {"targetId": target_id})
    deadline = time.monotonic() + 10
    while closed & {t["targetId"] for t in browser.extension_targets()}:
        assert time.monotonic() < deadline, "offscreen document did not close"
        time.sleep(0.05)
    reply = browser.driver.execute_async_script(PING)
    assert reply["ok"], reply


def test_first_start_restores_the_build_snapshot(fresh_browser):
    browser = fresh_browser()
    browser.open_side_panel()
    reply = browser.driver.execute_async_script(PING)
    assert reply["ok"], reply
    assert reply["result"]["fromSnapshot"] is True, json.dumps(reply)


def test_snapshot_of_another_build_is_not_used(built_extension, tmp_path):
    """A snapshot made from another package must not be restored: Python starts plainly."""
    copy = tmp_path / "extension-copy"
    shutil.copytree(ROOT / "extension", copy / "extension")
    shutil.copy(ROOT / "manifest.json", copy / "manifest.json")
    shutil.copytree(ROOT / "_locales", copy / "_locales")
    sidecar = copy / "extension" / "vendor" / "python.snapshot.json"
    sidecar.write_text(json.dumps({"key": "314.0.7/not-this-package"}))
    browser = Browser(tmp_path / "profile").start(extension_dir=copy)
    try:
        browser.open_side_panel()
        reply = browser.driver.execute_async_script(PING)
        assert reply["ok"], reply
        assert reply["result"]["fromSnapshot"] is False
        assert reply["result"]["pythonVersion"].startswith("3.14.")
        problems = browser.take_problems()
        assert not problems, problems
    finally:
        browser.quit()


def test_chromes_package_starts_without_the_event_pages_modules(built_extension, tmp_path):
    """Chrome's package as users install it (scripts/browser_builds.py): the service worker's
    bundle, none of the modules of Firefox's event page. Its panel opens, its worker answers and
    starts Python, and nothing is missing (no console problem)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import browser_builds
    from manifests import chrome_manifest

    package = browser_builds.stage("chrome", chrome_manifest(json.loads((ROOT / "manifest.json").read_text())), tmp_path / "dist")
    assert not (package / "extension" / "background").exists() and (package / "extension" / "vendor" / "service-worker.js").is_file()
    browser = Browser(tmp_path / "profile").start(extension_dir=package)
    try:
        browser.open_side_panel()
        reply = browser.driver.execute_async_script(PING)
        assert reply["ok"], reply
        assert reply["result"]["pythonVersion"].startswith("3.14.")
        problems = browser.take_problems()
        assert not problems, problems
    finally:
        browser.quit()
