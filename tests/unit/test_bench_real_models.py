"""The real-model bench's own parts (bench/real_models/): each task's check takes a right outcome
and refuses a wrong one, the site logs what a form sends and answers a search, and the meter
reads a reply's text and passes requests on in the spelling llama-cpp-python's server takes."""

import importlib.util
import json
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from real_models.site import Site  # noqa: E402
from real_models.tasks import TASKS, no_answer  # noqa: E402

from tests.helpers.coverage_skip import skip_or_fail_in_ci  # noqa: E402

# A right outcome of each task, as an agent could give it: (answer, what the site was sent).
RIGHT = {
    "kettle-price": ("It costs £24.50.", []),
    "shop-address": ("14 Quay Street, Portwell, PW3 9QA", []),
    "closed-day": ("It is closed on Sundays.", []),
    "article-author": ("Morwenna Tregaskis wrote it.", []),
    "opening-date": ("Saturday 12 April 2025", []),
    "report-link": ("http://127.0.0.1:8000/reports/harbour-trust-2024.pdf", []),
    "best-city": ("Lyon, with 1,486 bikes.", []),
    "ingredient-count": ("6 ingredients", []),
    "delivery-ireland": ("5 to 7 working days", []),
    "flour-kg": ("About 2.27 kg.", []),
    "kettle-euros": ("€36.27", []),
    "oven-celsius": ("180 °C", []),
    "sales-total": ("4,864 bikes", []),
    "newsletter": ("Done.", [("/submit/newsletter", {"email": "ada@example.org"})]),
    "contact-billing": ("Sent.", [("/submit/contact", {"name": "Ada Lovelace", "topic": "billing",
                                                        "message": "Please send me a copy of my invoice."})]),
    "book-table": ("Booked.", [("/submit/booking", {"date": "2025-06-14", "people": "4", "window": "yes",
                                                     "booker": "Ada Lovelace"})]),
    "search-teapot": ("There are 3 results.", [("/search", {"q": "teapot"})]),
    "returns-days": ("Within 30 days of delivery.", []),
    "sign-out": ("You are signed out.", [("/signout", {})]),
    "kettle-capacity": ("2.0 litres", []),
    "cheaper-kettle": ("Quayside Kettles, at £21.90.", []),
    "teapot-stock": ("12 are in stock.", []),
}
WRONG = {
    "kettle-price": ("£31.00", []), "flour-kg": ("5 kg", []), "oven-celsius": ("350", []),
    "book-table": ("Booked.", [("/submit/booking", {"date": "2025-06-14", "people": "2", "booker": "Ada Lovelace"})]),
    "search-teapot": ("There are 3 results.", []),  # a guess: no search was made
    "cheaper-kettle": ("Harbour Kitchen Shop, £24.50", []),
}


def test_there_are_at_least_20_tasks_of_every_kind_asked_for():
    assert len(TASKS) >= 20 and len({t.id for t in TASKS}) == len(TASKS)
    assert {t.kind for t in TASKS} == {"reading", "conversion", "form", "menu", "two tabs"}
    pages = Path(__file__).resolve().parents[2] / "bench/real_models/pages"
    assert all((pages / page).is_file() for t in TASKS for page in t.pages)


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_each_check_takes_a_right_outcome_and_refuses_no_answer(task):
    answer, log = RIGHT[task.id]
    assert task.check(answer, log)
    assert not task.check("I could not find it.", [])
    if task.id in WRONG:
        assert not task.check(*WRONG[task.id])


def test_tabagents_report_of_no_answer_is_known_as_none():
    """kettle-capacity at 0964a2e passed its check with "I ran out of steps (8) ... find_in_page (2
    times)": the 2 was taken for the capacity. The bench knows TabAgent's own reports (read here
    from TabAgent, so a reworded one fails this test) and no check passes them."""
    from tabagent.agent import OUT_OF_STEPS, out_of_steps
    from tabagent.said_back import RAN_OUT, stopped
    reports = [out_of_steps(8, ["find_in_page", "find_in_page"], []), stopped("page", "read_page"),
               RAN_OUT.format(steps=8, what="the text read_page returned"), OUT_OF_STEPS.format(steps=8)]
    assert all(no_answer(report) for report in reports), reports
    assert not no_answer("It holds 2.0 litres.") and not no_answer("I ran out of milk (2 litres).")


