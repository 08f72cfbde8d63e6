"""``make run``'s launcher, started for real (every shipped domain and the gateway, on free ports,
in an empty working directory): it says what it does, prints its banner only once ``/ready``
passes, and hands the gateway a local admin key kept owner-only under var/."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, START_TIMEOUT_S, exit_code, free_port, reserve_port, spawn, stop_process

BOOTSTRAP = ROOT / "domains.bootstrap.json"


def launcher_environment(
    work: Path, cache: Path, port: int, domain_port: Callable[[], int] = free_port
) -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        "BOOTSTRAP_FILE": str(BOOTSTRAP),
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "REDIS_URL": "",
        "INTENT_CACHE_DIR": str(cache),
        "LOG_LEVEL": "INFO",
    }
    env.pop("ADMIN_TOKEN", None)
    for entry in json.loads(BOOTSTRAP.read_text())["domains"]:
        env[f"DOMAIN_URL_{entry['name'].upper()}"] = f"http://127.0.0.1:{domain_port()}"
    return env


@contextmanager
def launched(work: Path, cache: Path) -> Iterator[tuple[list[str], int, float]]:
    """The launcher until its banner: (its lines so far, the gateway's port, /ready's status the
    moment the banner was read). The gateway's and the domains' ports are held for them
    (:func:`reserve_port`) until the launcher ends: its processes bind them one after another, the
    gateway's only once its start-up (training included) is done."""
    log_path = work / "launcher.log"
    with ExitStack() as held, log_path.open("wb") as log:

        def reserved() -> int:
            return held.enter_context(reserve_port()).port

        port = reserved()
        proc = spawn(
            [sys.executable, "-m", "cli.launcher"],
            env=launcher_environment(work, cache, port, reserved),
            cwd=work,
            output=log,
        )
        try:
            deadline = time.monotonic() + 2 * START_TIMEOUT_S
            while True:
                lines = log_path.read_text(errors="replace").splitlines()
                if any(line.startswith("ready in ") for line in lines):
                    status = httpx.get(f"http://127.0.0.1:{port}/ready", timeout=10).status_code
                    yield lines, port, status
                    return
                code = exit_code(proc)
                assert code is None, f"launcher exited with {code}:\n" + "\n".join(lines[-30:])
                assert time.monotonic() < deadline, "no banner:\n" + "\n".join(lines[-30:])
                time.sleep(0.1)
        finally:
            stop_process(proc)


def _own(lines: list[str]) -> list[str]:
    """The launcher's own lines (not the services' logs)."""
    return [line for line in lines if not line.startswith("{")]


def _index(lines: list[str], start: str) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(start))


def test_cold_then_warm_start_say_what_they_do_and_share_one_admin_key(tmp_path: Path) -> None:
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    with launched(work, cache) as (lines, port, ready_status):
        assert ready_status == 200, "the banner came before /ready passed"
        own = _own(lines)
        training = _index(own, "launcher: training the intent model on")
        assert _index(own, "launcher: domain finance ready on") < _index(own, "ready in ")
        assert training < _index(own, "launcher: intent model trained in") < _index(own, "ready in ")
        assert any(line.startswith("launcher: database: upgrade") for line in own)
        key_file = work / "var" / "admin.key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        key = key_file.read_text().strip()
        assert key not in "\n".join(lines), "the key itself must never be printed"
        assert any("$(cat var/admin.key)" in line for line in own)
        admin = httpx.get(
            f"http://127.0.0.1:{port}/v1/admin/keys", headers={"Authorization": f"Bearer {key}"}, timeout=10
        )
        assert admin.status_code == 200, admin.text
        anonymous = httpx.get(f"http://127.0.0.1:{port}/v1/admin/keys", timeout=10)
        assert anonymous.status_code in (401, 403)
        answer = httpx.post(
            f"http://127.0.0.1:{port}/v1/chat/completions",
            json={"model": "orchestrator", "messages": [{"role": "user", "content": "cotação da Petrobras"}]},
            timeout=60,
        )
        assert answer.status_code == 200, answer.text
        assert "PETR4" in answer.json()["choices"][0]["message"]["content"]
    with launched(work, cache) as (lines, port, ready_status):
        assert ready_status == 200
        own = _own(lines)
        assert any(line.startswith("launcher: intent model loaded") for line in own)
        assert not any(line.startswith("launcher: training the intent model") for line in own)
        assert (work / "var" / "admin.key").read_text().strip() == key, "the key is reused"
        again = httpx.get(
            f"http://127.0.0.1:{port}/v1/admin/keys", headers={"Authorization": f"Bearer {key}"}, timeout=10
        )
        assert again.status_code == 200


@pytest.mark.parametrize("mode", [0o644, 0o640])
def test_a_key_file_others_can_read_is_narrowed_to_its_owner(tmp_path: Path, mode: int) -> None:
    from cli.admin_key import ensure_admin_key

    path = tmp_path / "var" / "admin.key"
    first = ensure_admin_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(mode)
    assert ensure_admin_key(path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_empty_or_odd_key_file_is_refused_not_used(tmp_path: Path) -> None:
    from cli.admin_key import AdminKeyUnsafe, ensure_admin_key

    empty = tmp_path / "empty.key"
    empty.write_text("")
    with pytest.raises(AdminKeyUnsafe, match="empty"):
        ensure_admin_key(empty)
    folder = tmp_path / "folder.key"
    folder.mkdir()
    with pytest.raises(AdminKeyUnsafe, match="not a regular file"):
        ensure_admin_key(folder)


def test_only_http_domains_with_a_command_are_started_by_the_launcher() -> None:
    """An MCP server declared with a command is the gateway's to start over stdio (it has no base
    URL or port); a domain with no command runs elsewhere."""
    from cli.bootstrap import Bootstrap

    bootstrap = Bootstrap.model_validate_json(
        json.dumps(
            {
                "domains": [
                    {
                        "name": "finance",
                        "base_url": "http://127.0.0.1:8101",
                        "command": ["python", "-m", "x"],
                    },
                    {"name": "remote", "base_url": "http://10.0.0.5:8200"},
                    {"name": "shelf", "kind": "mcp", "command": ["python", "/opt/tools/shelf_server.py"]},
                ]
            }
        )
    )
    assert [entry.name for entry in bootstrap.domains if entry.local_command] == ["finance"]


def _processes_with(marker: str) -> list[int]:
    """The processes whose environment holds ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if marker.encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def test_a_launcher_that_cannot_start_leaves_no_gateway_behind(tmp_path: Path) -> None:
    """The gateway process is started before the launcher reads the bootstrap file: when that
    fails, the launcher stops it on its way out instead of leaving it running."""
    bootstrap = tmp_path / "broken.json"
    bootstrap.write_text("{not json")
    marker = f"LAUNCHER_TEST_{os.getpid()}_{time.monotonic_ns()}"
    env = {
        **launcher_environment(tmp_path, tmp_path / "cache", free_port()),
        "BOOTSTRAP_FILE": str(bootstrap),
    }
    env[marker] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "cli.launcher"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("launcher: the bootstrap file is not valid: "), done.stderr[-2000:]
    assert "broken.json" in done.stderr and "Traceback" not in done.stderr
    assert _processes_with(marker) == [], "the gateway process outlived its launcher"
