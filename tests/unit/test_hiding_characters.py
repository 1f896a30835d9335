"""One list of the characters that hide words (issue 46, hole 2): page text loses them before the
model reads it (untrusted_content.py, Python) and an imported record that holds them hides
something (import-checks/unseen-text.js `hidesText`, JavaScript). Both are built from
tabagent/unseen.py HIDING, a part of UNSEEN (what is written out wherever the user is shown what
will run). Checked here character by character, at and around the edges of every range of
either list, by running both: the test fails the day one of them drifts from the other."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tabagent.app import untrusted_content
from tabagent.app.untrusted_content import untrusted, unmarked
from tabagent.unseen import HIDING, LONE_SHOWS, UNSEEN

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "extension" / "shared" / "import-checks" / "unseen-text.js"
CHECK = f"""
import {{ hidesText, shown, unshown }} from {json.dumps(MODULE.as_uri())};
let input = "";
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
process.stdout.write(JSON.stringify(texts.map((text) => [hidesText(text), unshown(shown(text)) === text])));
"""


def in_javascript(texts):
    done = subprocess.run([shutil.which("node"), "--input-type=module", "-e", CHECK], input=json.dumps(texts),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def edges():
    """Each code point at or next to an edge of a range of HIDING or UNSEEN (no lone surrogate:
    no text can carry one between Python and Node)."""
    points = set()
    for first, last in (*HIDING, *UNSEEN):
        points |= {first - 1, first, first + 1, last - 1, last, last + 1}
    return sorted(p for p in points if 0 < p <= 0x10FFFF and not 0xD800 <= p <= 0xDFFF)


def stripped_from_page_text(text: str) -> bool:
    return unmarked(untrusted("https://example.org/", text)) != text


def test_the_marking_strips_the_one_list():
    assert untrusted_content.HIDING == HIDING  # written out there, so that the file stands alone


def test_hiding_is_a_part_of_what_is_written_out():
    unseen = lambda p: any(first <= p <= last for first, last in UNSEEN)  # noqa: E731
    assert all(unseen(p) for first, last in HIDING for p in range(first, last + 1))
    assert tuple(LONE_SHOWS) in HIDING


def test_page_text_loses_exactly_what_an_imported_record_may_not_hold():
    points = edges()
    twice = [f"a{chr(p)}{chr(p)}b" for p in points]  # (twice: one variation selector alone hides nothing)
    javascript = in_javascript(twice)
    hiding = lambda p: any(first <= p <= last for first, last in HIDING)  # noqa: E731
    for point, text, (hides, round_trip) in zip(points, twice, javascript):
        assert hides == stripped_from_page_text(text) == hiding(point), hex(point)
        assert round_trip, hex(point)  # what the code box writes out, saving turns back
    assert len(points) > 100


def test_one_variation_selector_after_a_letter_hides_nothing_in_a_record():
    heart = "I ❤\ufe0f it"
    assert in_javascript([heart, heart.replace("\ufe0f", "\ufe0f\ufe0e")]) == [[False, True], [True, True]]
