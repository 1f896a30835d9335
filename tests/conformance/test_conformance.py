"""The official MCP conformance suite (@modelcontextprotocol/conformance, an npm dev dependency,
run with the Node 22 of the `node` npm package): every scenario a revision requires of a
client, with TabAgent's client driven through the app's own paths (tabagent_client.py), in
both eras (2025-11-25 with the handshake, 2026-07-28 stateless), the two 2025-03-26 sign-in
scenarios, and the server scenarios that apply to TabAgent's MCP server (mcp-server/, behind
http_front.py). Each scenario runs in the suite's own runner (`--scenario`, at its revision's
wire), three at a time (the suite's `--requirements` starts them all at once, which a busy
two-core machine answers too slowly); each is then a test of its own, failing with the
suite's words for each check that failed.

Left out, and why, in docs/testing.md ("The MCP conformance suite").
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "node_modules" / "@modelcontextprotocol" / "conformance"
NODE = ROOT / "node_modules" / ".bin" / "node"  # Node 22, which the suite needs
CLIENT = f"{sys.executable} -m tests.conformance.tabagent_client"
REVISIONS = ("2025-11-25", "2026-07-28")
# The client scenarios a revision lists that do not apply to a client with a person at it, each
# an extension the revision does not score: machine-to-machine grants with no user to sign in
# (client credentials, a workload's JWT, an enterprise's identity assertion) and DPoP-bound tokens.
NOT_FOR_A_BROWSER = {"auth/client-credentials-jwt", "auth/client-credentials-basic",
                     "auth/enterprise-managed-authorization", "auth/dpop", "auth/dpop-nonce", "auth/wif-jwt-bearer"}
OLDER = ("auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback")
# The server scenarios that apply to TabAgent's server (page tools; no resources, prompts,
# completions, logging, or the suite's own fixture tools); the rest are listed in docs/testing.md.
SERVER = {"2025-11-25": ("server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "resources-list",
                         "prompts-list", "dns-rebinding-protection", "server-session-lifecycle"),
          "2026-07-28": ("server-stateless", "tools-list", "server-sse-multiple-streams", "resources-list", "prompts-list",
                         "sep-2164-resource-not-found", "dns-rebinding-protection", "caching", "http-header-validation",
                         "input-required-result-missing-input-response", "input-required-result-unsupported-methods",
                         "input-required-result-ignore-extra-params", "input-required-result-validate-input")}
# Checks of an applicable scenario that need a tool of the suite's own fixture server.
NEEDS_THE_FIXTURE = {"sep-2575-server-rejects-undeclared-capability", "sep-2575-missing-capability-http-400"}

pytestmark = [pytest.mark.timeout(900), pytest.mark.skipif(not SUITE.exists(), reason="npm ci installs the suite")]


def listed(revision: str, role: str) -> list[str]:
    """The scenarios a revision's requirement set lists for a role, scored or not."""
    text = (SUITE / "requirements" / f"{revision}.yaml").read_text() if SUITE.exists() else ""
    scored = re.search(rf"^{role}:\n((?:  - .*\n)+)", text, re.M)
    names = re.findall(r"^  - (\S+)", scored.group(1), re.M) if scored else []
    names += [name for name, leg in re.findall(r"- scenario: (\S+)\n\s+leg: (\w+)", text) if leg == role]
    return names


def run_suite(args: list[str], out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "py"), str(ROOT)])}
    subprocess.run([str(NODE), str(SUITE / "dist" / "index.js"), *args, "-o", str(out)], cwd=ROOT, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=800, check=False)


def results(out: Path) -> dict[str, list[dict]]:
    """Each scenario's checks, by name ("auth/scope-step-up"), from the suite's checks.json files."""
    found = {}
    for checks in out.rglob("checks.json"):
        folder = checks.parent.relative_to(out).as_posix()
        name = re.sub(r"-\d{4}-\d\d-\d\dT[\d-]+Z$", "", folder).removeprefix("server-")
        found[name] = json.loads(checks.read_text())
    return found


def failed(checks: list[dict], excused: set[str] = frozenset()) -> list[str]:
    return [f"{c['id']}: {c.get('errorMessage') or c.get('description')}" for c in checks
            if c["status"] == "FAILURE" and c["id"] not in excused]


CLIENT_CASES = [(revision, name) for revision in REVISIONS for name in listed(revision, "client")
                if name not in NOT_FOR_A_BROWSER] + [("2025-03-26", name) for name in OLDER]
AT_ONCE = 3


def run_cases(cases: list[tuple[str, str]], side: list[str], tmp_path_factory) -> dict[str, dict]:
    """Every case's checks, by revision and scenario: the suite run on `side` (["client",
    "--command", ...] or ["server", "--url", ...]), AT_ONCE cases at a time."""
    def one(case):
        revision, scenario = case
        out = tmp_path_factory.mktemp(f"{side[0]}-{revision}")
        run_suite([*side, "--scenario", scenario, "--spec-version", revision], out)
        return revision, results(out)

    runs: dict[str, dict] = {}
    with ThreadPoolExecutor(AT_ONCE) as pool:
        for revision, found in pool.map(one, cases):
            runs.setdefault(revision, {}).update(found)
    return runs


@pytest.fixture(scope="module")
def client_runs(tmp_path_factory):
    """Every client case's checks, by revision and scenario."""
    return run_cases(CLIENT_CASES, ["client", "--command", CLIENT], tmp_path_factory)


@pytest.mark.parametrize(("revision", "scenario"), CLIENT_CASES)
def test_client_scenario(client_runs, revision, scenario):
    checks = client_runs[revision].get(scenario)
    assert checks, f"the suite reported nothing for {scenario} at {revision}"
    assert not failed(checks)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_runs(tmp_path_factory):
    port = free_port()
    front = subprocess.Popen([sys.executable, "-m", "tests.conformance.http_front", "--port", str(port)], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield run_cases(SERVER_CASES, ["server", "--url", f"http://127.0.0.1:{port}/mcp"], tmp_path_factory)
    finally:
        front.terminate()
        front.wait(10)


SERVER_CASES = [(revision, scenario) for revision in REVISIONS for scenario in SERVER[revision]]


@pytest.mark.parametrize(("revision", "scenario"), SERVER_CASES)
def test_server_scenario(server_runs, revision, scenario):
    checks = server_runs[revision].get(scenario)
    assert checks, f"the suite reported nothing for {scenario} at {revision}"
    assert not failed(checks, NEEDS_THE_FIXTURE)
