"""Scale-out: three gateway processes on one PostgreSQL + Redis behind a real nginx, under load,
with one gateway SIGKILLed mid-load.

What it shows (each assertion can fail):
- nothing accepted is lost: every session's history, read from each surviving gateway, holds
  exactly the turns that were answered 200 (or that committed before their gateway died), in
  order, and every accepted run id is found on each surviving gateway;
- no session is corrupt: its graph state holds each turn's message and answer, in order;
- background runs (202) are found by id on every survivor; those a survivor accepted complete;
- no notification is duplicated: the notifier's outbox holds each requested message exactly once,
  also when the gateway died between the send and the commit (see
  :func:`check_notifications_once`);
- only requests caught on the killed gateway fail (nginx answers 502 naming that upstream), and
  they are safely retried: every turn carries an ``Idempotency-Key``, and the client resends the
  message (with the same key) only when the session's history shows its turn did not commit.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import socketserver
import subprocess
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import (
    ROOT,
    Process,
    reserve_port,
    start_domain,
    start_gateway,
    unavailable,
    write_bootstrap,
)
from tests.nginx_proxy import PROXY_CONF, UPSTREAM_HEADER, Nginx, nginx_binary, nginx_over

pytestmark = pytest.mark.integration

API_KEY = "scale-out-key"
HEADERS = {"Authorization": f"Bearer {API_KEY}"}
CLIENTS = 8
QUOTES = 200
#: companies of the finance sample data that name one instrument each (no clarifying question)
COMPANIES = [
    "Petrobras",
    "Vale",
    "Itaú",
    "Bradesco",
    "Ambev",
    "WEG",
    "Apple",
    "Microsoft",
    "Amazon",
    "Tesla",
    "Nvidia",
    "Nokia",
]
CONVERSATION = ["cotação da Vale", "e a Petrobras?", "e a Apple?", "preço da Microsoft", "e a Tesla?"]
CONVERSATIONS = 12
#: turns sent with ``background: true`` (answered 202, run by the gateway's workers)
BACKGROUND_RUNS = 12
#: the gateway is killed once this many turns were answered (about a third of the load)
KILL_AFTER = 100
#: a turn caught on the killed gateway is sent again at most this many times
MAX_ATTEMPTS = 4


@dataclass
class Job:
    session: str
    texts: list[str]
    kind: str  # "quote", "conversation", "notification" or "background"


@dataclass
class Accepted:
    session: str
    text: str
    run_id: str
    #: True when the answer was lost with its gateway but the turn had committed (found in history)
    recovered: bool = False
    #: the gateway that answered (nginx's upstream address)
    upstream: str = ""
    background: bool = False


@dataclass
class Load:
    nginx: Nginx
    victim: Process
    answered: int = 0
    answered_at_kill: int | None = None
    kill_requested: asyncio.Event = field(default_factory=asyncio.Event)
    accepted: list[Accepted] = field(default_factory=list)
    #: (status or exception name, upstream header) of every failed attempt
    failures: list[tuple[str, str]] = field(default_factory=list)
    retries: int = 0
    #: sessions whose turn was sent again after a failure because its history did not show it
    resent: set[str] = field(default_factory=set)

    def count_answer(self) -> None:
        self.answered += 1
        if self.answered >= KILL_AFTER:
            self.kill_requested.set()


def jobs() -> list[Job]:
    quotes = [Job(f"quote-{i}", ["preço da Petrobras"], "quote") for i in range(QUOTES)]
    talks = [Job(f"talk-{i}", list(CONVERSATION), "conversation") for i in range(CONVERSATIONS)]
    sends = [
        Job(f"notify-{i}", [f"manda a cotação da {company} no meu telegram"], "notification")
        for i, company in enumerate(COMPANIES)
    ]
    background = [Job(f"background-{i}", ["cotação da Vale"], "background") for i in range(BACKGROUND_RUNS)]
    # spread the other jobs over the whole load, before and after the kill
    spread = itertools.chain(*itertools.zip_longest(talks, sends, background))
    others = iter([job for job in spread if job is not None])
    mixed: list[Job] = []
    for i, quote in enumerate(quotes):
        mixed.append(quote)
        if i % 8 == 0:
            mixed.extend(itertools.islice(others, 1))
    mixed.extend(others)
    return mixed


async def history(client: httpx.AsyncClient, url: str, session: str) -> list[dict[str, Any]]:
    response = await client.get(f"{url}/v1/sessions/{session}/history", headers=HEADERS)
    if response.status_code == 404:
        return []
    assert response.status_code == 200, response.text
    return list(response.json()["turns"])


async def send_turn(
    client: httpx.AsyncClient, load: Load, session: str, text: str, done: int, background: bool = False
) -> Accepted:
    """``text`` as turn ``done + 1`` of ``session``, through nginx. A failed attempt is sent again
    only if the session's history shows that its turn did not commit."""
    for attempt in range(MAX_ATTEMPTS):
        if attempt:
            load.retries += 1
            load.resent.add(session)
        try:
            # one key per turn, the same on every attempt: a resent turn whose first attempt
            # reached the notifier before its gateway died runs as the same run, which the
            # notifier recognises (no second message)
            response = await client.post(
                f"{load.nginx.url}/v1/runs",
                json={"input_text": text, "session_id": session, "background": background},
                headers={**HEADERS, "Idempotency-Key": f"{session}/{done}"},
            )
        except httpx.TransportError as exc:
            load.failures.append((type(exc).__name__, ""))
        else:
            if response.status_code == (202 if background else 200):
                load.count_answer()
                upstream = response.headers.get(UPSTREAM_HEADER, "").split(",")[-1].strip()
                return Accepted(session, text, response.json()["run_id"], False, upstream, background)
            load.failures.append((str(response.status_code), response.headers.get(UPSTREAM_HEADER, "")))
        turns = await history(client, load.nginx.url, session)
        if len(turns) > done:  # it committed before its gateway died: not sent again
            assert len(turns) == done + 1 and turns[-1]["input_text"] == text, turns
            load.count_answer()
            return Accepted(session, text, turns[-1]["run_id"], recovered=True)
    raise AssertionError(f"{session}: '{text}' failed {MAX_ATTEMPTS} times: {load.failures[-MAX_ATTEMPTS:]}")


