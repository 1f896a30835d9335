"""The UI's words in _locales/: every language has every message the English one has, and
every message the code asks for exists."""

from __future__ import annotations

import json
import re

from tests.helpers.browser import ROOT

LOCALES = ROOT / "_locales"


def messages(language):
    return json.loads((LOCALES / language / "messages.json").read_text(encoding="utf-8"))


def test_german_is_complete_and_keeps_the_substitutions():
    english, german = messages("en"), messages("de")
    assert set(german) == set(english)
    for key, entry in english.items():
        assert german[key]["message"].strip(), key
        assert sorted(re.findall(r"\$\d", german[key]["message"])) == sorted(re.findall(r"\$\d", entry["message"])), key


def test_every_message_the_code_uses_exists():
    english = messages("en")
    used = set()
    for path in [*(ROOT / "extension").rglob("*.js"), *(ROOT / "extension").rglob("*.html")]:
        if "vendor" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"(\w+)\"", text))
        used |= {f"{key}{form}" for key in re.findall(r"\btn\(\"(\w+)\"", text) for form in ("One", "Many")}
        used |= set(re.findall(r"data-i18n(?:-[\w-]+)?=\"(\w+)\"", text))
    used |= set(re.findall(r"__MSG_(\w+)__", (ROOT / "manifest.json").read_text()))
    used |= set(re.findall(r'title: "(menu\w+)"', (ROOT / "extension/shared/quick-actions.js").read_text()))
    assert used, "no messages found: did the code stop using chrome.i18n?"
    assert sorted(used - set(english)) == []
