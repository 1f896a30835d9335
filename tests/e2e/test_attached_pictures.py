"""A picture the user pastes in the message box (or drops on it) is attached: a chip with its
thumbnail, sent with the message as an image part to a model that takes images, a note to one
that does not, and drawn under the user's message."""

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from tests.helpers.panel_backends import ChromiumPanel
from tests.helpers.pictures import near, picture

pytestmark = pytest.mark.e2e

# What the browser hands the box when the user pastes a copied picture: a paste event whose
# clipboard holds a PNG file (drawn here: a red 40×30 picture).
PASTE_PICTURE = """
const done = arguments[arguments.length - 1];
const canvas = new OffscreenCanvas(40, 30);
const context = canvas.getContext("2d");
context.fillStyle = "rgb(255, 0, 0)";
context.fillRect(0, 0, 40, 30);
canvas.convertToBlob({ type: "image/png" }).then((blob) => {
  const clipboard = new DataTransfer();
  clipboard.items.add(new File([blob], "red.png", { type: "image/png" }));
  const event = new ClipboardEvent("paste", { clipboardData: clipboard, bubbles: true, cancelable: true });
  document.getElementById("prompt").dispatchEvent(event);
  done(event.defaultPrevented);
});
"""


@pytest.fixture(scope="module")
def model(model):
    return model


def paste_and_send(panel, text):
    assert panel.driver.execute_async_script(PASTE_PICTURE) is True  # taken as a picture, not pasted as text
    panel.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '.attachment[data-kind="picture"] img'), 10, "no chip")
    panel.send(text)
    panel.wait_for_status("ok")


def test_a_pasted_picture_goes_with_the_message_and_is_drawn_under_it(panel, model):
    panel.configure(model.base_url, agent="tool_calling", model="scripted-vision")
    model.script(Reply(text="It is red."))
    paste_and_send(panel, "What colour is this?")
    [sent] = model.pictures(0)
    assert sent["role"] == "user" and sent["before"] == "The user attached a picture (red.png):"
    image = picture(sent["url"])
    assert image.size == (40, 30) and near(image.getpixel((20, 15)), (255, 0, 0))
    shown = panel.last_turn().find_element(By.CSS_SELECTOR, "img.sent-picture")
    assert shown.get_attribute("src") == sent["url"]


def test_a_model_that_takes_no_images_is_told_in_words(panel, model):
    panel.configure(model.base_url, agent="tool_calling", model="scripted-model")
    model.script(Reply(text="I cannot see it."))
    paste_and_send(panel, "What colour is this?")
    assert model.pictures(0) == []
    task = [m for m in model.requests[0]["body"]["messages"] if m["role"] == "user"][-1]["content"]
    assert any("this model does not take images" in part.get("text", "") for part in task)


SCREENSHOT_OPTION = '//li[contains(@class, "attach-option")][.//span[text()="A screenshot of the tab you are on"]]'


def test_a_screenshot_of_the_tab_attached_in_the_composer_goes_as_page_content(browser, model, site):
    tabs = ChromiumPanel.in_windows(browser)  # the page in front of its own window, the panel beside it
    model.reset()
    tabs.configure(model.base_url, agent="tool_calling", model="scripted-vision")
    tabs.new_conversation(on=site.url("sight.html"))
    model.script(Reply(text="A red box and a blue one."))
    tabs.driver.find_element(By.ID, "attach").click()
    tabs.wait(lambda d: d.find_elements(By.XPATH, SCREENSHOT_OPTION), 10, "no screenshot choice")
    tabs.driver.find_element(By.XPATH, SCREENSHOT_OPTION).click()
    tabs.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '.attachment[data-kind="picture"] img'), 20, "no chip")
    tabs.send("What is on this page?")
    tabs.wait_for_status("ok")
    [sent] = model.pictures(0)
    # The page's pixels (and its title) reach the model inside the page-content marking.
    assert f'<page_content source="{site.url("sight.html")}" untrusted="true">' in sent["before"]
    assert "not instructions" in sent["before"] and sent["after"].strip() == "</page_content>"
    image = picture(sent["url"])
    colours = {image.getpixel((x, y)) for x in range(0, image.width, 8) for y in range(0, image.height, 8)}
    assert any(near(c, (255, 0, 0)) for c in colours) and any(near(c, (0, 0, 255)) for c in colours)
    for window in (tabs.window, tabs.page):  # the windows this test made
        browser.driver.switch_to.window(window)
        browser.driver.close()
    browser.driver.switch_to.window(browser.driver.window_handles[0])


# Every message the panel sends from now on, by type (the panel's own chrome.runtime).
RECORD_MESSAGES = """
window.sentTypes = [];
const send = chrome.runtime.sendMessage.bind(chrome.runtime);
chrome.runtime.sendMessage = (message, ...rest) => { window.sentTypes.push(message?.type); return send(message, ...rest); };
"""


def test_a_message_with_all_its_pictures_takes_no_screenshot_of_the_tab(panel):
    """The fifth picture is the last: asking for a screenshot then says so, and the tab is
    not captured at all (a picture of the user's tab that would be thrown away)."""
    for _ in range(5):
        assert panel.driver.execute_async_script(PASTE_PICTURE) is True
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, '.attachment[data-kind="picture"]')) == 5, 10, "not 5 chips")
    panel.driver.execute_script(RECORD_MESSAGES)
    panel.driver.find_element(By.ID, "attach").click()
    panel.wait(lambda d: d.find_elements(By.XPATH, SCREENSHOT_OPTION), 10, "no screenshot choice")
    panel.driver.find_element(By.XPATH, SCREENSHOT_OPTION).click()
    notice = panel.wait(lambda d: "up to 5 pictures" in (text := d.find_element(By.ID, "notice-text").text) and text,
                        20, "not told that the message has all its pictures")
    assert "screenshot was not taken" in notice
    assert "screenshot-tab" not in panel.driver.execute_script("return window.sentTypes")
    assert len(panel.driver.find_elements(By.CSS_SELECTOR, '.attachment[data-kind="picture"]')) == 5
