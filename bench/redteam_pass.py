"""Issue 24's red-team pass, run again against the fixed code: real processes, real HTTP.

Per backend (SQLite, the default; PostgreSQL with Redis):

* **schemathesis** over every operation of the gateway's OpenAPI document, with each user key
  and with the admin key (valid and invalid requests from the document's own schemas);
* **races** at 40 rounds: tenant A forks into a new id while tenant B queues a background run on
  it; A's turn and B's background run start one new id at once;
* **hand-made inputs** on the channels outside the document: A2A (``/a2a``) and the Telegram
  webhook (NUL, lone surrogates, invalid UTF-8, deep JSON, huge integers, over-long texts);
* **hostile domains** in the registry all along: one answering ``/health`` with a
  ``gzip, gzip`` bomb (about 1 KB inflating to 512 MiB), one whose lookup table hangs after its
  first answer; meanwhile a domain that was down is started, and the time until the gateway
  routes to it again is measured.

Counted: cases tried, server errors (500, 502, 504; a 503 is counted apart, with its code: the
documented answer for a domain that cannot be reached), hangs (no answer within 30 s), ownership
leaks and lost turns in the races, 5xx or internal text on the hand-made inputs, and the
gateway's peak RSS growth over the whole pass.

    .venv/bin/python bench/redteam_pass.py [--examples 15] [--backends sqlite,postgresql]

Results: ``bench/results/redteam.md`` (overwritten).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from redis import Redis
from schemathesis import GenerationMode
from schemathesis.core.result import Ok
from schemathesis.schemas import APIOperation

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import (  # noqa: E402
    Process,
    free_port,
    start_domain,
    start_fixture_domain,
    start_gateway,
    start_service,
    write_bootstrap,
)
from tests.security.conftest import pg_database  # noqa: E402
from tests.security.test_answer_size_cap import peak_rss_mb, reset_peak  # noqa: E402

K1, K2, ADMIN = "redteam-user-one-5f2a", "redteam-user-two-c81d", "redteam-admin-77e0"
TELEGRAM_SECRET = "redteam-telegram-secret"
ROUNDS = 40
HANG_S = 30.0
INTERNAL = ("Traceback", "sqlalchemy", "asyncpg", "sqlite3", "INSERT INTO", "SELECT ", 'File "')
TURN_PATHS = {"/v1/chat/completions", "/v1/responses", "/v1/runs"}
#: registration reaches out to the URL it is given: fewer examples
SLOW_PATHS = {"/v1/domains"}


@dataclass
class Tally:
    cases: int = 0
    server_errors: Counter[str] = field(default_factory=Counter)
    unavailable: Counter[str] = field(default_factory=Counter)
    hangs: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)

    def answer(self, label: str, status: int, body: str, sent: str = "") -> None:
        """Count one answer; ``sent``: what the request carried (an answer that echoes the
        request's own text, as a 404 naming the id asked for does, leaks nothing)."""
        self.cases += 1
        if status == 503:
            code = ""
            with contextlib.suppress(ValueError, KeyError, TypeError):
                code = json.loads(body)["error"]["code"]
            self.unavailable[f"{label} ({code})"] += 1
        elif status >= 500:
            self.server_errors[label] += 1
        found = [m for m in INTERNAL if m in body and m not in sent]
        if found:
            self.leaks.append(f"{label}: {found} in a {status}: {body[:200]!r}")


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


# ---------------------------------------------------------------- schemathesis


def operations(gateway: Process) -> list[APIOperation]:
    document = httpx.get(f"{gateway.url}/openapi.json", timeout=30).json()
    found = []
    for result in schemathesis.openapi.from_dict(document).get_all_operations():
        if isinstance(result, Ok):
            found.append(result.ok())
    return found


def fuzz(operation: APIOperation, gateway: Process, key: str, examples: int, tally: Tally) -> None:
    modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    strategies = [operation.as_strategy(mode) for mode in modes]
    if operation.path == "/v1/runs":
        strategies.append(
            st.text(min_size=1, max_size=200).flatmap(
                lambda text: operation.as_strategy(GenerationMode.POSITIVE, body={"input_text": text})
            )
        )

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=st.one_of(*strategies))
    def run(case: Any) -> None:
        try:
            response = case.call(base_url=gateway.url, headers=auth(key), timeout=HANG_S)
        except Exception as exc:  # requests' timeout or a dropped connection: no answer
            tally.cases += 1
            tally.hangs.append(f"{operation.label}: {type(exc).__name__}")
            return
        sent = "\n".join(_texts((case.path_parameters, case.query, case.headers, case.body)))
        tally.answer(operation.label, response.status_code, response.text, sent)

    with contextlib.suppress(Exception):  # a strategy schemathesis cannot build: skip the operation
        run()


