"""Fixtures shared by the whole suite: free and reserved ports, real processes, real PostgreSQL and Redis.

Under ``CI=true`` a missing PostgreSQL or Redis is a failure, not a skip.

Every process is started in a session of its own and stopped as a whole process group, so a
service's own children go with it; a start that fails in any way (timeout, early exit,
Ctrl-C) kills what it started before raising. ``TEST_START_TIMEOUT_S`` bounds a start-up.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import pytest
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.types import Receive, Scope, Send

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_TEST_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
IN_CI = os.environ.get("CI", "").lower() == "true"


def unavailable(what: str) -> None:
    """Skip locally, fail in CI: a missing service must never pass silently there."""
    if IN_CI:
        pytest.fail(f"{what} is required under CI=true but is not reachable")
    pytest.skip(f"{what} not reachable")


def free_port() -> int:
    """A loopback port free at the moment of the call. Nothing keeps it: bind it at once, or use
    :func:`reserve_port` when something else (another process, a wait) comes first."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ReservedPort:
    """A loopback port kept for a server that is not listening yet: a socket of this process bound
    to it with SO_REUSEADDR, never listening. While it is held a connection to the port is refused
    (as by a server that is down) and the kernel gives the port to no other bind to port 0 and no
    outgoing connection (a port of :func:`free_port` is free for anyone the moment it returns).

    On Linux a server that sets SO_REUSEADDR itself (uvicorn, asyncio, http.server, nginx,
    redis-server) binds and listens on a held port, a non-listening socket being no conflict then:
    hold it until that server answers, or for as long as a test needs the port to stay its own
    (a server stopped and started again on it, a port where nothing may listen). For a server that
    does not set SO_REUSEADDR, :meth:`release` it right before that server starts. Released when
    its ``with`` block ends; releasing twice is harmless."""

    def __init__(self) -> None:
        self._socket = socket.socket()
        try:
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self._socket.bind(("127.0.0.1", 0))
        except BaseException:
            self._socket.close()
            raise
        self.port = int(self._socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def release(self) -> None:
        self._socket.close()

    def __enter__(self) -> ReservedPort:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def reserve_port() -> ReservedPort:
    """A loopback port held bound, not listening, until released (:class:`ReservedPort`)."""
    return ReservedPort()


#: A start-up may take this long on a busy 2-core machine (several suites training at once).
START_TIMEOUT_S = float(os.environ.get("TEST_START_TIMEOUT_S", "120"))
#: How long a stopped process may take to exit after SIGTERM before its group is killed.
STOP_GRACE_S = 10.0
#: Processes started here and not yet stopped: killed at exit if a test forgot them.
_running: set[subprocess.Popen[bytes]] = set()


def spawn(
    argv: list[str], *, env: dict[str, str] | None = None, cwd: Path = ROOT, output: IO[bytes] | None = None
) -> subprocess.Popen[bytes]:
    """``argv`` as the leader of a new session (its children share its process group);
    ``output`` receives its stdout and stderr (default: inherited)."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        start_new_session=True,
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
    )
    _running.add(proc)
    return proc


def exit_code(proc: subprocess.Popen[bytes]) -> int | None:
    """``proc``'s exit code (negative: killed by that signal) or None while it runs, without
    reaping it: while it is unreaped its process group id cannot be reused, so signalling the
    group afterwards reaches only our own processes (its children included)."""
    if proc.returncode is not None:
        return proc.returncode
    try:
        status = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # reaped elsewhere (someone called poll or wait)
        return proc.wait()
    if status is None:
        return None
    return status.si_status if status.si_code == os.CLD_EXITED else -status.si_status


def stop_process(proc: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGTERM) -> None:
    """Signal ``proc``'s whole group, give it ``STOP_GRACE_S`` to exit, then kill what is left."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        deadline = time.monotonic() + STOP_GRACE_S
        while exit_code(proc) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        # children that outlive the leader, or a leader that ignored SIGTERM
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    _running.discard(proc)


@atexit.register
def _stop_forgotten() -> None:
    for proc in list(_running):
        stop_process(proc, signal.SIGKILL)


def wait_http(url: str, timeout_s: float | None = None, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Poll ``url`` until it answers 200, backing off; fails at once if ``proc`` exits."""
    timeout_s = START_TIMEOUT_S if timeout_s is None else timeout_s
    deadline = time.monotonic() + timeout_s
    delay = 0.05
    while True:
        code = exit_code(proc) if proc is not None else None
        if code is not None:
            raise RuntimeError(f"process for {url} exited with {code} before answering")
        try:
            if httpx.get(url, timeout=min(5.0, timeout_s)).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() + delay > deadline:
            raise TimeoutError(f"{url} did not answer within {timeout_s:g}s (TEST_START_TIMEOUT_S)")
        time.sleep(delay)
        delay = min(delay * 1.5, 1.0)


def start_and_wait(
    argv: list[str],
    url: str,
    env: dict[str, str],
    *,
    timeout_s: float | None = None,
    output: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` (its stdout and stderr to ``output``, default inherited) and wait for
    ``url/health``; on any failure (timeout, early exit, Ctrl-C) its whole process group is
    killed before the error propagates."""
    proc = spawn(argv, env=env, output=output)
    try:
        wait_http(f"{url}/health", timeout_s, proc=proc)
    except BaseException:
        stop_process(proc, signal.SIGKILL)
        raise
    return proc


@dataclass
class Process:
    name: str
    url: str
    proc: subprocess.Popen[bytes]
    env: dict[str, str] = field(default_factory=dict)

    def stop(self, sig: str = "term") -> None:
        """Stop the process and its children: SIGTERM (SIGKILL after a grace period), or SIGKILL."""
        stop_process(self.proc, signal.SIGKILL if sig == "kill" else signal.SIGTERM)


def start_domain(name: str, env: dict[str, str] | None = None, port: int | None = None) -> Process:
    return start_service(name, ["-m", f"domains.{name}", "--host", "127.0.0.1"], env, port)


def start_fixture_domain(script: str) -> Process:
    """A domain the core has never seen, ``tests/fixtures/<script>.py``, on a free port."""
    return start_service(script, [str(ROOT / "tests" / "fixtures" / f"{script}.py")], None, None)


def start_service(name: str, argv: list[str], env: dict[str, str] | None, port: int | None) -> Process:
    """``python <argv> --port P``, waited for on ``/health`` (killed if it never answers); a port
    of its own is held for it (:func:`reserve_port`) until it answers."""
    # a store of idempotency keys of its own (the SDK's default is one file per domain name under
    # var/): run ids made from the same Idempotency-Key in another test, or an earlier run, would
    # otherwise be answered from what that other process did
    keys = f"sqlite:///{tempfile.mkdtemp(prefix=f'keys-{name}-')}/{name}.sqlite3"
    full_env = {**os.environ, "DOMAIN_IDEMPOTENCY_URL": keys, **(env or {})}
    with contextlib.ExitStack() as held:
        port = port or held.enter_context(reserve_port()).port
        url = f"http://127.0.0.1:{port}"
        proc = start_and_wait([sys.executable, *argv, "--port", str(port)], url, full_env)
    return Process(name, url, proc, env or {})


def start_gateway(env: dict[str, str], port: int | None = None, *, log: Path | None = None) -> Process:
    """``python -m gateway`` on ``port`` (default: a free one), its output appended to ``log``
    when given (a test that reads the gateway's JSON log); a port of its own is held for it
    (:func:`reserve_port`) until it answers: uvicorn binds only after the gateway's start-up."""
    with contextlib.ExitStack() as stack:
        port = port or stack.enter_context(reserve_port()).port
        full_env = {
            **os.environ,
            "GATEWAY_HOST": "127.0.0.1",
            "GATEWAY_PORT": str(port),
            "LOG_LEVEL": "WARNING",
            **env,
        }
        url = f"http://127.0.0.1:{port}"
        # /health answers once start-up (bootstrap, intent model, migrations) has finished
        output = stack.enter_context(log.open("ab")) if log is not None else None
        proc = start_and_wait([sys.executable, "-m", "gateway"], url, full_env, output=output)
    return Process("gateway", url, proc, env)


def example(text: str, **entities: Any) -> dict[str, Any]:
    """A goal's example in manifest JSON: ``example("cotação da Vale", symbol_text="Vale")``."""
    return {"text": text, "entities": entities}


def run_turn(gateway: Process, session: str, text: str, timeout_s: float = 120) -> dict[str, Any]:
    """One message through ``POST /v1/runs`` on ``session``; the run's trace (answered 200)."""
    response = httpx.post(
        f"{gateway.url}/v1/runs", json={"input_text": text, "session_id": session}, timeout=timeout_s
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def chat(gateway: Process, session: str, text: str, timeout_s: float = 30) -> str:
    """One user message through ``/v1/chat/completions`` on ``session``; the assistant's text."""
    response = httpx.post(
        f"{gateway.url}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "user", "content": text}]},
        headers={"X-Session-Id": session},
        timeout=timeout_s,
    )
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


@contextlib.asynccontextmanager
async def in_process_client(app: Starlette, base_url: str = "http://gw") -> AsyncIterator[httpx.AsyncClient]:
    """``app`` in this process, its lifespan run and its lifespan state handed to every request
    (``request.state``, as a server does), reached through httpx's ASGI transport."""
    async with app.router.lifespan_context(app) as state:

        async def with_state(scope: Scope, receive: Receive, send: Send) -> None:
            await app({**scope, "state": dict(state or {})}, receive, send)

        transport = httpx.ASGITransport(app=with_state)
        async with httpx.AsyncClient(transport=transport, base_url=base_url) as client:
            yield client


def write_bootstrap(path: Path, domains: dict[str, str]) -> Path:
    path.write_text(json.dumps({"domains": [{"name": n, "base_url": u} for n, u in domains.items()]}))
    return path


@pytest.fixture(scope="session")
def domain_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Process]]:
    """finance, notifier and general as real processes, shared by the integration tests."""
    data = tmp_path_factory.mktemp("domains")
    env = {"NOTIFIER_OUTBOX_PATH": str(data / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
    started: dict[str, Process] = {}
    try:
        for name in ("finance", "notifier", "general"):
            started[name] = start_domain(name, env)
        yield started
    finally:
        for p in started.values():
            p.stop()


@contextlib.contextmanager
def gateway_over(
    domains: dict[str, Process], work: Path, env: dict[str, str] | None = None, *, log: Path | None = None
) -> Iterator[Process]:
    """A real gateway process on a SQLite file in ``work``, routing to ``domains`` (its bootstrap
    file), with no API keys, no Redis and ``ADMIN_TOKEN=test-admin-token`` unless ``env`` says
    otherwise; stopped when the block ends."""
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domains.items()})
    defaults = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "ADMIN_TOKEN": "test-admin-token",
        "API_KEYS": "",
        "REDIS_URL": "",
    }
    gateway = start_gateway({**defaults, **(env or {})}, log=log)
    try:
        yield gateway
    finally:
        gateway.stop()


