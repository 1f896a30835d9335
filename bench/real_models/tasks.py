"""The real-model bench's tasks (bench/bench_real_models.py): 22 things a person asks of a page,
on the local pages in pages/, each judged by a check on the answer the agent gave or on what the
site was asked (a form sent, a link followed), never on how the agent got there.

Written before any agent ran them, and kept as written: a task no agent solves stays in the
table. Every agent gets the same sentence, with the pages' addresses after it (a fetching agent
has no tab to look at); TabAgent has the pages open in tabs as well, the first one in front.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

# A check: (the answer as text, the site's log of requests) -> whether the task was done.
Check = Callable[[str, "list[tuple[str, dict]]"], bool]


@dataclass(frozen=True)
class Task:
    id: str
    kind: str  # reading, conversion, form, menu, two tabs
    pages: tuple[str, ...]  # served from pages/; the first is the one the user is on
    question: str
    check: Check = field(repr=False)
    expected: str  # said in the table, for a reader

    def sentence(self, urls: list[str]) -> str:
        """What every agent is asked: the question, then where the pages are."""
        where = f"The page is {urls[0]}" if len(urls) == 1 else f"My open tabs are {' and '.join(urls)}"
        return f"{self.question} ({where}.)"


def _flat(text: str) -> str:
    return " ".join(str(text).lower().split())


def says(*words: str) -> Check:
    """The answer holds each of `words` (case and spacing aside)."""
    return lambda answer, _log: all(_flat(w) in _flat(answer) for w in words)


NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def numbers_in(text: str) -> list[float]:
    found = []
    for match in NUMBER.findall(str(text)):
        try:
            found.append(float(match.replace(",", "")))
        except ValueError:
            pass
    return found


# How TabAgent opens its own report of a turn that gave no answer (py/tabagent/agent.py's
# OUT_OF_STEPS, said_back.py's STOPPED and RAN_OUT): the numbers and words in it (the steps, how
# many times a tool was called) are not an answer, and passed a check once (kettle-capacity's 2).
NO_ANSWER = ("I ran out of steps (", "I stopped without an answer:")


def no_answer(answer: str) -> bool:
    """Whether `answer` is an agent's report that it gave none: then no check passes it."""
    return str(answer).lstrip().startswith(NO_ANSWER)


def says_number(value: float, within: float) -> Check:
    """The answer holds a number within `within` of `value`."""
    return lambda answer, _log: any(abs(n - value) <= within for n in numbers_in(answer))


def sent(path: str, **fields: str) -> Check:
    """The site was asked for `path` with these fields (each holding the value given, case aside)."""
    def check(_answer, log):
        return any(asked == path and all(_flat(want) in _flat(query.get(name, "")) for name, want in fields.items())
                   for asked, query in log)
    return check


def both(*checks: Check) -> Check:
    return lambda answer, log: all(check(answer, log) for check in checks)


TASKS = [
    # Reading
    Task("kettle-price", "reading", ("shop.html",), "How much does the blue enamel kettle cost?",
         says_number(24.50, 0.005), "£24.50"),
    Task("shop-address", "reading", ("shop.html",), "What is the shop's street address?",
         says("14 Quay Street"), "14 Quay Street"),
    Task("closed-day", "reading", ("shop.html",), "On which day of the week is the shop closed?",
         says("sunday"), "Sunday"),
    Task("article-author", "reading", ("article.html",), "Who wrote this article?",
         says("Morwenna Tregaskis"), "Morwenna Tregaskis"),
    Task("opening-date", "reading", ("article.html",), "On what date does the lighthouse's opening weekend start?",
         says("12", "april"), "12 April 2025"),
    Task("report-link", "reading", ("article.html",), "What is the address of the link to the annual report?",
         says("reports/harbour-trust-2024.pdf"), "…/reports/harbour-trust-2024.pdf"),
    Task("best-city", "reading", ("sales.html",), "Which city sold the most bikes in 2024?",
         says("lyon"), "Lyon"),
    Task("ingredient-count", "reading", ("recipe.html",), "How many ingredients does this recipe list?",
         says_number(6, 0), "6"),
    Task("delivery-ireland", "reading", ("faq.html",), "How long does delivery to Ireland take?",
         both(says_number(5, 0), says_number(7, 0)), "5 to 7 working days"),
    # Conversions and sums
    Task("flour-kg", "conversion", ("shop.html",), "How much does the flour sack weigh in kilograms?",
         says_number(2.268, 0.03), "2.27 kg"),
    Task("kettle-euros", "conversion", ("shop.html",),
         "What does the steel whistling kettle cost in euros, at this week's rate given on the page?",
         says_number(36.27, 0.05), "€36.27"),
    Task("oven-celsius", "conversion", ("recipe.html",), "What is the recipe's oven temperature in degrees Celsius?",
         says_number(177.5, 3), "176.7 °C (175–180 taken)"),
    Task("sales-total", "conversion", ("sales.html",), "How many bikes were sold in 2024 in all four cities together?",
         says_number(4864, 0), "4,864"),
    # Forms: judged by what the site was sent
    Task("newsletter", "form", ("shop.html",), "Subscribe me to this shop's newsletter with the email ada@example.org.",
         sent("/submit/newsletter", email="ada@example.org"), "newsletter form sent with ada@example.org"),
    Task("contact-billing", "form", ("contact.html",),
         "Send the shop a message about billing, in the name of Ada Lovelace, saying: Please send me a copy of my invoice.",
         sent("/submit/contact", name="Ada Lovelace", topic="billing", message="invoice"),
         "contact form sent: name, topic billing, the message"),
    Task("book-table", "form", ("booking.html",),
         "Book a table for 4 people on 14 June 2025, at a window seat, in the name of Ada Lovelace.",
         sent("/submit/booking", date="2025-06-14", people="4", window="yes", booker="Ada Lovelace"),
         "booking form sent with all four fields"),
    Task("search-teapot", "form", ("search.html",), "Search this shop for teapot and tell me how many results there are.",
         both(sent("/search", q="teapot"), says_number(3, 0)), "searched; 3 results"),
    # Menus, tabs in a page, links to follow
    Task("returns-days", "menu", ("shop.html",),
         "Using the shop's menu, find out within how many days I can return an unused item.",
         says_number(30, 0), "30 days (on the Returns policy page)"),
    Task("sign-out", "menu", ("shop.html",), "Sign me out of my account on this shop, using its Account menu.",
         sent("/signout"), "the Sign out item followed"),
    Task("kettle-capacity", "menu", ("specs.html",),
         "What is this kettle's capacity, according to its Specifications tab?",
         says_number(2.0, 0), "2.0 litres (in the Specifications tab)"),
    # Two tabs
    Task("cheaper-kettle", "two tabs", ("shop.html", "shop2.html"),
         "Which of my two open tabs sells the blue enamel kettle for less, and at what price?",
         both(says("quayside"), says_number(21.90, 0.005)), "Quayside Kettles, £21.90"),
    Task("teapot-stock", "two tabs", ("product-code.html", "stock.html"),
         "How many of the product on my first tab are in stock, according to the warehouse page in my other tab?",
         says_number(12, 0), "12"),
]
