"""MiniWoB++ episodes through the whole extension, with a scripted model playing the right
tool calls (tests/helpers/miniwob.py): a task of each kind the tools must express, scored by
the task page's own reward. The full benchmark, against a real model, is bench/bench_miniwob.py."""

import pytest

from tests.helpers.miniwob import episode, task_pages


pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("tool_calling")]  # the scripted model, tools on

# login-user and enter-password give a password in the task: the agent never types one (issue 39,
# hand-back), so enter-text stands for typing, and login-user is checked for that refusal.
TASKS = ["click-checkboxes", "choose-list", "click-tab-2", "enter-text", "click-dialog", "scroll-text"]


def miniwob_pages(_folder):
    """The task pages of the miniwob package, looked up when the site starts."""
    return task_pages()


SITE = miniwob_pages


@pytest.mark.parametrize("task", TASKS)
def test_a_scripted_episode_earns_the_task_s_reward(tabs, site, model, task):
    reward, why = episode(tabs, site, model, task, seed=7, scripted=True, timeout=60)
    assert reward > 0, why


def test_a_password_the_task_gives_is_not_typed_by_the_agent(tabs, site, model):
    """login-user's task text holds a password: the scripted model types it, type_text refuses
    the password field (the user types credentials in the tab), and the login fails."""
    reward, why = episode(tabs, site, model, "login-user", seed=7, scripted=True, timeout=60)
    assert reward <= 0, why
