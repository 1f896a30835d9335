"""The conversation history in the Chromium panel: its entries, showing it, an export as
Chrome downloads it, and a file imported into it."""

from __future__ import annotations

import json
import time
from pathlib import Path

from selenium.webdriver.common.by import By


EXPORT_FORMAT = "tabagent-conversations"


def history_entries(driver):
    return {b.text: b for b in driver.find_elements(By.CSS_SELECTOR, "#history-list .open")}


def show_history(panel):
    if not panel.driver.find_element(By.ID, "history").is_displayed():
        panel.driver.find_element(By.ID, "show-history").click()
    return panel.wait(lambda d: history_entries(d), 5)


def downloaded(folder: Path, suffix: str, timeout: float = 30) -> Path:
    """The file once Chrome has finished writing it. Chrome holds the final name with an empty
    file while it writes to a .crdownload beside it, then moves that over the empty one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        present = list(folder.iterdir())
        files = [f for f in present if f.suffix == suffix and f.stat().st_size > 0]
        if files and not any(f.suffix == ".crdownload" for f in present):
            return files[0]
        time.sleep(0.05)
    raise AssertionError(f"no {suffix} file was downloaded")


def import_file(panel, path):
    if not panel.driver.find_element(By.ID, "history").is_displayed():
        panel.driver.find_element(By.ID, "show-history").click()
    panel.driver.find_element(By.ID, "import-json").send_keys(str(path))


def notice(driver):
    return driver.find_element(By.ID, "notice-text").text


def write_export(path, records):
    path.write_text(json.dumps({"format": EXPORT_FORMAT, "version": 1, "conversations": records}), encoding="utf-8")
    return path