def test_the_site_logs_a_form_and_answers_a_search():
    with Site() as site:
        with urllib.request.urlopen(site.url("search?q=teapot")) as response:
            page = response.read().decode()
        urllib.request.urlopen(site.url("submit/newsletter?email=ada%40example.org")).close()
        with urllib.request.urlopen(site.url("shop.html")) as response:
            assert b"Harbour Kitchen Shop" in response.read()
    assert "3 results" in page and page.count("<li>") == 3
    assert site.log == [("/search", {"q": "teapot"}), ("/submit/newsletter", {"email": "ada@example.org"})]


def test_the_meter_reads_replies_and_speaks_llama_cpps_spelling():
    if importlib.util.find_spec("llama_cpp") is None:  # the meter counts with llama-cpp-python's own template code
        skip_or_fail_in_ci("llama-cpp-python is not installed: run `make llama` (make test does, before these tests)")
    from real_models.meter import as_llama_cpp_takes_it, reply_text

    streamed = b"".join(f"data: {json.dumps({'choices': [{'delta': d}]})}\n\n".encode() for d in (
        {"role": "assistant", "content": "<tool_call>"}, {"content": '{"name": "x"}'},
        {"tool_calls": [{"function": {"name": "read_page", "arguments": "{}"}}]})) + b"data: [DONE]\n\n"
    assert reply_text(streamed) == '<tool_call>{"name": "x"}read_page{}'
    assert reply_text(json.dumps({"choices": [{"message": {"content": "Hello"}}]}).encode()) == "Hello"
    sent = as_llama_cpp_takes_it({"max_completion_tokens": 9, "response_format": {
        "type": "json_schema", "json_schema": {"name": "out", "schema": {"type": "object"}}}})
    assert sent == {"max_tokens": 9, "response_format": {"type": "json_object", "schema": {"type": "object"}}}
    assert as_llama_cpp_takes_it({"max_tokens": 5, "max_completion_tokens": 9})["max_tokens"] == 5


def test_the_meter_keeps_what_the_model_wrote_in_each_reply(monkeypatch):
    """A failed row says what the model wrote (a session could not tell why a turn stopped)."""
    if importlib.util.find_spec("llama_cpp") is None:
        skip_or_fail_in_ci("llama-cpp-python is not installed: run `make llama` (make test does, before these tests)")
    from real_models import meter

    class Counted:
        def __init__(self, gguf): pass
        def prompt(self, body): return 10
        def tokens(self, text): return len(text.split())

    monkeypatch.setattr(meter, "Counter", Counted)
    metered = meter.Meter("http://127.0.0.1:1", "model.gguf")
    try:
        metered.add({"messages": []}, json.dumps({"choices": [{"message": {"content": "The shop is closed"}}]}).encode())
        metered.add({"messages": []}, json.dumps({"choices": [{"message": {"content": "x" * 5000}}]}).encode())
        taken = metered.take()
        assert taken == {"requests": 2, "held": 0, "prompt_tokens": 20, "completion_tokens": 5,
                         "replies": ["The shop is closed", "x" * meter.REPLY_KEPT]}
        assert metered.take()["replies"] == []
    finally:
        metered._server.server_close()


