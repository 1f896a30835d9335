"""MiniWoB++ episodes through the whole extension (bench/bench_miniwob.py, tests/e2e/test_miniwob.py):
a task page from the `miniwob` package started with its seed, its sentence sent as the user's
message in the side panel, every confirmation answered "allow for this turn", the reward read
from the page when the turn ends. ORACLES are the right tool calls for some tasks, worked out
from the page as it was drawn, for a scripted model to play."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.e2e.chat import last_turn, send, turn_status
from tests.helpers.model_server import Reply

PUBLISHED = "BrowserGym (125 tasks × 5 seeds): GPT-4o 63.8 %, GPT-4o-mini 56.6 %"
EPISODE_MS = 10 * 60 * 1000  # the task's own timer would end a turn that waits for a model

# The right tool calls for each task, worked out from the page as it was drawn (the task's
# answer is in its DOM): a JavaScript function of the utterance returning [[tool, args], ...].
PATH = """const path = (el) => { const parts = []; for (let n = el; n && n.id !== 'wrap'; n = n.parentElement) {
  if (n.id) { parts.unshift('#' + CSS.escape(n.id)); break; }
  const same = [...n.parentElement.children].filter((c) => c.localName === n.localName);
  parts.unshift(n.localName + (same.length > 1 ? `:nth-of-type(${same.indexOf(n) + 1})` : '')); }
  return parts.join(' > '); };
const quoted = (u) => (u.match(/"([^"]*)"/) || [])[1];
const byText = (selector, text) => [...document.querySelectorAll(selector)].find((e) => e.textContent.trim() === text);"""
ORACLES = {
    "click-button": "[['click', {locator: path(byText('#area button', quoted(u)))}]]",
    "click-link": "[['click', {locator: path(byText('#area span.alink, #area a', quoted(u)))}]]",
    "click-checkboxes": """(() => { const wanted = u.replace(/^Select /, '').replace(/ and click Submit\\.$/, '').split(', ');
        return [...document.querySelectorAll('#boxes label')].filter((l) => wanted.includes(l.textContent.trim()))
          .map((l) => ['check', {locator: '#' + l.querySelector('input').id}]).concat([['click', {locator: '#subbtn'}]]); })()""",
    "click-option": """(() => { const wanted = u.replace(/^Select /, '').replace(/ and click Submit\\.$/, '');
        const label = [...document.querySelectorAll('#boxes label')].find((l) => l.textContent.trim() === wanted);
        return [['check', {locator: '#' + label.querySelector('input').id}], ['click', {locator: '#subbtn'}]]; })()""",
    "enter-text": "[['type_text', {locator: '#tt', text: quoted(u)}], ['click', {locator: '#subbtn'}]]",
    "enter-password": """[['type_text', {locator: '#password', text: quoted(u)}], ['type_text', {locator: '#verify', text: quoted(u)}],
        ['click', {locator: '#subbtn'}]]""",
    "login-user": """(() => { const [user, password] = [...u.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
        return [['type_text', {locator: '#username', text: user}], ['type_text', {locator: '#password', text: password}],
          ['click', {locator: '#subbtn'}]]; })()""",
    "focus-text": "[['click', {locator: '#tt'}]]",
    "choose-list": """[['select_option', {locator: '#options', option: u.replace(/^Select /, '').replace(/ from the list and click Submit\\.$/, '')}],
        ['click', {locator: path(byText('#area button', 'Submit'))}]]""",
    "click-tab": "[['click', {locator: `#area ul li:nth-of-type(${u.match(/#(\\d)/)[1]}) a`}]]",
    "click-tab-2": """(() => { const link = [...document.querySelectorAll('#area span.alink')].find((l) => l.textContent === quoted(u));
        const tab = link.closest('[id^="tabs-"]').id.split('-')[1];
        return [['click', {locator: `#area ul li:nth-of-type(${tab}) a`}], ['click', {locator: path(link)}]]; })()""",
    "click-dialog": "[['click', {locator: 'button.ui-dialog-titlebar-close'}]]",
    "click-collapsible": "[['click', {locator: '#area h3'}], ['click', {locator: '#subbtn'}]]",
    "scroll-text": """(() => { const words = document.getElementById('text-area').value.trim().split(/\\s+/);
        return [['scroll', {to: '#text-area'}], ['type_text', {locator: '#answer-input', text: words[words.length - 1].replace('.', '')}],
          ['click', {locator: '#subbtn'}]]; })()""",
}
START = """Math.seedrandom(arguments[0]); core.EPISODE_MAX_TIME = arguments[1]; core.startEpisodeReal();
return core.getUtterance();"""
REWARD = "return [WOB_RAW_REWARD_GLOBAL, WOB_DONE_GLOBAL, WOB_REWARD_REASON];"


def task_pages() -> Path:
    spec = importlib.util.find_spec("miniwob")
    if spec is None:
        raise SystemExit("bench_miniwob: the miniwob package is missing: make bench installs it (requirements-bench.txt)")
    return Path(spec.submodule_search_locations[0]) / "html"


def approve_until_done(tabs, timeout: float) -> str:
    """Answers each confirmation "allow for this turn" until the turn ends; its status."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = turn_status(tabs.driver)
        if status not in (None, "running"):
            return status
        turn = last_turn(tabs.driver)
        for box in turn.find_elements(By.CSS_SELECTOR, '.confirmation[data-state="asking"]') if turn else []:
            box.find_element(By.CSS_SELECTOR, 'button[data-decision="turn"]').click()
        time.sleep(0.05)
    tabs.driver.find_element(By.ID, "stop").click()
    return "timed out"


def episode(tabs, site, model, task: str, seed: int, scripted: bool, timeout: float) -> tuple[float, str]:
    tabs.show(site.url(f"miniwob/{task}.html"))
    utterance = tabs.in_page(START, seed, EPISODE_MS)
    if scripted:
        calls = tabs.in_page(f"const u = arguments[0]; {PATH} return {ORACLES[task]};", utterance)
        model.reset()
        model.script(*[Reply(tool_calls=[{"name": name, "arguments": args}]) for name, args in calls], Reply(text="Done."))
    tabs.driver.find_element(By.ID, "new-chat").click()
    send(tabs.browser, utterance)
    status = approve_until_done(tabs, timeout)
    reward, done, reason = tabs.in_page(REWARD)
    return (float(reward) if done else 0.0), status if not done else (reason or status)
