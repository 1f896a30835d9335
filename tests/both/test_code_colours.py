"""Code in an answer, shown before highlight.js has arrived (the panel imports it when a block of
code is first shown, not when it opens: sidepanel/code-colours.js, tests/unit/test_panel_start_graph.py).
The block is its exact text at once, in the same task, uncoloured; once highlight.js is here it
is coloured, and ends exactly as a block rendered after highlight.js came: an answer rendered
whole, one streamed a piece at a time, and the code a CodeAgent ran."""

from __future__ import annotations

import json

ANSWER = "Here is the function:\n\n```python\ndef total(rows):\n    return sum(row['price'] for row in rows)  # all of them\n```\n\nDone."
CODE = "import json\nprint(json.dumps({'a': 1}))"

SHOW_BEFORE_AND_AFTER = """(async () => {
  const url = (path) => chrome.runtime.getURL(`extension/sidepanel/${path}`);
  const { LiveMarkdown, codeBlock, renderMarkdown } = await import(url("markdown.js"));
  const { codeColoured } = await import(url("code-colours.js"));
  const [answer, code] = ANSWER_AND_CODE;
  const shown = (element) => {
    const copy = element.cloneNode(true);
    for (const tail of copy.querySelectorAll(".markdown-tail")) tail.replaceWith(...tail.childNodes);
    return copy.innerHTML;
  };
  const box = (name) => document.querySelector("#conversation").appendChild(
    Object.assign(document.createElement("div"), { className: `message assistant markdown ${name}` }));
  const whole = box("whole");
  renderMarkdown(whole, answer);
  const live = box("live");
  const streaming = new LiveMarkdown(live);
  for (const piece of answer.match(/[\\s\\S]{1,7}/g)) streaming.append(piece);
  const ran = box("ran");
  ran.append(codeBlock(code));
  // What the user sees at once, before highlight.js is here:
  const before = {
    texts: [whole, live, ran].map((element) => [...element.querySelectorAll("pre code")].map((c) => c.textContent)),
    coloured: document.querySelectorAll("#conversation [class^='hljs-']").length,
  };
  const arrived = await codeColoured();
  // Rendered again now that highlight.js is here: what every block must have become.
  const again = document.createElement("div");
  renderMarkdown(again, answer);
  const ranAgain = codeBlock(code);
  return {
    before, arrived,
    sameAsRenderedAfter: [shown(whole) === again.innerHTML, shown(live) === again.innerHTML, ran.innerHTML === ranAgain.outerHTML],
    keywords: [...whole.querySelectorAll("code .hljs-keyword")].map((k) => k.textContent),
    ranKeywords: [...ran.querySelectorAll("code .hljs-keyword")].map((k) => k.textContent),
  };
})()"""


def test_code_shown_before_highlight_js_arrives_is_its_text_then_coloured_as_ever(panel):
    result = panel.run(SHOW_BEFORE_AND_AFTER.replace("ANSWER_AND_CODE", json.dumps([ANSWER, CODE])))
    code_text = "def total(rows):\n    return sum(row['price'] for row in rows)  # all of them\n"
    assert result["before"] == {"texts": [[code_text], [code_text], [CODE]], "coloured": 0}
    assert result["arrived"] is True
    assert result["sameAsRenderedAfter"] == [True, True, True]
    assert result["keywords"] == ["def", "return", "for", "in"] and result["ranKeywords"] == ["import"]
    panel.screenshot("code-coloured-after-highlight-js-arrived")
