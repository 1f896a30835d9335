"""Answers rendered in windows of every size, each compared with the answer rendered whole."""

from __future__ import annotations

FENCES_AND_LISTS = """Intro paragraph with **bold**, `code` and https://example.com/bare.

```python
def f():

    return 1


x = f()
```

1. first item

2. second item, loose

   with a paragraph of its own

   - nested
   - list

3. third

- [ ] a task
- [x] done

    indented code

    after a blank line

Setext heading
==============

Last words."""


TABLES_AND_QUOTES = """| name | price |
|:-----|------:|
| tea  | 3     |
| cake | 4 \\| 5 |

> A quote
>
> > inside a quote
> > > three deep
>
> back out

Lazy
continuation line

> quoted
lazily continued

---

Euler: $e^{i\\pi} + 1 = 0$ and a block:

$$
\\frac{1}{2}
$$

Cost $$ is not math."""


HTML = """<div class="note">

A paragraph inside a div.

</div>

<pre>
pre text

with a blank line
</pre>

<script>window.pwned = 1</script>

<img src="x" onerror="window.pwned = 2"> an image that fails

<!-- a comment

over blank lines -->

<style>p { color: red }</style>

Text with <kbd>Ctrl</kbd> and <span onclick="window.pwned = 3">a span</span>.

<details><summary>More</summary>

Hidden text.

</details>"""


# Lexed whole: the link comes before its definition, and an HTML link left open keeps the
# bare address after it plain.
REFERENCE = """See [the docs][docs] for more.

Paragraph between.

[docs]: https://example.com/docs "Docs"
"""


OPEN_LINK = """An <a href="https://example.com/open">open link

Then a bare https://example.com/after address."""


TEXTS = {"fences and lists": FENCES_AND_LISTS, "tables and quotes": TABLES_AND_QUOTES, "html": HTML,
         "reference": REFERENCE, "open link": OPEN_LINK}


# Renders the text once whole and once in windows of each size; returns the sizes whose
# rendering differs, and whether the windows took more than one task.
WINDOWS_AGAINST_WHOLE = """
const [text, sizes, done] = arguments;
Promise.all([import(chrome.runtime.getURL("extension/sidepanel/markdown.js")),
             import(chrome.runtime.getURL("extension/sidepanel/code-colours.js"))]).then(async ([{ renderMarkdown }, { codeColoured }]) => {
  const box = () => document.querySelector("#conversation").appendChild(document.createElement("div"));
  // Settled: its formulas typeset, and its code coloured (highlight.js comes at the first block).
  const settled = async (element) => {
    while (element.querySelector(".math-pending")) await new Promise((resolve) => setTimeout(resolve, 20));
    await codeColoured();
    return element.innerHTML;
  };
  const whole = box();
  await renderMarkdown(whole, text, { first: Infinity, next: Infinity });
  const expected = await settled(whole);
  const differing = [];
  let later = 0; // renderings that went on after their first task
  for (const size of sizes) {
    const element = box();
    const rendering = renderMarkdown(element, text, { first: size, next: size });
    if (element.getAttribute("aria-busy")) later += 1;
    await rendering;
    if (await settled(element) !== expected) differing.push({ size, html: element.innerHTML });
  }
  done({ expected, differing: differing.slice(0, 2), count: differing.length, later, pwned: window.pwned ?? null });
});
"""


def window_sizes(text: str) -> list[int]:
    return [*range(1, 120, 3), *range(120, len(text) + 40, 11)]
