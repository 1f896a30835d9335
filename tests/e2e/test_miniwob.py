"""MiniWoB++ episodes through the whole extension, with a scripted model playing the right
tool calls (tests/helpers/miniwob.py): a task of each kind the tools must express, scored by
the task page's own reward. The full benchmark, against a real model, is bench/bench_miniwob.py."""

import pytest

from tests.helpers.miniwob import episode, task_pages
from tests.helpers.page_server import PageServer

from .chat import configure
from .page_tabs import PageTabs

pytestmark = pytest.mark.e2e

TASKS = ["click-checkboxes", "choose-list", "click-tab-2", "login-user", "click-dialog", "scroll-text"]


@pytest.fixture(scope="module")
def tabs(browser, model):
    tabs = PageTabs(browser)  # the panel is where settings are saved from
    configure(browser, model.base_url, agent="tool_calling")
    return tabs


@pytest.fixture(scope="module")
def site():
    with PageServer(task_pages()) as server:
        yield server


@pytest.mark.parametrize("task", TASKS)
def test_a_scripted_episode_earns_the_task_s_reward(tabs, site, model, task):
    reward, why = episode(tabs, site, model, task, seed=7, scripted=True, timeout=60)
    assert reward > 0, why
