"""Attaching tabs and files in the Chromium panel: a tab of the panel's window to attach,
the attach list's options, the chips of what is attached, and the task the model was sent."""

from __future__ import annotations

from selenium.webdriver.common.by import By


def open_page_tab(panel, url):
    """Opens `url` in a tab of the panel's window, then comes back to the panel."""
    back = panel.driver.current_window_handle
    panel.driver.switch_to.new_window("tab")
    panel.driver.get(url)
    handle = panel.driver.current_window_handle
    panel.driver.switch_to.window(back)
    # Back in the panel as a user would be: the message box has the focus (the tab switch's own
    # blur, arriving late on a busy machine, would otherwise close a list opened meanwhile).
    panel.wait(lambda d: d.execute_script("return document.hasFocus()"), 10, "the panel never got the focus back")
    panel.driver.find_element(By.ID, "prompt").click()
    return handle


def options(driver):
    box = driver.find_element(By.ID, "attach-options")
    return box.find_elements(By.CSS_SELECTOR, "[role=option]") if box.is_displayed() else []


def chips(driver):
    return [chip.find_element(By.CSS_SELECTOR, ".attachment-label").text
            for chip in driver.find_elements(By.CSS_SELECTOR, "#attachments .attachment")]


def sent_task(model):
    [request] = model.requests
    return [m["content"] for m in request["body"]["messages"] if m["role"] == "user"][-1]
