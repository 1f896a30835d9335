"""Ending the processes the tests start (browsers, model and MCP servers) whatever state they are in."""

from __future__ import annotations

import os
import subprocess


def end_within(process: subprocess.Popen, seconds: float) -> None:
    """Gives `process` (already asked to end) `seconds` to do so, then kills it and waits for that."""
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def listens_on(pid: int, port: int) -> bool:
    """Whether `pid` (or a process it started) holds the socket listening on 127.0.0.1:`port`
    (Linux's /proc): a connection that succeeds may reach another test's server that took the
    port between our pick and our server's bind."""
    inodes = _listening_inodes(port)
    if not inodes:
        return False
    family = _descendants(pid)
    for member in family:
        try:
            fds = os.listdir(f"/proc/{member}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{member}/fd/{fd}") in inodes:
                    return True
            except OSError:
                continue
    return False


def _listening_inodes(port: int) -> set[str]:
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.add(f"socket:[{fields[9]}]")
    return found


def _descendants(pid: int) -> set[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    family, grew = {pid}, True
    while grew:
        more = {child for child, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    return family