def _texts(value: Any) -> Iterator[str]:
    """Every string (keys included) inside ``value``."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def schemathesis_pass(gateway: Process, examples: int) -> Tally:
    tally = Tally()
    for key in (K1, K2, ADMIN):
        for operation in operations(gateway):
            if (
                operation.path.startswith(("/v1/admin", "/v1/domains"))
                and key != ADMIN
                and operation.method != "get"
            ):
                budget = 3  # a user key gets 403 there: a few are enough
            elif operation.path in SLOW_PATHS:
                budget = 5
            elif operation.path in TURN_PATHS:
                budget = max(3, examples // 2)
            else:
                budget = examples
            fuzz(operation, gateway, key, budget, tally)
    return tally


# ---------------------------------------------------------------- races


async def _fork_rounds(gateway: Process, tally: Tally) -> None:
    async with httpx.AsyncClient(base_url=gateway.url, timeout=HANG_S) as http:
        session = f"rt-src-{uuid.uuid4().hex[:8]}"
        said = await http.post(
            "/v1/runs", json={"input_text": "cotação da Apple", "session_id": session}, headers=auth(K1)
        )
        versions = (await http.get(f"/v1/sessions/{session}", headers=auth(K1))).json()["versions"]
        version = next(v["version"] for v in versions if v["step_boundary"])
        assert said.status_code == 200
        for _ in range(ROUNDS):
            target = f"rt-fork-{uuid.uuid4().hex[:10]}"
            fork, queued = await _answers(
                http.post(
                    f"/v1/sessions/{session}/fork",
                    json={"version": version, "new_session_id": target},
                    headers=auth(K1),
                ),
                http.post(
                    "/v1/runs",
                    json={"input_text": "oi", "session_id": target, "background": True},
                    headers=auth(K2),
                ),
            )
            tally.answer("race: fork", fork.status_code, fork.text)
            tally.answer("race: background run", queued.status_code, queued.text)
            (b_reads,) = await _answers(http.get(f"/v1/sessions/{target}/versions/0", headers=auth(K2)))
            if fork.status_code == 201 and (queued.status_code == 202 or b_reads.status_code == 200):
                tally.leaks.append(
                    f"fork {target}: A got 201, B got {queued.status_code}, B reads {b_reads.status_code}"
                )


async def _first_turn_rounds(gateway: Process, tally: Tally) -> None:
    async with httpx.AsyncClient(base_url=gateway.url, timeout=HANG_S) as http:
        for i in range(ROUNDS):
            target = f"rt-new-{uuid.uuid4().hex[:10]}"
            sync_key, other = (K1, K2) if i % 2 == 0 else (K2, K1)
            turn, queued = await _answers(
                http.post(
                    "/v1/runs",
                    json={"input_text": "cotação da Apple", "session_id": target},
                    headers=auth(sync_key),
                ),
                http.post(
                    "/v1/runs",
                    json={"input_text": "oi", "session_id": target, "background": True},
                    headers=auth(other),
                ),
            )
            tally.answer("race: first turn", turn.status_code, turn.text)
            tally.answer("race: background run", queued.status_code, queued.text)
            if (turn.status_code, queued.status_code) not in {(200, 404), (404, 202)}:
                tally.lost.append(
                    f"new id {target}: turn {turn.status_code}, background {queued.status_code}"
                )
            if turn.status_code == 200 and "run_id" in turn.json():
                (read,) = await _answers(http.get(f"/v1/sessions/{target}/history", headers=auth(sync_key)))
                if turn.json()["run_id"] not in [t["run_id"] for t in read.json().get("turns", [])]:
                    tally.lost.append(f"new id {target}: the answered turn is not in the history")


class _Dropped:
    """A request the server answered by dropping the connection (as uvicorn does after a 500 it
    could not send): counted as a server error."""

    status_code = 599
    text = ""

    def json(self) -> dict[str, Any]:
        return {}


async def _answers(*requests: Any) -> list[Any]:
    done = await asyncio.gather(*requests, return_exceptions=True)
    return [_Dropped() if isinstance(r, httpx.TransportError) else r for r in done]


def races(gateway: Process) -> Tally:
    tally = Tally()
    asyncio.run(_fork_rounds(gateway, tally))
    asyncio.run(_first_turn_rounds(gateway, tally))
    return tally


# ---------------------------------------------------------------- hand-made inputs


def a2a_body(text_json: str, extra: str = "") -> bytes:
    return (
        '{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": '
        f'{{"role": "user", "messageId": "{uuid.uuid4().hex}", "contextId": "rt-{uuid.uuid4().hex[:8]}", '
        f'"parts": [{{"kind": "text", "text": {text_json}}}]{extra}}}}}}}'
    ).encode()


def telegram_body(text_json: str, chat: str = "4242") -> bytes:
    return (
        '{"update_id": 1, "message": {"message_id": 2, "chat": {"id": '
        + chat
        + '}, "text": '
        + text_json
        + "}}"
    ).encode()


HOSTILE_TEXTS = ['"oi\\u0000"', '"oi \\ud800"', json.dumps("a" * 40_000), '"cotação da Apple"']


def _send(tally: Tally, label: str, url: str, **kwargs: Any) -> None:
    try:
        response = httpx.post(url, timeout=HANG_S, **kwargs)
    except httpx.TimeoutException:
        tally.cases += 1
        tally.hangs.append(label)
        return
    except httpx.TransportError:  # the connection dropped instead of an answer
        tally.answer(label, 599, "")
        return
    tally.answer(label, response.status_code, response.text)


def hand_made(gateway: Process) -> Tally:
    tally = Tally()
    bodies = [a2a_body(t) for t in HOSTILE_TEXTS] + [
        a2a_body('"oi"', ', "metadata": {"n": 123456789012345678901234567890}'),
        a2a_body('"oi"').replace(b'"oi"', b'"o\xff\xfei"'),
        b"[" * 100_000 + b"]" * 100_000,
        b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b', "method": "message/send"}',
    ]
    for body in bodies:
        headers = {**auth(K1), "Content-Type": "application/json"}
        _send(tally, "a2a", f"{gateway.url}/a2a", content=body, headers=headers)
    webhook = f"{gateway.url}/channels/telegram/webhook"
    updates = [telegram_body(t) for t in HOSTILE_TEXTS] + [
        telegram_body('"oi"', chat="9" * 400),
        telegram_body('"oi"').replace(b'"oi"', b'"o\xff\xfei"'),
        b"[" * 100_000 + b"]" * 100_000,
    ]
    for body in updates:
        secret = {"X-Telegram-Bot-Api-Secret-Token": TELEGRAM_SECRET}
        _send(tally, "telegram", webhook, content=body, headers=secret)
    for url in ("http://a..b", "http://xn--a", "http://☃.example", "http://.x"):
        probe = {"name": "probe", "base_url": url}
        _send(tally, "registration host", f"{gateway.url}/v1/domains", json=probe, headers=auth(ADMIN))
    return tally


# ---------------------------------------------------------------- the gateway and its domains


@dataclass
class Domains:
    healthy: dict[str, Process]
    late_port: int


@contextlib.contextmanager
def domains() -> Iterator[Domains]:
    started: list[Process] = []
    try:
        for name in ("finance", "notifier", "general"):
            started.append(start_domain(name, {"TELEGRAM_BOT_TOKEN": ""}))
        started.append(start_fixture_domain("compressed_bomb_domain"))
        started.append(start_fixture_domain("slow_lookup_domain"))
        yield Domains({p.name: p for p in started}, free_port())
    finally:
        for process in started:
            process.stop()


def names(domains: Domains) -> dict[str, str]:
    renamed = {"compressed_bomb_domain": "bomb", "slow_lookup_domain": "plants"}
    urls = {renamed.get(n, n): p.url for n, p in domains.healthy.items()}
    return {**urls, "weather": f"http://127.0.0.1:{domains.late_port}"}


def seconds_until_routed(gateway: Process, domains: Domains) -> float:
    """Start the domain that was down at the gateway's start; seconds until the gateway lists it healthy."""
    late = start_service(
        "weather", [str(ROOT / "tests" / "fixtures" / "weather_domain.py")], None, domains.late_port
    )
    try:
        started = time.monotonic()
        while time.monotonic() - started < 120:
            listed = httpx.get(f"{gateway.url}/v1/domains", headers=auth(ADMIN), timeout=HANG_S).json()[
                "data"
            ]
            if any(d["name"] == "weather" and d["healthy"] for d in listed):
                return time.monotonic() - started
            time.sleep(0.05)
        return float("inf")
    finally:
        late.stop()


