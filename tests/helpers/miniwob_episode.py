"""MiniWoB++ episodes through the whole extension (bench/bench_miniwob.py, tests/e2e/test_miniwob.py):
a task page from the `miniwob` package started with its seed, shown in front in its own window
(the panel in another, as a side panel sits beside the page, so the page can be pictured), its
sentence sent as the user's message, every confirmation answered "allow for this turn", the
reward read from the page when the turn ends. A scripted run plays miniwob_policies.py: calls
decided from what the tools return, never from the page."""

from __future__ import annotations

import importlib.metadata
import time
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.helpers.miniwob_controls import content
from tests.helpers.miniwob_policies import POLICIES

PUBLISHED = "BrowserGym (125 tasks × 5 seeds): GPT-4o 63.8 %, GPT-4o-mini 56.6 %"
EPISODE_MS = 10 * 60 * 1000  # the task's own timer would end a turn that waits for a model

START = """Math.seedrandom(arguments[0]); core.EPISODE_MAX_TIME = arguments[1]; core.startEpisodeReal();
return core.getUtterance();"""
REWARD = "return [WOB_RAW_REWARD_GLOBAL, WOB_DONE_GLOBAL, WOB_REWARD_REASON];"


def task_pages() -> Path:
    """The installed miniwob distribution's pages, found by its files, not by a module name that a
    folder on sys.path could shadow."""
    try:
        return Path(importlib.metadata.distribution("miniwob").locate_file("miniwob/html"))
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit("bench_miniwob: the miniwob package is missing: make bench installs it (requirements-bench.txt)") from None


def approve_until_done(tabs, timeout: float) -> str:
    """Answers each confirmation "allow for this turn" until the turn ends; its status."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = tabs.status()
        if status not in (None, "running"):
            return status
        turn = tabs.last_turn()
        for box in turn.find_elements(By.CSS_SELECTOR, '.confirmation[data-state="asking"]') if turn else []:
            box.find_element(By.CSS_SELECTOR, 'button[data-decision="turn"]').click()
        time.sleep(0.05)
    tabs.driver.find_element(By.ID, "stop").click()
    return "timed out"


def episode(tabs, site, model, task: str, seed: int, scripted: bool, timeout: float) -> tuple[float, str]:
    """(reward, why): the task's own reward (0 when it did not end), and what ended the turn."""
    tabs.show(site.url(f"miniwob/{task}.html"))
    utterance = tabs.in_page(START, seed, EPISODE_MS)
    if scripted:
        model.play(POLICIES[task])
    tabs.new_conversation()
    tabs.send(utterance)
    status = approve_until_done(tabs, timeout)
    reward, done, reason = tabs.in_page(REWARD)
    if scripted and model.gave_up:
        return (float(reward) if done else 0.0), f"gave up: {model.gave_up}"
    if scripted and not (done and reward > 0):
        said = " ".join(content(model.last_said).split())[:160]
        return (float(reward) if done else 0.0), f"not done; the last tool said: {said}"
    return (float(reward) if done else 0.0), status if not done else (reason or status)
