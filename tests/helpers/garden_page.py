"""The page of issue 48's answers in name only (tests/unit/test_answers_in_name_only.py), as read_page
gives it, marked; and the replies a scripted model gives about it, in each agent's manner."""

from __future__ import annotations

import json

from tabagent import ToolCallingAgent
from tabagent.app.page_tools import article_text
from tabagent.app.untrusted_content import untrusted
from tests.helpers.scripted_turns import calls

URL = "http://127.0.0.1:44369/garden.html"
MARKDOWN = ("# Hillside Garden Supplies\n\nGarden tools and compost since 1979. Visit us at 3 Mill Lane, Ashby.\n\n"
            "## This week\n\n| Item | Size | Price |\n|---|---|---|\n| Compost | 40 l | £9.45 |\n"
            "| Bark mulch | 50 l | £7.80 |\n\nOur compost comes in a bag that weighs 22 pounds.\n\n## Newsletter\n\n"
            "Email address\n\nSubscribe")
MARKED = untrusted(URL, article_text({"title": "Hillside Garden Supplies", "url": URL, "length": len(MARKDOWN),
                                      "page": 1, "pages": 1, "markdown": MARKDOWN}))


def read(agent_class):
    return calls(("read_page", {"page": 1, "max_tokens": 100000})) if agent_class is ToolCallingAgent \
        else "```python\nprint(read_page())\n```"


def answer(agent_class, text):
    if agent_class is ToolCallingAgent:
        return calls(("final_answer", {"answer": text}))
    return f"```python\nfinal_answer({text!r})\n```"


# kettle-price, f4ff431, the ToolCallingAgent: its last reply, as the row keeps its first 300
# characters: a final_answer written as text whose answer is read_page's whole result, JSON-escaped,
# cut at the output limit. Here with this file's page, cut after 700 characters.
def page_sent_back(marked=MARKED, cut=700):
    return ('{"name": "final_answer", "answer": ' + json.dumps(marked, ensure_ascii=False))[:cut]