def wait_until(predicate: Callable[[], bool], timeout_s: float = 90.0, what: str = "the condition") -> None:
    """Poll ``predicate`` until it holds, backing off from 0.05 s to 0.5 s; fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    delay = 0.05
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(delay)
        delay = min(delay * 2, 0.5)


#: A gateway, a notifier, the slow fixture domain and a finance of the stack's own.
SlowStack = tuple[Process, Process, Process, Process]


@contextlib.contextmanager
def slow_stack(work: Path, env: dict[str, str]) -> Iterator[SlowStack]:
    """A gateway (``env`` over :func:`gateway_over`'s defaults) routing to a notifier whose outbox
    is in ``work``, the slow fixture domain (``slowpoke``) and a finance process of its own (a test
    may stop it and start it again on its port, held for it while the block runs: no other process
    is given it meanwhile); all stopped when the block ends."""
    with reserve_port() as finance_port:
        notifier = start_domain(
            "notifier", {"NOTIFIER_OUTBOX_PATH": str(work / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
        )
        slow = start_fixture_domain("slow_domain")
        finance = start_domain("finance", port=finance_port.port)
        domains = {"finance": finance, "notifier": notifier, "slowpoke": slow}
        try:
            with gateway_over(domains, work, env) as gateway:
                yield gateway, notifier, slow, finance
        finally:
            slow.stop()
            notifier.stop()
            finance.stop()


@pytest.fixture(scope="session")
def platform(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A real gateway process on SQLite talking HTTP to the real domain processes."""
    with gateway_over(domain_processes, tmp_path_factory.mktemp("gateway")) as gateway:
        yield gateway


@contextlib.asynccontextmanager
async def migrated_engines(url: str, count: int = 1) -> AsyncIterator[list[AsyncEngine]]:
    """``count`` engines on the database at ``url`` (one per gateway), migrated by the first;
    disposed of when the block ends."""
    from gateway.storage.migrate import upgrade
    from shared.db import create_engine

    made = [create_engine(url) for _ in range(count)]
    try:
        await upgrade(made[0])
        yield made
    finally:
        for engine in made:
            await engine.dispose()


@pytest.fixture
async def pg_database_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    try:
        admin = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
    except (TimeoutError, OSError, asyncpg.PostgresError):
        unavailable("PostgreSQL at 127.0.0.1:5432")
        raise  # unreachable: unavailable() skips or fails
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}".replace("postgresql://", "postgresql+asyncpg://")
    finally:
        admin = await asyncpg.connect(PG_ADMIN_URL, timeout=3)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """A client of the tests' Redis database (emptied before and after the test)."""
    client = Redis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def redis_url() -> AsyncIterator[str]:
    import redis.asyncio as aioredis

    client = aioredis.from_url(REDIS_TEST_URL)
    try:
        await client.ping()
    except (OSError, aioredis.RedisError):
        unavailable("Redis at 127.0.0.1:6379")
    try:
        await client.flushdb()
        yield REDIS_TEST_URL
        await client.flushdb()
    finally:
        await client.aclose()
