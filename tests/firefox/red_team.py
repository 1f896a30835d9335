"""What the Firefox red-team tests share: running code exactly where a compromised content
script of TabAgent's runs (its isolated world inside a web page)."""

from __future__ import annotations

import json


def as_content_script(panel, tab_url: str, function_source: str, *args):
    """Runs `function_source` (an async function) in TabAgent's content-script world of the tab
    showing `tab_url`, injected from the chat page of `panel` (a FirefoxPanel), and returns its value."""
    return panel.run(f"""(async () => {{
      const tab = (await chrome.tabs.query({{}})).find((t) => t.url === {json.dumps(tab_url)});
      if (!tab) throw new Error("no tab shows " + {json.dumps(tab_url)});
      const [frame] = await chrome.scripting.executeScript({{ target: {{ tabId: tab.id }}, world: "ISOLATED", func: {function_source},
                                                             args: {json.dumps(list(args))} }});
      if (frame.error) throw new Error("the content script failed: " + frame.error);
      return frame.result;
    }})()""")
