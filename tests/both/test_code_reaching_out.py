"""Code reaching for what the sandbox has not (a module, the network, pip, a process: REACHING_OUT
of tests/helpers/sandbox.py), run as a CodeAgent's steps in each browser's sandbox (Chromium's
manifest sandbox page, Firefox's framed one): the error each gives is one code_repeats.py reads as
what cannot work here, and the CodeAgent in the browser tells the model so, with the tools that do.
A browser whose sandbox words one otherwise fails it. What both said is kept for the unit tests in
tests/helpers/sandbox_said.py."""

from __future__ import annotations

import sys

from tests.helpers.browser import ROOT
from tests.helpers.model_server import Reply
from tests.helpers.sandbox import REACHING_OUT


def test_code_reaching_for_the_network_or_an_install_fails_in_words_the_agent_reads_as_such(panel, model):
    if str(ROOT / "py") not in sys.path:
        sys.path.insert(0, str(ROOT / "py"))
    from tabagent.code_repeats import cannot_work_here, failure_in

    panel.configure(model.base_url, agent="code", max_steps=len(REACHING_OUT) + 1)
    model.script(*[Reply(text=f"```python\n{code}\n```") for code in REACHING_OUT],
                 Reply(text="```python\nfinal_answer('done')\n```"))
    panel.send("Read the shop's page")
    assert panel.wait_for_status("ok", "error", timeout=120) == "ok"
    outputs = panel.code_outputs()
    assert len(outputs) == len(REACHING_OUT) + 1, outputs
    for n, (code, (output, is_error)) in enumerate(zip(REACHING_OUT, outputs), 1):
        failure = failure_in(output)
        assert is_error and failure is not None and failure.line == code.splitlines()[-1], output
        assert cannot_work_here(failure, ["read_page"]), output  # as the unit tests read it
        told = model.requests[n]["body"]["messages"][-1]["content"]  # what the agent in the browser told the model
        assert "cannot work here" in told and "Call the tools instead" in told, told
    assert panel.answer() == "done"
