"""The person at the panel, for turns run in CPython (tabagent.app.turns.Turns): answers each
question with the next of its answers, and each form with the next of its forms; a page tool
finds no page."""

from __future__ import annotations


class AnsweringPanel:
    """Answers questions and forms in order; remembers what it was asked and which forms it filled."""

    def __init__(self, *answers, forms=()):
        self.answers, self.forms = list(answers), list(forms)
        self.asked, self.filled = [], []

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        return {"ok": False, "error": "no page in this test"}

    async def confirm(self, id_, tool, message, details):
        self.asked.append((tool, message, details))
        return self.answers.pop(0)

    async def fill(self, id_):
        self.filled.append(id_)
        return self.forms.pop(0)
