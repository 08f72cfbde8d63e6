"""A local MCP server over stdio, declared by command in the bootstrap file: the gateway (a real
process) starts it, holds one session with it, starts it again when it dies, and stops it when
the gateway stops. The server is ``tests/fixtures/mcp_stdio_server.py``."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ROOT, Process, chat, start_gateway

pytestmark = pytest.mark.integration

ADMIN = {"Authorization": "Bearer test-admin-token"}

BOOK_COPIES = {
    "goal": "BOOK_COPIES",
    "description": "Quantas cópias de um livro há na estante (copies of a book on the shelf)",
    "entities_schema": {"book": {"type": "string", "required": True, "description": "O livro"}},
    "capabilities": ["book_copies"],
    "examples": [
        {"text": "quantas cópias de dracula temos na estante?", "entities": {"book": "dracula"}},
        {"text": "quantas cópias de emma há na estante", "entities": {"book": "emma"}},
        {"text": "cópias do livro ulysses", "entities": {"book": "ulysses"}},
        {"text": "tem dracula na estante?", "entities": {"book": "dracula"}},
        {"text": "quanto temos do livro emma na estante", "entities": {"book": "emma"}},
        {"text": "how many copies of ulysses are on the shelf", "entities": {"book": "ulysses"}},
        {"text": "copies of dracula on the shelf", "entities": {"book": "dracula"}},
        {"text": "número de cópias do livro emma", "entities": {"book": "emma"}},
    ],
}


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie nobody has reaped yet counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def server_pid(pid_file: Path) -> int:
    return int(pid_file.read_text())


@pytest.fixture
def pid_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "shelf.pid"
    yield path
    # whatever happens in the test, no server it started is left running
    if path.exists() and alive(pid := server_pid(path)):
        os.kill(pid, signal.SIGKILL)


def gateway_env(work: Path, domains: dict[str, Process], pid_file: Path) -> dict[str, str]:
    entries: list[dict[str, Any]] = [{"name": n, "base_url": p.url} for n, p in domains.items()]
    entries.append(
        {
            "name": "shelf",
            "kind": "mcp",
            "command": [
                sys.executable,
                str(ROOT / "tests" / "fixtures" / "mcp_stdio_server.py"),
                "--pid-file",
                str(pid_file),
            ],
            "description": "A estante da biblioteca",
            "goals": [BOOK_COPIES],
        }
    )
    bootstrap = work / "bootstrap.json"
    bootstrap.write_text(json.dumps({"domains": entries}))
    return {
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "ADMIN_TOKEN": "test-admin-token",
        "API_KEYS": "",
        "REDIS_URL": "",
    }


def test_a_stdio_mcp_server_declared_by_command_answers_chat_and_ends_with_the_gateway(
    tmp_path: Path, domain_processes: dict[str, Process], pid_file: Path
) -> None:
    gateway = start_gateway(gateway_env(tmp_path, domain_processes, pid_file))
    try:
        listed = {d["name"]: d for d in httpx.get(f"{gateway.url}/v1/domains", timeout=10).json()["data"]}
        shelf = listed["shelf"]
        assert shelf["healthy"], shelf
        assert shelf["base_url"] == "mcp+stdio://shelf" and shelf["goals"] == ["BOOK_COPIES"]

        assert chat(gateway, "stdio-1", "quantas cópias de dracula temos na estante?", 60) == (
            "book: dracula, copies: 3"
        )
        first = server_pid(pid_file)
        # one session for the gateway's life: the next call goes to the same process
        assert chat(gateway, "stdio-2", "quantas cópias de ulysses temos na estante?", 60) == (
            "book: ulysses, copies: 7"
        )
        assert server_pid(pid_file) == first

        # it dies: the next call is answered by a new one
        os.kill(first, signal.SIGKILL)
        assert (
            chat(gateway, "stdio-3", "quantas cópias de emma temos na estante?", 60)
            == "book: emma, copies: 0"
        )
        second = server_pid(pid_file)
        assert second != first and alive(second) and not alive(first)

        # the admin route never starts a command
        refused = httpx.post(
            f"{gateway.url}/v1/domains",
            json={"name": "other", "kind": "mcp", "command": [sys.executable, "-c", "pass"]},
            headers=ADMIN,
            timeout=10,
        )
        assert refused.status_code == 400, refused.text
    finally:
        gateway.stop()
    assert not alive(second)