async def client_loop(client: httpx.AsyncClient, load: Load, queue: asyncio.Queue[Job]) -> None:
    while not queue.empty():
        job = queue.get_nowait()
        for done, text in enumerate(job.texts):
            background = job.kind == "background"
            load.accepted.append(await send_turn(client, load, job.session, text, done, background))


async def kill_when_due(load: Load) -> None:
    await load.kill_requested.wait()
    load.answered_at_kill = load.answered
    await asyncio.to_thread(load.victim.stop, "kill")


@pytest.fixture
def nginx() -> str:
    binary = nginx_binary()
    if binary is None:
        unavailable("nginx (Debian package `nginx`)")
        raise AssertionError("unreachable")
    return binary


@pytest.fixture
def notifier(tmp_path: Path) -> Iterator[Process]:
    """A notifier of this test's own, so its outbox holds only this test's messages."""
    process = start_domain(
        "notifier", {"NOTIFIER_OUTBOX_PATH": str(tmp_path / "outbox.sqlite3"), "TELEGRAM_BOT_TOKEN": ""}
    )
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
async def gateways(
    tmp_path: Path,
    domain_processes: dict[str, Process],
    notifier: Process,
    pg_database_url: str,
    redis_url: str,
) -> AsyncIterator[list[Process]]:
    domains = {"finance": domain_processes["finance"].url, "general": domain_processes["general"].url}
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {**domains, "notifier": notifier.url})
    env = {
        "DATABASE_URL": pg_database_url,
        "REDIS_URL": redis_url,
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": API_KEY,
        "ADMIN_TOKEN": "scale-out-admin",
        # a killed gateway's session locks free up within 2 s (the retried turn waits for them)
        "SESSION_LOCK_LEASE_S": "2",
    }
    started: list[Process] = []
    try:
        for _ in range(3):
            started.append(await asyncio.to_thread(start_gateway, env))
        yield started
    finally:
        for gateway in started:
            await asyncio.to_thread(gateway.stop)


@pytest.mark.postgres
@pytest.mark.redis
async def test_three_gateways_behind_nginx_lose_nothing_when_one_is_killed(
    tmp_path: Path, nginx: str, gateways: list[Process], notifier: Process
) -> None:
    victim, survivors = gateways[1], [gateways[0], gateways[2]]
    victim_addr = victim.url.removeprefix("http://")
    with nginx_over(nginx, [g.url for g in gateways], tmp_path / "nginx") as proxy:
        load = Load(proxy, victim)
        queue: asyncio.Queue[Job] = asyncio.Queue()
        all_jobs = jobs()
        for job in all_jobs:
            queue.put_nowait(job)
        limits = httpx.Limits(max_connections=CLIENTS)
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:
            killer = asyncio.create_task(kill_when_due(load))
            await asyncio.gather(*(client_loop(client, load, queue) for _ in range(CLIENTS)))
            await killer
        served = Counter(entry["upstream"].split(",")[0] for entry in proxy.access_log() if entry["upstream"])

    expected_turns = sum(len(job.texts) for job in all_jobs)
    print(
        f"\n{expected_turns} turns, killed after {load.answered_at_kill}; failed attempts: "
        f"{Counter(status for status, _ in load.failures)}; retries {load.retries}; recovered from "
        f"history {sum(a.recovered for a in load.accepted)}; served per upstream {dict(served)}"
    )
    # the kill happened mid-load: the victim had served turns, and many were answered after it
    assert load.answered_at_kill is not None and load.answered_at_kill < expected_turns - 50
    assert served[victim_addr] > 0
    assert len(load.accepted) == expected_turns
    # only requests caught on the killed gateway failed
    for status, upstream in load.failures:
        assert status == "502" and victim_addr in upstream, (status, upstream)

    async with httpx.AsyncClient(timeout=30, headers=HEADERS) as client:
        await check_background_runs(client, survivors, victim_addr, load.accepted)
        foreground = [job for job in all_jobs if job.kind != "background"]
        await check_nothing_lost(client, survivors, foreground, load.accepted)
        await check_sessions_intact(client, survivors[0].url, foreground)
        await check_notifications_once(client, survivors[1].url, notifier, load)


