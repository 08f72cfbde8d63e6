"""Stdio MCP servers declared in the bootstrap file: the entries read, and the held session with
a real child process (``tests/fixtures/mcp_stdio_server.py``) through ``McpDomains``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mcp.client.stdio import StdioServerParameters

from orchestrator.mcp_bootstrap import declare_bootstrap_mcp, read_mcp_entries
from orchestrator.mcp_domain import McpDomains, is_mcp_url
from orchestrator.mcp_stdio import StdioServer, stdio_base_url
from shared.errors import DomainUnavailable
from shared.models import ExecutionIntent
from tests.conftest import ROOT

SERVER = str(ROOT / "tests" / "fixtures" / "mcp_stdio_server.py")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def write(path: Path, entries: list[object]) -> Path:
    path.write_text(json.dumps({"domains": entries}))
    return path


def test_only_valid_mcp_entries_are_read(tmp_path: Path) -> None:
    bootstrap = write(
        tmp_path / "bootstrap.json",
        [
            {"name": "weather", "base_url": "http://127.0.0.1:1"},  # not MCP: the registry's
            {"name": "files", "kind": "mcp", "command": ["python", "-m", "files"], "env": {"ROOT": "/srv"}},
            {"name": "empty", "kind": "mcp", "command": []},
            {"name": "blank", "kind": "mcp", "command": ["python", ""]},
            {"name": "shell", "kind": "mcp", "command": "python -m files"},
            {"name": "remote", "kind": "mcp", "base_url": "mcp+http://127.0.0.1:1/mcp", "description": "R"},
            "not an entry",
        ],
    )
    entries = {e.name: e for e in read_mcp_entries(bootstrap)}
    assert sorted(entries) == ["files", "remote"]
    assert entries["files"].command == ["python", "-m", "files"] and entries["files"].env == {"ROOT": "/srv"}
    assert entries["remote"].command is None and entries["remote"].description == "R"
    assert read_mcp_entries(tmp_path / "missing.json") == []


def test_a_stdio_server_is_named_by_an_mcp_url() -> None:
    assert stdio_base_url("files") == "mcp+stdio://files" and is_mcp_url("mcp+stdio://files")


async def test_a_command_that_does_not_start_is_unavailable_with_its_reason() -> None:
    server = StdioServer("ghost", StdioServerParameters(command="/nonexistent/mcp-server"))
    server.start()
    try:
        with pytest.raises(DomainUnavailable, match="ghost did not start"):
            await server.client()
    finally:
        await server.stop()


async def test_an_undeclared_stdio_server_is_unavailable() -> None:
    mcp = McpDomains(timeout_s=5)
    with pytest.raises(DomainUnavailable, match="no stdio MCP server nobody"):
        await mcp.health(stdio_base_url("nobody"))


async def test_the_session_is_held_across_calls_and_the_child_stopped_on_close(tmp_path: Path) -> None:
    pid_file = tmp_path / "shelf.pid"
    bootstrap = write(
        tmp_path / "bootstrap.json",
        [{"name": "shelf", "kind": "mcp", "command": [sys.executable, SERVER, "--pid-file", str(pid_file)]}],
    )
    mcp = McpDomains(timeout_s=30)
    try:
        assert declare_bootstrap_mcp(bootstrap, mcp) == ["shelf"]
        url = stdio_base_url("shelf")
        manifest = await mcp.manifest(url, "shelf")
        assert [c.name for c in manifest.capabilities] == ["book_copies"]
        assert [g.goal for g in manifest.goals] == ["SHELF_BOOK_COPIES"]  # none given: generated
        pid = int(pid_file.read_text())
        output = await mcp.execute(
            url, ExecutionIntent(domain="shelf", capability="book_copies", parameters={"book": "Dracula"})
        )
        assert output.status == "success" and output.result == {"book": "dracula", "copies": 3}
        assert (await mcp.health(url))["status"] == "ok"
        assert int(pid_file.read_text()) == pid and alive(pid)  # one child for every call
    finally:
        await mcp.aclose()
    assert not alive(pid)
