"""A CodeAgent turn in each browser: code that never ends is stopped by the timeout, said as an
error in the step, and the next step runs. The model's code reading the page: tests/e2e/
test_code_agent.py (Chromium), tests/firefox/test_code_agent.py (Firefox)."""

from __future__ import annotations

from tests.helpers.model_server import Reply


def test_code_that_never_ends_is_stopped_and_the_next_step_runs(panel, model):
    panel.configure(model.base_url, agent="code", max_steps=4, code_timeout=2)
    model.script(Reply(text="```python\nwhile True:\n    pass\n```"), Reply(text="```python\nfinal_answer('recovered')\n```"))
    panel.send("Spin forever")
    assert panel.wait_for_status("ok", "error", timeout=120) == "ok"
    (output, is_error), *_ = panel.code_outputs()
    assert output.startswith("Execution timed out after 2 s and was stopped.") and is_error, output
    assert panel.answer() == "recovered"
