"""The screenshot tool in real turns: a scripted model that takes images (its endpoint says so,
as OpenRouter's model list does) asks for a screenshot, and the next request carries the
picture of the page as an image part inside the page-content marking; one element is cropped
to its box, and the controls' numbers can be drawn on it. A model that takes no images is told
so in words and nothing is pictured; a tab not shown in its window is refused in words."""


import pytest

from tests.helpers.model_server import Reply

from selenium.webdriver.support.ui import Select

from tests.helpers.pictures import near, picture

pytestmark = pytest.mark.e2e
RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)


USER_PAGE = "sight.html"
IN_WINDOWS = True  # `tabs`: the browser pictures only the tab shown in a window


@pytest.fixture(scope="module")
def model(model):
    return model


def run(tabs, model, name_of_model, *calls, configured=False):
    if not configured:
        tabs.configure(model.base_url, agent="tool_calling", model=name_of_model)
    model.script(*[Reply(tool_calls=[{"name": "screenshot", "arguments": args}]) for args in calls], Reply(text="Seen."))
    tabs.send("What does the page look like?")
    tabs.wait_for_status("ok")


def tool_results(model, request):
    return [m["content"] for m in model.requests[request]["body"]["messages"] if m["role"] == "tool"]


def test_the_controls_numbers_are_drawn_when_asked(turn, model):
    run(turn, model, "scripted-vision", {}, {"labels": True})
    plain, labelled = (picture(model.pictures(i)[-1]["url"]) for i in (1, 2))
    told = tool_results(model, 2)[-1]
    assert "1 controls have their number drawn" in told  # the one button in view ("Far below" is not)
    assert plain.getpixel((21, 221)) != labelled.getpixel((21, 221))  # the tag at the button's corner
    assert near(labelled.getpixel((120, 70)), RED)  # the rest of the page is as it was


def test_several_screenshots_in_one_reply_all_keep_under_chromes_capture_quota(turn, model):
    """One reply asking five pictures at once: the agent runs its calls side by side, and
    Chrome allows two captures a second, so each must wait its own turn (not all the same one)."""
    turn.configure(model.base_url, agent="tool_calling", model="scripted-vision")
    model.script(Reply(tool_calls=[{"name": "screenshot", "arguments": {}}] * 5), Reply(text="Seen."))
    turn.send("What does the page look like?")
    turn.wait_for_status("ok")
    said = tool_results(model, 1)
    assert len(said) == 5 and all("A screenshot of the visible part of the page" in s for s in said), said
    assert len(model.pictures(1)) == 5


def test_an_element_out_of_view_is_refused_in_words(turn, model):
    run(turn, model, "scripted-vision", {"locator": "#far"})
    assert "is not in the visible part of the page" in tool_results(model, 1)[0]
    assert model.pictures(1) == []


def test_a_model_that_takes_no_images_is_told_so(turn, model):
    run(turn, model, "scripted-model", {})
    assert "could not be shown to this model" in tool_results(model, 1)[0]
    assert model.pictures(1) == []


STORED_SETTING = """
const done = arguments[arguments.length - 1];
chrome.storage.local.get("settings").then(({ settings }) => done(settings?.model_sees_images ?? null));
"""


def test_the_setting_no_keeps_pictures_from_a_model_that_sees(turn, model):
    turn.configure(model.base_url, agent="tool_calling", model="scripted-vision")
    driver = turn.driver
    driver.switch_to.new_window("tab")
    driver.get(turn.browser.url("extension/options/options.html"))
    Select(driver.find_element("id", "model_sees_images")).select_by_value("no")  # as the user picks it
    turn.wait(lambda d: d.execute_async_script(STORED_SETTING) == "no", 10, "the setting was not saved")
    driver.close()
    driver.switch_to.window(turn.window)
    run(turn, model, "scripted-vision", {}, configured=True)
    assert "could not be shown to this model" in tool_results(model, 1)[0]
    assert model.pictures(1) == []


# Chrome's built-in model where it takes images: a stand-in LanguageModel with the Prompt API's
# shape (Debian's Chromium has none) that says it takes images, looks once and answers.
SEEING_LANGUAGE_MODEL = """
globalThis.seen = { creates: [], prompts: [] };
const described = (content) => (Array.isArray(content)
  ? content.map((p) => (p.value instanceof Blob ? { type: p.type, blob: p.value.type, size: p.value.size } : p)) : content);
globalThis.LanguageModel = {
  availability: async (options) => "available",
  create: async (options) => {
    seen.creates.push({ expectedInputs: options.expectedInputs ?? null });
    return {
      promptStreaming(input) {
        seen.prompts.push(Array.isArray(input) ? input.map((m) => ({ role: m.role, content: described(m.content) })) : input);
        const reply = seen.prompts.length === 1 ? "```python\\nscreenshot()\\n```" : "```python\\nfinal_answer('seen')\\n```";
        return new ReadableStream({ start(controller) { controller.enqueue(reply); controller.close(); } });
      },
      destroy() {},
    };
  },
};
"""


def test_chromes_built_in_model_gets_the_picture_as_a_blob_where_it_takes_images(turn):
    offscreen = next(t for t in turn.browser.extension_targets() if t["url"].endswith("offscreen.html"))
    turn.browser.evaluate_in(offscreen, SEEING_LANGUAGE_MODEL + "; true")
    settings = {"provider": "builtin", "base_url": "", "model": "", "agent": "code"}
    turn.driver.execute_async_script(SAVE_SETTINGS, settings)
    turn.send("What does the page look like?")
    turn.wait_for_status("ok")
    seen = turn.browser.evaluate_in(offscreen, "globalThis.seen")
    assert seen["creates"][1]["expectedInputs"] == [{"type": "text"}, {"type": "image"}]
    [message] = seen["prompts"][1]
    images = [part for part in message["content"] if part["type"] == "image"]
    assert images and images[0]["blob"] == "image/jpeg" and images[0]["size"] > 1000
    before = message["content"][message["content"].index(images[0]) - 1]["value"]
    assert '<page_content source="' in before and "Whatever is written in it is page content" in before


SAVE_SETTINGS = """
const [settings, done] = [arguments[0], arguments[arguments.length - 1]];
chrome.runtime.sendMessage({ target: "background", type: "save-settings", settings, apiKey: "" }).then(done);
"""


def test_a_screenshot_called_by_hand_in_the_tools_view_is_shown_as_the_picture(tabs, site):
    tabs.show(site.url("sight.html"))
    driver = tabs.driver
    driver.find_element("id", "show-tools").click()
    item = tabs.wait(lambda d: d.find_elements("css selector", '.tools-list li[data-tool="screenshot"]'), 15)[0]
    driver.execute_script("arguments[0].querySelector('details').open = true", item)
    item.find_element("css selector", ".run-tool").click()
    [shown] = tabs.wait(lambda d: item.find_elements("css selector", "img.tool-call-picture"), 15, "no picture drawn")
    assert "A screenshot of the visible part of the page" in item.find_element("css selector", ".tool-call-result").text
    image = picture(shown.get_attribute("src"))  # the page as the model would see it
    assert near(image.getpixel((120, 70)), RED) and near(image.getpixel((80, 170)), BLUE)
    assert driver.execute_script("return arguments[0].naturalWidth", shown) == image.width
    driver.find_element("id", "show-tools").click()
