"""What must keep working while the panel renders a streaming answer block by block: however
the answer is cut into tokens, the live rendering ends as the whole answer rendered at once
(the same elements, the same highlighted code), including a code block cut inside its fence,
its language, a line or a word."""

from __future__ import annotations

ANSWER = """Here is the plan, in **three** steps:

1. read the page;
2. find the `table`;
3. sum it.

```python
def total(rows):
    return sum(row["price"] for row in rows)
```

| item | price |
|---|---|
| tea | 3 |

> A quote, then code without a language:

```
plain text
```
Done."""

# Renders `answer` once whole and once live for each way of cutting it; returns the cuttings
# whose live result differs (the first few) and how many there were.
LIVE_AGAINST_WHOLE = """
const [answer, cuttings, done] = arguments;
import(chrome.runtime.getURL("extension/sidepanel/markdown.js")).then(async ({ LiveMarkdown, renderMarkdown }) => {
  // highlight.js comes with the first code shown (code-colours.js): here before the comparison.
  const { codeColoured } = await import(chrome.runtime.getURL("extension/sidepanel/code-colours.js"));
  renderMarkdown(document.createElement("div"), answer);
  await codeColoured();
  // The live view keeps its growing block in a wrapper of its own: compared without it.
  const html = (element) => {
    const copy = element.cloneNode(true);
    for (const tail of copy.querySelectorAll(".markdown-tail")) tail.replaceWith(...tail.childNodes);
    return copy.innerHTML;
  };
  const whole = document.createElement("div");
  renderMarkdown(whole, answer);
  const differing = cuttings.filter((pieces) => {
    const element = document.createElement("div");
    const live = new LiveMarkdown(element);
    for (const piece of pieces) live.append(piece);
    return html(element) !== whole.innerHTML;
  });
  done({ differing: differing.slice(0, 3), count: differing.length, code: whole.querySelectorAll("pre code .hljs-keyword").length });
});
"""


def cuttings(text: str) -> list[list[str]]:
    """The text a character at a time (every boundary at once), and cut in two at each place."""
    return [list(text)] + [[text[:at], text[at:]] for at in range(1, len(text))]


def test_a_streamed_answer_ends_as_the_whole_answer_rendered_however_it_was_cut(panel):
    panel.driver.set_script_timeout(120)
    result = panel.driver.execute_async_script(LIVE_AGAINST_WHOLE, ANSWER, cuttings(ANSWER))
    assert result["code"] >= 2, "the Python code was not highlighted"
    assert result["count"] == 0, f"{result['count']} cuttings render otherwise, such as {result['differing']}"
