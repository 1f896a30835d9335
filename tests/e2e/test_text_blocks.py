"""The innermost blocks of text (extension/content/text-blocks.js), which main-content-cleaning.js's rules
ask for after each change: the blocks that hold text and no block holding text, in document
order. Checked on a page made for it and, against the plain definition (each block's text and
each block inside it, asked in turn), on real pages."""

import json

import pytest

from tests.helpers.page_tools import PageTools


pytestmark = pytest.mark.e2e

KINDS = "p, li, h1, h2, h3, h4, h5, h6, td, th, dt, dd, blockquote, div, section, header, label, pre, figure"
BLOCKS = KINDS + ", table, ul, ol, dl, article, aside, main"
PLAIN_DEFINITION = f"""
((root) => [...root.querySelectorAll({json.dumps(KINDS)})].filter((el) => /\\S/.test(el.textContent)
  && ![...el.querySelectorAll({json.dumps(BLOCKS)})].some((inner) => /\\S/.test(inner.textContent))))
"""


def innermost(tools, root):
    return tools.evaluate(f"""(() => {{
      const ids = (els) => els.map((el) => el.id || el.localName);
      const root = {root};
      return {{ found: ids(TabAgentTest.textBlocks.innermostWithText(root, {json.dumps(KINDS)}, {json.dumps(BLOCKS)})),
                plain: ids({PLAIN_DEFINITION}(root)) }};
    }})()""")


def test_the_innermost_blocks_of_a_made_page(chromium, site):  # noqa: F811
    chromium.get(site.url("article.html"))
    tools = PageTools(chromium).inject()
    tools.evaluate("""document.body.innerHTML = `
      <div id="outer"><p id="p1">One</p><div id="loose"> <span>two</span> </div><div id="empty"> <p id="blank"> </p></div></div>
      <ul id="list"><li id="item">x<ul><li id="inner-item">y</li></ul></li></ul>
      <section id="section"><h4 id="heading">A heading that carries the text</h4></section>
      <article id="art"><span id="bare">text in an article, in no block of its own kind</span></article>`""")
    blocks = innermost(tools, "document.body")
    assert blocks["found"] == ["p1", "loose", "inner-item", "heading"] == blocks["plain"]
    assert innermost(tools, "document.getElementById('outer')")["found"] == ["p1", "loose"]


@pytest.mark.parametrize("name", ["wikipedia", "pixnet", "cnn", "blogger"])
def test_the_innermost_blocks_of_real_pages_are_those_of_the_plain_definition(chromium, corpus, name):  # noqa: F811
    chromium.get(corpus.url(f"{name}/source.html"))
    tools = PageTools(chromium).inject()
    assert len(innermost(tools, "document.body")["found"]) > 10
    for root in ["document.body", "document.body.cloneNode(true)", "document.querySelector('table, main, article') || document.body"]:
        blocks = innermost(tools, root)
        assert blocks["found"] == blocks["plain"], root


def test_in_a_copy_of_the_page_the_blocks_are_found_again_only_after_a_change(chromium, site):  # noqa: F811
    # read_page's line rules ask after each rule; most change nothing, and then the last answer
    # stands. Any change under the root (a block gone, text added, a text emptied) is seen.
    chromium.get(site.url("article.html"))
    tools = PageTools(chromium).inject()
    asked = tools.evaluate(f"""(() => {{
      const copy = document.cloneNode(true);
      copy.body.innerHTML = '<div id="a"><p id="p1">One</p><p id="p2">Two</p><p id="blank"> </p></div><ul><li id="i1">x</li></ul>';
      const walk = copy.createTreeWalker;
      let walks = 0;
      copy.createTreeWalker = (...args) => {{ walks++; return walk.apply(copy, args); }};
      const ask = () => {{
        const before = walks;
        const ids = TabAgentTest.textBlocks.innermostWithText(copy.body, {json.dumps(KINDS)}, {json.dumps(BLOCKS)}).map((el) => el.id);
        return {{ ids, walked: walks > before }};
      }};
      const answers = [ask(), ask()];
      answers[1].ids.reverse(); // (a caller's own list: the next answer is not changed by it)
      answers.push(ask());
      copy.getElementById("p2").remove();
      answers.push(ask());
      copy.getElementById("blank").firstChild.data = "Three";
      answers.push(ask());
      copy.getElementById("i1").firstChild.data = " ";
      answers.push(ask());
      return answers;
    }})()""")
    assert asked == [
        {"ids": ["p1", "p2", "i1"], "walked": True},
        {"ids": ["i1", "p2", "p1"], "walked": False},
        {"ids": ["p1", "p2", "i1"], "walked": False},
        {"ids": ["p1", "i1"], "walked": True},
        {"ids": ["p1", "blank", "i1"], "walked": True},
        {"ids": ["p1", "blank"], "walked": True},
    ]
