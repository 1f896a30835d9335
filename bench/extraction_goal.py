"""Issue 24's goal for read_page on the 475-page set, row by row beside what was measured:
on the held-out half, F at least trafilatura's + 0.02 with neither precision nor recall below
trafilatura's; read live (scripts on) within 0.005 F of as served, on the pages whose scripts
stay; and the pages read_page nearly empties (recall under 0.5) where trafilatura or
Readability.js keeps 0.8 of the text. Dev pages of that kind are named; held-out ones only
counted, since that half stays unseen."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from tests.helpers.extraction_score import score, split_of, total  # noqa: E402

F_MARGIN = 0.02
LIVE_F_GAP = 0.005
EMPTIED, KEPT = 0.5, 0.8
OFF, ON, READABILITY = "read_page, scripts off", "read_page, scripts on", "Readability.js alone"


def _counts(texts, extractor, pages):
    return total(score(texts.get(extractor, {}).get(e["file"], ""), e["with"], e["without"]) for e in pages)


def emptied(pages, texts, trafilatura):
    """The pages read_page (as served) nearly empties where another extractor keeps the text."""
    found = []
    for e in pages:
        recall = {x: score(texts.get(x, {}).get(e["file"], ""), e["with"], e["without"]).recall for x in (OFF, trafilatura, READABILITY)}
        if recall[OFF] < EMPTIED and max(recall[trafilatura], recall[READABILITY]) >= KEPT:
            found.append(e["file"])
    return found


def goal_rows(pages, texts, trafilatura, left=()):
    """[(goal, measured, target, met)] for the rows above."""
    held_out = [e for e in pages if split_of(e["file"]) == "held-out"]
    rows = []
    if held_out:
        ours, theirs = _counts(texts, OFF, held_out), _counts(texts, trafilatura, held_out)
        rows.append(("held-out F", f"{ours.f:.3f}", f">= {theirs.f + F_MARGIN:.3f} (trafilatura {theirs.f:.3f} + {F_MARGIN})",
                     ours.f >= theirs.f + F_MARGIN))
        rows.append(("held-out precision", f"{ours.precision:.3f}", f">= {theirs.precision:.3f}", ours.precision >= theirs.precision))
        rows.append(("held-out recall", f"{ours.recall:.3f}", f">= {theirs.recall:.3f}", ours.recall >= theirs.recall))
    stayed = [e for e in pages if e["file"] not in left]
    if ON in texts:
        off, on = _counts(texts, OFF, stayed).f, _counts(texts, ON, stayed).f
        rows.append((f"F live vs as served ({len(stayed)} pages whose scripts stay)", f"{on:.3f} vs {off:.3f}",
                     f"within {LIVE_F_GAP}", abs(on - off) <= LIVE_F_GAP))
    lost = emptied(pages, texts, trafilatura)
    dev = [name for name in lost if split_of(name) == "dev"]
    unseen = len(lost) - len(dev)
    rows.append((f"pages under {EMPTIED} recall where another keeps {KEPT}", ", ".join(dev) or "none on dev",
                 "none", not lost))
    if held_out:
        rows[-1] = rows[-1][:1] + (f"{rows[-1][1]}; {unseen} on held-out (not named)",) + rows[-1][2:]
    return rows


def print_goal(pages, texts, trafilatura, left=()):
    print("\nIssue 24's goal:\n\n| goal | read_page | target | met |\n|---|---|---|---|")
    for goal, measured, target, met in goal_rows(pages, texts, trafilatura, left):
        print(f"| {goal} | {measured} | {target} | {'yes' if met else '**no**'} |")
