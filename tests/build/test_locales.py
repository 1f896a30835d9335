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
    used |= set(re.findall(r'title: "(menu\w+)"', (ROOT / "extension/shared/settings/quick-actions.js").read_text()))
    assert used, "no messages found: did the code stop using chrome.i18n?"
    assert sorted(used - set(english)) == []


# --- words shown to the user that skip chrome.i18n ---------------------------------------

from html.parser import HTMLParser  # noqa: E402

PAGES = [ROOT / "extension/sidepanel/sidepanel.html", ROOT / "extension/options/options.html"]
# Shown as they are in every language: names, symbols, and examples of what to type.
NOT_WORDS = {"TabAgent", "@", "×", "…", "https://…/v1"}
SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label")


class _ShownWords(HTMLParser):
    """(line, what) for each text or shown attribute of a page that no data-i18n replaces."""

    def __init__(self):
        super().__init__()
        self.open, self.found = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in SHOWN_ATTRIBUTES:
            value = (attrs.get(name) or "").strip()
            if value and value not in NOT_WORDS and f"data-i18n-{name}" not in attrs and not value.startswith("[{"):
                self.found.append((self.getpos()[0], f'{tag} {name}="{value}"'))
        if tag not in ("input", "meta", "link", "br", "img"):
            self.open.append("data-i18n" in attrs)

    def handle_endtag(self, tag):
        if tag not in ("input", "meta", "link", "br", "img") and self.open:
            self.open.pop()

    def handle_data(self, data):
        text = data.strip()
        if text and text not in NOT_WORDS and re.search(r"[A-Za-z]{2}", text) and not (self.open and self.open[-1]):
            self.found.append((self.getpos()[0], text))


def test_every_word_on_the_pages_comes_from_the_messages():
    for page in PAGES:
        parser = _ShownWords()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.found == [], f"{page.name}: give these a data-i18n key"


# Scripts that put words on screen. A sentence in quotes (a capital, then words, as people
# write them) or a shown attribute given a literal is a word that skipped t().
SCRIPTS = [*(ROOT / "extension/sidepanel").glob("*.js"), *(ROOT / "extension/options").glob("*.js"),
           ROOT / "extension/background/right-click-menu.js", ROOT / "extension/background/tab-tools.js",
           ROOT / "extension/shared/settings/settings.js", ROOT / "extension/shared/settings/connection.js",
           ROOT / "extension/shared/storage/export.js", ROOT / "extension/shared/storage/conversations.js"]
SENTENCE = re.compile(r"""(["'`])((?:[A-Z][a-z]+|[A-Z][a-z]*:)(?: [\w’'“”${}.,:()-]+){1,}[.…:]?)\1""")
# An attribute shown to the user set to a literal: { "aria-label": "…" }, { title: "…" },
# element.title = "…", setAttribute("title", "…").
LITERAL_ATTRIBUTE = re.compile(
    r"""(?:(?<![.\w-])["']?(?:aria-label|title|placeholder)["']?\s*:|\.(?:title|placeholder)\s*=(?!=)"""
    r"""|setAttribute\(\s*["'](?:aria-label|title|placeholder)["']\s*,)\s*(["'`])([^"'`]*[A-Za-z]{2}[^"'`]*)\1""")
# Words that are not the UI's: the console, names, CSS, the model's own words.
ALLOWED = {
    "TabAgent",  # the name, the context menu's top item
    "TabAgent: could not open the side panel:",  # the console, for developers
    "Bearer ${apiKey}",  # an HTTP header
    "New conversation",  # a stored title, data rather than the UI's words (before a first message names it)
}


def _without_comments(text):
    return re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)


def test_no_script_shows_words_that_skip_the_messages():
    found = []
    for path in SCRIPTS:
        text = _without_comments(path.read_text(encoding="utf-8"))
        for number, line in enumerate(text.splitlines(), 1):
            for match in [*SENTENCE.finditer(line), *LITERAL_ATTRIBUTE.finditer(line)]:
                words = match.group(2)
                if words not in ALLOWED and "${" not in words[:2]:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {words}")
    assert found == [], "show these through t() and _locales"