def run_backend(backend: str, domains: Domains, examples: int, work: Path) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        env = {
            "BOOTSTRAP_FILE": str(write_bootstrap(work / f"{backend}.json", names(domains))),
            "API_KEYS": f"{K1},{K2}",
            "ADMIN_TOKEN": ADMIN,
            "TELEGRAM_WEBHOOK_SECRET": TELEGRAM_SECRET,
            "REGISTRY_REFRESH_S": "2",
            "LOG_LEVEL": "CRITICAL",
        }
        if backend == "sqlite":
            env |= {"DATABASE_URL": f"sqlite+aiosqlite:///{work / 'redteam.sqlite3'}", "REDIS_URL": ""}
        else:
            redis_url = "redis://127.0.0.1:6379/9"
            Redis.from_url(redis_url).flushdb()  # counters and versions of an earlier pass
            env |= {"DATABASE_URL": stack.enter_context(pg_database()), "REDIS_URL": redis_url}
        gateway = start_gateway(env)
        stack.callback(gateway.stop)
        pid = gateway.proc.pid
        reset_peak(pid)
        before = peak_rss_mb(pid)
        started = time.monotonic()
        fuzzed = schemathesis_pass(gateway, examples)
        raced = races(gateway)
        made = hand_made(gateway)
        routed_after = seconds_until_routed(gateway, domains)
        listed = {
            d["name"]: d
            for d in httpx.get(f"{gateway.url}/v1/domains", headers=auth(ADMIN), timeout=HANG_S).json()[
                "data"
            ]
        }
        return {
            "backend": backend,
            "schemathesis": fuzzed,
            "races": raced,
            "hand-made": made,
            "restarted domain routed after s": routed_after,
            "bomb": listed.get("bomb", {}).get("last_error"),
            "plants": listed.get("plants", {}).get("last_error"),
            "peak RSS growth MB": peak_rss_mb(pid) - before,
            "minutes": (time.monotonic() - started) / 60,
        }


