"""The lexicon of read_page's boilerplate rules (extension/content/lexicon.js) is data: every
list's entries name the kind of page they are for and give their phrases per language, and
every phrase is a valid fragment of a regular expression on its own."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = {"en", "de", "fr", "es", "it", "nl", "pt", "any", "agencies"}

DUMP = """
import { words, phrases } from "./extension/content/lexicon.js";
console.log(JSON.stringify({ words: Object.fromEntries(Object.entries(words).map(([k, v]) => [k, [...v]])), phrases }));
"""


@pytest.fixture(scope="module")
def lexicon():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", DUMP], capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    return json.loads(done.stdout)


def test_every_entry_names_a_kind_of_page_and_its_languages(lexicon):
    assert lexicon["phrases"], "no phrase lists"
    for name, entries in lexicon["phrases"].items():
        for entry in entries:
            kind = entry.pop("kind", "")
            assert len(kind.split()) >= 2, f"{name}: an entry without the kind of page it is for"
            assert entry and set(entry) <= LANGUAGES, f"{name} ({kind}): languages {sorted(entry)}"
            assert all(phrases and all(isinstance(p, str) and p for p in phrases) for phrases in entry.values())


def test_every_phrase_compiles_alone(lexicon):
    phrases = [p for entries in lexicon["phrases"].values() for e in entries for k, ps in e.items() if k != "kind" for p in ps]
    check = "const bad = JSON.parse(require('fs').readFileSync(0, 'utf8')).filter((p) => { try { new RegExp(p, 'iu'); return false; } catch { return true; } }); console.log(JSON.stringify(bad));"
    done = subprocess.run([shutil.which("node"), "-e", check], input=json.dumps(phrases), capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == []


def test_the_layout_words_are_boilerplate_words_that_prose_can_outweigh(lexicon):
    words = lexicon["words"]
    assert set(words["layout"]) <= set(words["boilerplate"])
    assert not set(words["layout"]) & {"comment", "comments", "share", "cookie", "nav", "footer"}
