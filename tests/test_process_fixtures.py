"""The process helpers of ``tests/conftest.py``: failed starts and stops leave no process behind."""

from __future__ import annotations

import errno
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import Process, free_port, reserve_port, spawn, start_and_wait

#: Writes its own pid and its child's pid to argv[1], then does what argv[2] says.
WITH_CHILD = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
if sys.argv[2] == "exit":
    raise SystemExit(3)
time.sleep(300)
"""


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent to reap it counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def gone(pid: int, within_s: float = 10.0) -> bool:
    """Not running, or stopped running within ``within_s`` (a signal takes a moment to land)."""
    deadline = time.monotonic() + within_s
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def pids(pid_file: Path) -> tuple[int, int]:
    """(parent, child) as the script wrote them."""
    parent, child = pid_file.read_text().split()
    return int(parent), int(child)


def test_a_process_that_exits_fails_at_once_and_its_children_go_too(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="exited with 3"):
        start_and_wait(
            [sys.executable, "-c", WITH_CHILD, str(pid_file), "exit"],
            f"http://127.0.0.1:{free_port()}",
            dict(os.environ),
        )
    assert time.monotonic() - started < 60  # long before the start-up bound
    parent, child = pids(pid_file)
    assert gone(parent)
    assert gone(child)  # orphaned children of a failed start are killed with their group


def test_a_start_that_times_out_kills_the_process_and_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    with pytest.raises(TimeoutError):
        start_and_wait(
            [sys.executable, "-c", WITH_CHILD, str(pid_file), "hang"],
            f"http://127.0.0.1:{free_port()}",
            dict(os.environ),
            timeout_s=8,
        )
    if not pid_file.exists():
        pytest.skip("the machine was too busy to start the script within the timeout")
    parent, child = pids(pid_file)
    assert gone(parent)
    assert gone(child)


def test_stop_takes_the_children_along(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    proc = spawn([sys.executable, "-c", WITH_CHILD, str(pid_file), "hang"])
    deadline = time.monotonic() + 60
    while not pid_file.exists():
        assert time.monotonic() < deadline, "the script never started"
        time.sleep(0.05)
    parent, child = pids(pid_file)
    Process("parent", "http://unused", proc).stop()
    assert proc.returncode is not None
    assert gone(parent)
    assert gone(child)


def test_a_reserved_port_refuses_connections_is_kept_from_others_and_takes_its_server() -> None:
    with reserve_port() as reserved:
        # nothing listens: a connection is refused, as by a server that is down
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", reserved.port), timeout=5).close()
        # a bind without SO_REUSEADDR (free_port's) is refused the port
        with socket.socket() as other, pytest.raises(OSError) as refused:
            other.bind(("127.0.0.1", reserved.port))
        assert refused.value.errno == errno.EADDRINUSE
        # a server that sets SO_REUSEADDR, as uvicorn does, binds and listens on it while it is held
        with socket.socket() as server:
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", reserved.port))
            server.listen()
            socket.create_connection(("127.0.0.1", reserved.port), timeout=5).close()
        reserved.release()  # released twice: harmless