def report(results: list[dict[str, Any]], examples: int) -> str:
    lines = [
        "# Red-team pass (issue 24), re-run on the fixed code",
        "",
        f"Command: `.venv/bin/python bench/redteam_pass.py --examples {examples}` "
        "(the module docstring says what each part does).",
        "",
        "| backend | part | cases | server errors (500/502/504) | 503 (code) | hangs | leaks, internal text "
        "| lost turns |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        for part in ("schemathesis", "races", "hand-made"):
            tally: Tally = result[part]
            unavailable = ", ".join(f"{k}: {v}" for k, v in tally.unavailable.items()) or "0"
            errors = ", ".join(f"{k}: {v}" for k, v in tally.server_errors.items()) or "0"
            lines.append(
                f"| {result['backend']} | {part} | {tally.cases} | {errors} | {unavailable} "
                f"| {len(tally.hangs)} | {len(tally.leaks)} | {len(tally.lost)} |"
            )
    lines += [
        "",
        "| backend | restarted domain routed after | bomb domain | slow-lookup domain "
        "| gateway peak RSS growth | minutes |",
        "|---|---|---|---|---|---|",
    ]
    for result in results:
        lines.append(
            f"| {result['backend']} | {result['restarted domain routed after s']:.2f} s | {result['bomb']} "
            f"| {result['plants']} | {result['peak RSS growth MB']:.0f} MB | {result['minutes']:.1f} |"
        )
    details = [
        f"- {result['backend']} {part}: {item}"
        for result in results
        for part in ("schemathesis", "races", "hand-made")
        for item in [*result[part].hangs, *result[part].leaks, *result[part].lost]
    ]
    if details:
        lines += ["", "Details:", "", *details[:60]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--examples", type=int, default=15, help="schemathesis examples per operation and key"
    )
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "redteam.md")
    options = parser.parse_args()
    work = Path(f"/tmp/redteam-{uuid.uuid4().hex[:8]}")
    work.mkdir()
    results = []
    with domains() as running:
        for backend in options.backends.split(","):
            results.append(run_backend(backend, running, options.examples, work))
            print(f"{backend} done", flush=True)
    text = report(results, options.examples)
    options.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
