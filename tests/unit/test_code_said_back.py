"""The CodeAgent's own texts are TabAgent's ("ours", said_back.py): an answer that says one back is
no answer. Qwen2.5-Coder-0.5B answered with what it had just been told (issue 48's real-model
bench); the CodeAgent tells things the ToolCallingAgent never does, each a path of its own:
a definition of a tool left out or refused, a call or a block not run again, the sandbox's error
(and what works instead), and its prompt's own sentences. Each is said back here, word for word
as the model read it, and refused once; what the model or the user wrote into a note (its line of
code, the question) stays the model's to say.
"""

import pytest

from tabagent import CodeAgent, tool
from tabagent.said_back import SAID_BACK_OURS
from tabagent.testing import ScriptedModel
from tests.helpers.sandbox_said import SANDBOX_SAYS, SandboxPlayed

pytestmark = pytest.mark.timeout(30)

QUESTION = "What is 22 pounds in kilograms?"
RIGHT = "```python\nfinal_answer('9.98 kg')\n```"


@tool
def fetch(url: str) -> str:
    """Fetches a page.

    Args:
        url: the address
    """
    return "Compost, 40 litre bag: 22 pounds."


def answering(text: str) -> str:
    return f"```python\nfinal_answer({text!r})\n```"


def observation(model, n) -> str:
    return model.calls[n]["messages"][-1]["content"]


async def said_back_after(before: list[str], said: str, executor=None, note: str = SAID_BACK_OURS) -> ScriptedModel:
    """The model writes the code `before`, then answers with `said` (cut from what it was told
    last), then right: the answer saying it back is refused once, with `note`."""
    model = ScriptedModel([*before, answering(said), RIGHT])
    assert await CodeAgent(model, [fetch], executor=executor).run(QUESTION) == "9.98 kg"
    assert said in observation(model, len(before)) and note in observation(model, len(before) + 1)
    return model


async def test_the_notes_on_a_tool_defined_are_ours():
    await said_back_after(["```python\ndef fetch(url):\n    return 'made up'\n```"],
                          "Your code defines fetch, which the tools already are: they are ready to call, and code "
                          "that defines one would hide the real one, so nothing ran.")
    await said_back_after(["```python\ndef fetch(url):\n    return 'x'\n\nprint(fetch(url='https://shop.example/'))\n```"],
                          "Your definition of fetch was left out, not run: fetch is one of your tools already, and "
                          "the rest of your code ran with the real one.")


async def test_the_notes_on_a_call_and_a_block_not_run_again_are_ours():
    read = "```python\npage = fetch(url='https://shop.example/')\nprint(page)\n```"
    await said_back_after([read, read], "fetch(...) was called with the same arguments as in step 1 and nothing "
                                        "ran since, so it was not run again: the code got what it returned then.")
    await said_back_after([read, read, read], "You have written this same code 3 times, and it printed the same "
                                              "each time (first in step 1); nothing has acted since")


async def test_the_sandbox_s_error_and_what_works_instead_are_ours():
    install = "```python\nimport subprocess\nsubprocess.run(['pip','install','requests'])\n```"
    played = {"subprocess": SANDBOX_SAYS["subprocess"]}
    # The error itself, said back, is told what to write instead (the tools), not "do what it said".
    error = "Your answer repeats the error your code raised instead of answering the user's question"
    model = await said_back_after([install], "OSError: [Errno 138] emscripten does not support processes.",
                                  SandboxPlayed(played), note=error)
    assert "Do what it said" not in observation(model, 2) and "- fetch(url) -> str" in observation(model, 2)
    await said_back_after([install], "Your Python runs in a sandbox with the standard library and BeautifulSoup "
                                     "(bs4): no network, no installing", SandboxPlayed(played))
    await said_back_after([install, install], "The same code fails the same way each time, so do not write it "
                                              "again.", SandboxPlayed(played))


async def test_the_prompt_s_own_sentences_are_ours():
    model = ScriptedModel([answering("Print what you need; never guess a value you have not printed."), RIGHT])
    assert await CodeAgent(model, [fetch]).run(QUESTION) == "9.98 kg"
    assert SAID_BACK_OURS in observation(model, 1)


async def test_the_model_s_own_line_said_again_in_its_answer_is_the_answer():
    """A note quotes the line that failed; an answer the model wrote on that line is its own."""
    line = "final_answer(f'The compost bag weighs {kilograms} kg, which is about twenty two pounds')"
    model = ScriptedModel([f"```python\n{line}\n```",
                           answering("The compost bag weighs 9.98 kg, which is about twenty two pounds")])
    answer = await CodeAgent(model, [fetch]).run(QUESTION)
    assert answer == "The compost bag weighs 9.98 kg, which is about twenty two pounds"
    assert "NameError: name 'kilograms' is not defined" in observation(model, 1)
