"""Qwen2.5-Coder-0.5B's replies as the CodeAgent on the real-model bench (bench/results/
real-models-rows.jsonl, the rows at 0964a2e, agent tabagent-code), as the rows keep them, and a
find_in_page for the tests that replay them."""

from tabagent import tool

KETTLE_FIRST = (
    "To find the cost of the blue enamel kettle, you can use the following Python code:\n\n```python\n"
    "found = read_page(page=1, max_tokens=None)\nprint(found)\n\n# Find the price of the blue enamel kettle\n"
    "price = found.find_in_page('blue enamel kettle', context_chars=80, case_sensitive=False).text.split('\\n')[2]\n"
    "print(price)\n```\n\nThis code first reads the page using `read_page()` and then finds the text about the "
    "blue enamel kettle in the page. It extracts the price from this text and prints it.")
KETTLE_AGAIN = (
    "To fix the code and try again, you need to ensure that the `find_in_page` method is called on a string "
    "object. Here's the corrected code:\n\n```python\nfound = read_page(page=1, max_tokens=None)\nprint(found)\n\n"
    "# Find the price of the blue enamel kettle in the page\n"
    "price = found.find_in_page('blue enamel kettle', context_chars=80, case_sensitive=False).text.split('\\n')[2]\n"
    "print(price)\n```\n\nThis code first reads the page using `read_page()` and then finds the text about the "
    "blue enamel kettle in the page. It extracts the price from this text and prints it.")
NEWSLETTER = ("To subscribe me to the shop's newsletter with the email ada@example.org, you can use the following "
              "code:\n\n```python\nfound = read_page()\nprint(found)\n```\n\nThis will print the Markdown content of "
              "the page.")
KETTLE = "What does the blue enamel kettle cost? (The page is http://127.0.0.1:46045/shop.html.)"
SUBSCRIBE = ("Subscribe me to the shop's newsletter with the email ada@example.org. "
             "(The page is http://127.0.0.1:46045/shop.html.)")


@tool
def find_in_page(query: str, context_chars: int = 80, case_sensitive: bool = False) -> str:
    """Finds a phrase on the page.

    Args:
        query: the phrase
        context_chars: how much text around it
        case_sensitive: whether case counts
    """
    return "Blue enamel kettle: £24.50"
