"""A long article for the context-window tests: many paragraphs of plain, varied prose,
written into a folder the test serves."""

from __future__ import annotations

from pathlib import Path

SUBJECTS = ("The river", "A small bakery", "The old library", "Our town council", "The night train",
            "A mountain path", "The harbour crane", "A village school")
ACTIONS = ("opened again after the long winter", "was painted a bright shade of green",
           "welcomed visitors from three nearby valleys", "kept its records in wooden boxes",
           "changed its timetable twice in one year", "lost a roof tile in the autumn storm")


def write_long_article(folder: Path, paragraphs: int = 80) -> str:
    """Writes long-article.html (about 30,000 characters of text); returns its file name."""
    body = []
    for i in range(paragraphs):
        sentences = [f"{SUBJECTS[(i + k) % len(SUBJECTS)]} {ACTIONS[(i * 3 + k) % len(ACTIONS)]} "
                     f"in chapter {i + 1}, note {k + 1}." for k in range(6)]
        body.append(f"<p>{' '.join(sentences)}</p>")
        if i % 10 == 0:
            body.append(f"<h2>Part {i // 10 + 1}</h2>")
    html = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A long chronicle</title>"
            "</head><body><article><h1>A long chronicle</h1>" + "\n".join(body) + "</article></body></html>")
    (folder / "long-article.html").write_text(html, encoding="utf-8")
    return "long-article.html"