async def check_nothing_lost(
    client: httpx.AsyncClient, survivors: list[Process], all_jobs: list[Job], accepted: list[Accepted]
) -> None:
    """Every session's history and every accepted run, as each surviving gateway reads them."""
    by_session: dict[str, list[Accepted]] = {}
    for turn in accepted:
        by_session.setdefault(turn.session, []).append(turn)
    semaphore = asyncio.Semaphore(CLIENTS)

    async def check_session(url: str, job: Job) -> None:
        async with semaphore:
            turns = await history(client, url, job.session)
        assert [t["input_text"] for t in turns] == job.texts, (url, job.session, turns)
        assert [t["run_id"] for t in turns] == [a.run_id for a in by_session[job.session]]
        assert all(t["status"] == "completed" for t in turns), (job.session, turns)

    async def check_run(url: str, turn: Accepted) -> None:
        async with semaphore:
            response = await client.get(f"{url}/v1/runs/{turn.run_id}")
        assert response.status_code == 200, (url, turn, response.text)
        assert response.json()["session_id"] == turn.session

    await asyncio.gather(*(check_session(g.url, job) for g in survivors for job in all_jobs))
    # every accepted run, background runs of the killed gateway included, is found by id
    await asyncio.gather(*(check_run(g.url, turn) for g in survivors for turn in accepted))


async def check_background_runs(
    client: httpx.AsyncClient, survivors: list[Process], victim_addr: str, accepted: list[Accepted]
) -> None:
    """Background runs accepted (202) by a surviving gateway complete, and their turn is in the
    session's history on every survivor. Those the killed gateway accepted are findable (checked
    with every run) in whatever state it recorded last: nothing finishes them (printed)."""
    runs = [turn for turn in accepted if turn.background]
    assert len(runs) == BACKGROUND_RUNS
    stranded: Counter[str] = Counter()
    for turn in runs:
        if turn.upstream == victim_addr:
            run = (await client.get(f"{survivors[0].url}/v1/runs/{turn.run_id}")).json()
            stranded[run["status"]] += 1
            continue
        deadline = time.monotonic() + 60
        run = (await client.get(f"{survivors[0].url}/v1/runs/{turn.run_id}")).json()
        while run["status"] in ("queued", "executing") and time.monotonic() < deadline:
            await asyncio.sleep(0.1)  # polling, as a client without the live events would
            run = (await client.get(f"{survivors[0].url}/v1/runs/{turn.run_id}")).json()
        assert run["status"] == "completed", run
        for gateway in survivors:
            turns = await history(client, gateway.url, turn.session)
            assert [t["run_id"] for t in turns] == [turn.run_id], turns
    print(f"background runs accepted by the killed gateway, by recorded status: {dict(stranded)}")


async def check_sessions_intact(client: httpx.AsyncClient, url: str, all_jobs: list[Job]) -> None:
    """The graph state of each multi-turn or notification session: every message, then its answer."""
    for job in all_jobs:
        if job.kind == "quote":
            continue
        response = await client.get(f"{url}/v1/sessions/{job.session}")
        assert response.status_code == 200, response.text
        messages = response.json()["state"]["messages"]
        assert [m["role"] for m in messages] == ["user", "assistant"] * len(job.texts), job.session
        assert [m["content"] for m in messages[::2]] == job.texts, job.session
        assert all(m["content"] for m in messages[1::2]), job.session


