"""Runs tests/pyodide/cases_*.py inside Pyodide under Node.js, one pytest test per case.

Node runs once for the module (runner.mjs prints one JSON line per case); each case
then becomes its own test here. Case names are read from the case files with `ast`,
so collection needs no node. The same cases also run in CPython, to show that both
interpreters behave the same. A missing node or Pyodide is a failure, not a skip:
these tests are the proof that the agent works in the interpreter it ships in.
"""

import ast
import importlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUNNER = HERE / "runner.mjs"


def case_ids() -> list[str]:
    ids = []
    for path in sorted(HERE.glob("cases_*.py")):
        tree = ast.parse(path.read_text(), str(path))
        ids += [f"{path.name}::{node.name}" for node in tree.body
                if isinstance(node, ast.AsyncFunctionDef) and node.name.startswith("test_")]
    return ids


CASES = case_ids()


@pytest.fixture(scope="module")
def mcp_relay():
    """A resumable MCP server (of the handshake era: a session's streams carry event ids) behind
    a relay that cuts the stream of a call once, after its
    first progress event (cases_mcp.py); the relay's address, and how many cuts it made."""
    from tests.helpers.mcp_server import MCPTestServer
    from tests.helpers.relay import Relay

    with MCPTestServer(resumable=True, handshake_only=True) as running, Relay(running.port, cut_after=b"notifications/progress",
                                                         times=1000) as relay:
        yield relay


@pytest.fixture(scope="module")
def fastmcp_tasks():
    """A stateless FastMCP 4 server whose long tool runs as a task (cases_mcp_tasks.py)."""
    from tests.helpers.fastmcp_server import FastMCPServer

    with FastMCPServer(stateless=True) as running:
        yield running


@pytest.fixture(scope="module")
def pyodide_results(server, mcp, mcp_relay, fastmcp_tasks):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to run the Pyodide tests")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` at the repository root")
    process = subprocess.run([node, str(RUNNER), "--server", server.url, "--mcp", mcp.url,
                              "--mcp-relay", mcp_relay.url("/mcp"), "--fastmcp", fastmcp_tasks.url], cwd=ROOT,
                             capture_output=True, text=True, timeout=240)
    results = {}
    for line in process.stdout.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            results[result["case"]] = result
    return results, process


@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", CASES)
def test_in_pyodide(pyodide_results, case):
    results, process = pyodide_results
    if case not in results:
        pytest.fail(f"{case} did not report (node exited with {process.returncode}):\n"
                    f"{process.stderr[-4000:]}", pytrace=False)
    if not results[case]["ok"]:
        pytest.fail(f"{case} failed in Pyodide:\n{results[case]['error']}", pytrace=False)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", CASES)
async def test_in_cpython(server, mcp, mcp_relay, fastmcp_tasks, monkeypatch, case):
    monkeypatch.setenv("TABAGENT_TEST_SERVER", server.url)
    monkeypatch.setenv("TABAGENT_FASTMCP_SERVER", fastmcp_tasks.url)
    monkeypatch.setenv("TABAGENT_MCP_SERVER", mcp.url)
    monkeypatch.setenv("TABAGENT_MCP_RELAY", mcp_relay.url("/mcp"))
    file, name = case.split("::")
    await getattr(importlib.import_module(file.removesuffix(".py")), name)()


def test_every_case_ran_in_pyodide(pyodide_results):
    results, process = pyodide_results
    assert sorted(results) == sorted(CASES), process.stderr[-4000:]
    assert process.returncode == 0, process.stderr[-4000:]
