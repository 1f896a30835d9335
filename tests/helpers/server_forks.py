"""The Python test servers (tests/helpers/*_server.py), each started as a process forked from one
that has imported the MCP SDK once, rather than a new Python that imports it again: about 0.85 s
of CPU saved per server (Python's start, the SDK, pydantic, starlette, uvicorn).

multiprocessing's forkserver is that parent: started once per test process (pytest worker) on
the first server, it imports PRELOADED and forks a child for each server, which runs the server
module's `main()` with the arguments given, as `python -m module args` would. The child is a
fresh process of its own (a new pid that holds the server's port, ended by SIGTERM), so
`ForkedServer` answers what the tests asked of its `subprocess.Popen` before.

    process = forked("tests.helpers.mcp_server", ["--port", "8123"])
"""

from __future__ import annotations

import importlib
import io
import multiprocessing
import os
import select
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRELOADED = ["mcp.server.mcpserver", "mcp.server.streamable_http_manager", "mcp.server.sse", "uvicorn",
             "starlette.applications", "pydantic", "httpx"]

_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(PRELOADED)


def forked(module: str, args: list[str], env: dict[str, str] | None = None) -> "ForkedServer":
    """`python -m module *args` (in the repository, with this process's environment and `env`),
    forked from the parent that has imported the SDK."""
    handle, stderr = tempfile.mkstemp(prefix="tabagent-server-", suffix=".stderr")
    os.close(handle)
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    process = _FORKS.Process(target=_run, args=(module, args, environment, stderr, os.getpid()))
    process.start()
    return ForkedServer(process, Path(stderr))


def _run(module: str, args: list[str], env: dict[str, str], stderr: str, owner: int) -> None:
    _end_with(owner)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(ROOT)
    with open(os.devnull, "wb") as devnull, open(stderr, "wb") as said:  # the forkserver's own fds are not ours
        os.dup2(devnull.fileno(), 1)
        os.dup2(said.fileno(), 2)
    sys.argv = [module, *args]
    importlib.import_module(module).main()


def _end_with(owner: int) -> None:
    """The server ends when the test process that started it does: a test run killed midway (a
    timeout, Ctrl-C, a job stopped) leaves no server behind holding a port. (The forkserver cannot
    be relied on for this: every child it forks holds the pipe that keeps it alive.) A thread waits
    on the owner's pidfd (Linux); where there is none, nothing is done."""
    try:
        handle = os.pidfd_open(owner)
    except ProcessLookupError:  # the owner ended before the server started
        os._exit(0)
    except (AttributeError, OSError):
        return

    def wait() -> None:
        select.select([handle], [], [])
        os._exit(0)

    threading.Thread(target=wait, name="ends-with-its-test", daemon=True).start()


class ForkedServer:
    """What the tests use of a `subprocess.Popen`: pid, poll, wait, terminate, kill, stderr."""

    def __init__(self, process: multiprocessing.Process, stderr: Path):
        self._process, self._stderr = process, stderr
        self.pid = process.pid

    @property
    def stderr(self) -> io.BytesIO:
        return io.BytesIO(self._stderr.read_bytes() if self._stderr.exists() else b"")

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(self._process.name, timeout)
        self._stderr.unlink(missing_ok=True)
        return self._process.exitcode

    def terminate(self) -> None:
        self._process.terminate()

    def kill(self) -> None:
        self._process.kill()