def test_without_grammar_the_meter_says_the_server_cannot_hold_replies(monkeypatch):
    """The grammar comparison (issue 48): with grammar=False the places TabAgent asks whether the
    server can hold a reply answer 404 (the server is not asked); the rest passes; a request that
    asks for a held reply is counted either way."""
    if importlib.util.find_spec("llama_cpp") is None:
        skip_or_fail_in_ci("llama-cpp-python is not installed: run `make llama` (make test does, before these tests)")
    import http.server
    import threading
    import urllib.error

    from real_models import meter

    asked = []

    class Upstream(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append(self.path)
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    monkeypatch.setattr(meter, "Counter", lambda gguf: None)
    root = f"http://127.0.0.1:{upstream.server_address[1]}"
    try:
        for grammar, answers in ((True, [200, 200, 200]), (False, [404, 404, 200])):
            with meter.Meter(root, "model.gguf", grammar=grammar) as metered:
                base = metered.base_url.removesuffix("/v1")
                got = []
                for path in ("/openapi.json", "/props", "/v1/models"):
                    try:
                        got.append(urllib.request.urlopen(base + path, timeout=10).status)
                    except urllib.error.HTTPError as refused:
                        got.append(refused.code)
                assert got == answers, (grammar, got)
        assert asked == ["/openapi.json", "/props", "/v1/models", "/v1/models"]
    finally:
        upstream.shutdown()
        upstream.server_close()
    assert meter.held({"response_format": {"type": "json_object", "schema": {}}})
    assert meter.held({"tool_choice": "required"}) and meter.held({"grammar": "root ::= x"})
    assert not meter.held({"tool_choice": "auto", "response_format": {"type": "text"}}) and not meter.held({})


def test_rows_without_grammar_or_held_otherwise_are_their_own_columns(capsys):
    import bench_real_models as bench

    row = {"model": "m", "task": bench.TASKS[0].id, "success": True, "steps": 2, "prompt_tokens": 900,
           "completion_tokens": 100, "seconds": 30.0, "load": 1.0}
    bench.tables([{**row, "agent": "tabagent-tool", "held": 1},
                  {**row, "agent": "tabagent-tool", "grammar": False, "success": False},
                  {**row, "agent": "tabagent-tool", "hold_replies": "every_reply", "held": 2},
                  {**row, "agent": "smolagents-tool", "held": 2}], ["m"], bench.AGENTS)
    printed = capsys.readouterr().out
    assert "| tabagent-tool | tabagent-tool (held: every_reply) | tabagent-tool (no grammar) | smolagents-tool |" in printed
    assert "✓ 2 st, 1.0k tok, 30 s, 1 held | ✓ 2 st, 1.0k tok, 30 s, 2 held | ✗ 2 st, 1.0k tok, 30 s |" in printed


def test_run_directly_the_bench_builds_the_python_it_measures_before_any_model(monkeypatch):
    """Run as `python bench/bench_real_models.py`, not through make, the bench once measured a
    build hours older than the commit its rows named: it builds first, and only for TabAgent."""
    spec = importlib.util.spec_from_file_location("bench_real_models", ROOT / "bench" / "bench_real_models.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    done = []
    monkeypatch.setattr(bench.subprocess, "run", lambda command, **_: done.append(("build", Path(command[1]).name)))
    monkeypatch.setattr(bench, "missing", lambda model: None)
    monkeypatch.setattr(bench, "commit", lambda: "abc1234")
    monkeypatch.setattr(bench, "run_model", lambda model, agents, *_: done.append(("run", model, tuple(agents))))
    monkeypatch.setattr(bench, "tables", lambda *_: None)
    monkeypatch.setattr(bench, "kept_rows", lambda: [])
    for agents in (["tabagent-tool"], ["smolagents-tool"]):
        monkeypatch.setattr(sys, "argv", ["bench_real_models.py", "--model", "qwen2.5-coder-0.5b",
                                          *[a for agent in agents for a in ("--agent", agent)]])
        monkeypatch.setattr(bench, "PEERS_PYTHON", Path(sys.executable))
        bench.main()
    assert done == [("build", "build.py"), ("build", "browser_builds.py"), ("run", "qwen2.5-coder-0.5b", ("tabagent-tool",)),
                    ("run", "qwen2.5-coder-0.5b", ("smolagents-tool",))]
