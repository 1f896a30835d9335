"""Firefox: a long answer lexed a window at a time renders as one lex of the whole text
(the same texts and window sizes as tests/e2e/test_render_in_windows.py)."""

from __future__ import annotations

import json

from tests.helpers.render_windows import TEXTS, WINDOWS_AGAINST_WHOLE, window_sizes


def test_an_answer_rendered_in_windows_of_any_size_is_the_whole_answer(firefox):
    context = firefox.open_sidebar_page()
    for name, text in TEXTS.items():
        # The Chromium test's script, given its arguments as WebDriver classic would.
        call = f"new Promise((done) => (function () {{ {WINDOWS_AGAINST_WHOLE} }})({json.dumps(text)}, {json.dumps(window_sizes(text))}, done))"
        result = firefox.evaluate(context, call, timeout=120)
        assert result["count"] == 0, f"{name}: {result['count']} window sizes render otherwise, such as {result['differing']}"
        assert result["pwned"] is None
        assert result["later"] == 0 if name in ("reference", "open link") else result["later"] > 30, (name, result["later"])
