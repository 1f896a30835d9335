"""MiniWoB++ episodes through the whole extension, played by a scripted model that decides each
call from what the tools return (tests/helpers/miniwob_policies.py), scored by the task page's
own reward. The page is shown in front in its own window, the panel in another, as a side panel
sits beside the page, so it can be pictured. The full benchmark is bench/bench_miniwob.py."""

import pytest

from tests.helpers.miniwob_episode import episode, task_pages
from tests.helpers.miniwob_policies import POLICIES
from tests.helpers.tool_model import Call, ToolModel


pytestmark = pytest.mark.e2e

# A task of each kind the tools express today: boxes by name, a list, typing, a dialog, a table
# read on the page, a number found from the page's feedback over several turns.
TASKS = ["click-checkboxes", "choose-list", "enter-text", "click-dialog", "read-table", "guess-number"]


def miniwob_pages(_folder):
    """The task pages of the miniwob package, looked up when the site starts."""
    return task_pages()


SITE = miniwob_pages
IN_WINDOWS = True  # `tabs`: the task page in front in its own window, so that it can be pictured


@pytest.fixture(scope="module")
def player(browser, tabs):
    with ToolModel() as model:
        settings = {"provider": "custom", "base_url": model.base_url, "model": "scripted-vision", "agent": "tool_calling", "max_steps": 30, "tool_set": "full"}
        tabs.ask_background("save-settings", settings=settings, apiKey="sk-test")
        yield model


@pytest.mark.parametrize("task", TASKS)
def test_a_scripted_episode_earns_the_task_s_reward(tabs, site, player, task):
    reward, why = episode(tabs, site, player, task, seed=7, scripted=True, timeout=60)
    assert reward > 0, f"{why}\n" + "\n".join(player.transcript)


def test_the_task_page_is_pictured_as_a_user_sees_it(tabs, site, player, monkeypatch):
    """A screenshot in an episode is of the task page (the page is the tab shown in its window)."""
    seen = []

    def look(task, can):
        seen.append((yield Call("screenshot")))

    monkeypatch.setitem(POLICIES, "click-color", look)
    episode(tabs, site, player, "click-color", seed=7, scripted=True, timeout=60)
    [said] = seen
    assert len(said.pictures) == 1, said.text
    assert said.pictures[0].width > 100 and "A screenshot of the visible part of the page" in said.text


def test_a_password_the_task_gives_is_handed_back_to_the_user(tabs, site, player):
    """login-user's task text holds a password: type_text refuses the password field and says to
    hand the login back to the user (ask_user(login=True)); the task is not done by the agent."""
    reward, why = episode(tabs, site, player, "login-user", seed=7, scripted=True, timeout=60)
    assert reward <= 0 and why.startswith("gave up: hand-back"), why