async def check_notifications_once(
    client: httpx.AsyncClient, url: str, notifier: Process, load: Load
) -> None:
    """The outbox holds exactly one message per notification turn: the one its accepted run sent,
    also for a turn resent after its gateway died between the notifier's send and the commit (the
    resend carries the turn's ``Idempotency-Key``, so it is the same run, and the notifier
    answers its step's idempotency key from what it already sent)."""
    sent: dict[int, str] = {}
    for turn in load.accepted:
        if not turn.session.startswith("notify-"):
            continue
        trace = (await client.get(f"{url}/v1/runs/{turn.run_id}")).json()
        assert [s["capability"] for s in trace["steps"]] == ["get_stock_price", "send_telegram_message"]
        sent[trace["steps"][1]["output"]["result"]["outbox_id"]] = turn.session
    outbox = {m["id"]: m["message"] for m in (await client.get(f"{notifier.url}/outbox")).json()["messages"]}
    assert len(sent) == len(COMPANIES)
    assert set(sent) <= set(outbox), (sent, outbox)
    message_of = {session: outbox[outbox_id] for outbox_id, session in sent.items()}
    assert len(set(message_of.values())) == len(COMPANIES), message_of
    copies = Counter(outbox.values())
    repeated = {session: copies[message] for session, message in message_of.items() if copies[message] > 1}
    assert not repeated, (repeated, load.resent)
    assert len(outbox) == len(COMPANIES), outbox


# ---------------------------------------------------------------- nginx's retry rule, in isolation


class _Answers(BaseHTTPRequestHandler):
    """A healthy upstream: 200 to any GET or POST (the gateway's answer is not what is tested)."""

    def _answer(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.received.append(self.command)  # type: ignore[attr-defined]
        body = b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: Any) -> None:
        pass


class _DiesMidRequest(socketserver.BaseRequestHandler):
    """An upstream that reads a whole request and then vanishes, as a SIGKILLed gateway does."""

    def handle(self) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.request.recv(65536)
            if not chunk:
                return
            data += chunk
        self.server.received.append(data.split(b" ", 1)[0].decode())  # type: ignore[attr-defined]
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.request.close()  # RST, no answer


@contextmanager
def _serving(server: socketserver.BaseServer) -> Iterator[list[str]]:
    """``server`` in a thread; yields the methods of the requests it received."""
    received: list[str] = []
    server.received = received  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield received
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize(
    ("first", "method", "status", "first_received", "passed_on"),
    [
        # the first upstream got the POST and died: it may have acted, so nginx must not resend it
        ("dies", "POST", 502, ["POST"], False),
        # a read (GET) is safe to send again: it goes to the next upstream
        ("dies", "GET", 200, ["GET"], True),
        # nobody listens: the POST was never sent, so the next upstream gets it
        ("refuses", "POST", 200, [], True),
    ],
)
def test_nginx_passes_a_request_on_only_when_no_gateway_can_have_acted_on_it(
    tmp_path: Path,
    nginx: str,
    first: str,
    method: str,
    status: int,
    first_received: list[str],
    passed_on: bool,
) -> None:
    """The rule of deploy/gateway-proxy.conf (``proxy_next_upstream error timeout``, no
    ``non_idempotent``), shown on the first request of a fresh round robin over [first, healthy]."""
    healthy_server = ThreadingHTTPServer(("127.0.0.1", 0), _Answers)
    dying_server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _DiesMidRequest)
    with (
        _serving(healthy_server) as healthy_received,
        _serving(dying_server) as dying_received,
        reserve_port() as nowhere,  # held, never listening: not even nginx is given that port
    ):
        first_url = (
            f"http://127.0.0.1:{dying_server.server_address[1]}"
            if first == "dies"
            else nowhere.url  # nothing listens there
        )
        healthy_url = f"http://127.0.0.1:{healthy_server.server_address[1]}"
        with nginx_over(nginx, [first_url, healthy_url], tmp_path / "nginx") as proxy:
            response = httpx.request(method, f"{proxy.url}/v1/runs", json={"input_text": "x"}, timeout=30)
    assert response.status_code == status, response.text
    assert dying_received == first_received
    assert healthy_received == ([method] if passed_on else [])


def test_the_compose_load_balancer_config_is_accepted_by_nginx(tmp_path: Path, nginx: str) -> None:
    """deploy/nginx.conf as docker-compose mounts it, with the replicas' names (resolved by
    Docker's DNS there) and container paths pointed at loopback and this test's directory."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    for n in (1, 2, 3):
        assert f"server gateway-{n}:8000 " in conf
        conf = conf.replace(f"gateway-{n}:8000", f"127.0.0.1:{8000 + n}")
    assert "/etc/nginx/gateway-proxy.conf" in conf
    conf = conf.replace("/etc/nginx/gateway-proxy.conf", str(PROXY_CONF))
    conf = conf.replace("pid /tmp/nginx.pid", f"pid {tmp_path / 'nginx.pid'}")
    (tmp_path / "nginx.conf").write_text(conf)
    argv = [
        nginx,
        "-t",
        "-p",
        str(tmp_path),
        "-e",
        str(tmp_path / "error.log"),
        "-c",
        str(tmp_path / "nginx.conf"),
    ]
    checked = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr
