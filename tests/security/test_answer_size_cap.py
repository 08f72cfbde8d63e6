"""Finding 6: a domain's answer is read with a streamed size cap. A 50 MB answer from a real
domain process fails the call cleanly and never lands in the reader's memory (peak RSS, read from
/proc, does not grow by the body size), in the client and in a running gateway."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from orchestrator import DomainClient
from orchestrator.client import domain_http_client
from shared.errors import DomainProtocolError
from shared.models import ExecutionIntent
from tests.conftest import Process, start_fixture_domain, start_gateway, write_bootstrap

BODY_MB = 50
CAP = 1_048_576


@pytest.fixture(scope="module")
def bulky() -> Iterator[Process]:
    domain = start_fixture_domain("huge_answer_domain")
    try:
        yield domain
    finally:
        domain.stop()


def peak_rss_mb(pid: int | str = "self") -> float:
    """The process's peak resident set size since :func:`reset_peak` (``VmHWM``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    assert found is not None
    return int(found.group(1)) / 1024


def reset_peak(pid: int | str = "self") -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # "5": reset the peak RSS to the current RSS


def _intent() -> ExecutionIntent:
    return ExecutionIntent(domain="bulky", capability="dump", confidence=1.0, original_query="dump")


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
async def test_a_huge_answer_fails_the_call_without_being_held(bulky: Process, transport: str) -> None:
    http = (
        domain_http_client(timeout=30.0, max_answer_bytes=CAP)
        if transport == "aiohttp"
        else httpx.AsyncClient(timeout=30.0)
    )
    async with http:
        client = DomainClient(http, max_answer_bytes=CAP)
        reset_peak()
        before = peak_rss_mb()
        with pytest.raises(DomainProtocolError, match=f"answered with a body larger than {CAP} bytes"):
            await client.execute(bulky.url, _intent(), "k-1")
        grown = peak_rss_mb() - before
    assert grown < BODY_MB / 5, f"peak RSS grew {grown:.1f} MB reading a capped {BODY_MB} MB answer"


async def test_without_a_cap_the_same_answer_is_held_whole(bulky: Process) -> None:
    """The measurement above can fail: reading the answer uncapped grows the peak by its size."""
    async with httpx.AsyncClient(timeout=60.0) as http:
        reset_peak()
        before = peak_rss_mb()
        output = await DomainClient(http).execute(bulky.url, _intent(), "k-2")
        grown = peak_rss_mb() - before
    assert len(output.explanation) == BODY_MB * 1024 * 1024
    assert grown > BODY_MB * 0.9


def _dump(gateway: Process, session: str) -> httpx.Response:
    return httpx.post(
        f"{gateway.url}/v1/chat/completions",
        json={"model": "orchestrator", "messages": [{"role": "user", "content": "dump everything"}]},
        headers={"X-Session-Id": session},
        timeout=60,
    )


def _gateway_turn(bulky: Process, folder: Path, cap: int) -> tuple[httpx.Response, float]:
    """Measured turns on a gateway whose answer cap is ``cap``: (a response, the least peak RSS
    growth of three turns, in MB)."""
    gateway = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'g.sqlite3'}",
            "BOOTSTRAP_FILE": str(write_bootstrap(folder / "b.json", {"bulky": bulky.url})),
            "REDIS_URL": "",
            "API_KEYS": "",
            "CONFIDENCE_THRESHOLD": "0",
            "DOMAIN_MAX_ANSWER_BYTES": str(cap),
        }
    )
    try:
        pid = gateway.proc.pid
        _dump(gateway, "warm-up")  # the first turn loads what every turn uses: not measured
        # the least growth of three turns: on a busy machine something else in the process (a
        # health refresh, a collection) can raise the peak during one turn, but a turn that held
        # the answer raises it every time
        measured: list[tuple[httpx.Response, float]] = []
        for turn in range(3):
            reset_peak(pid)
            before = peak_rss_mb(pid)
            response = _dump(gateway, f"measured-{turn}")
            measured.append((response, peak_rss_mb(pid) - before))
        return min(measured, key=lambda m: m[1])
    finally:
        gateway.stop()


@pytest.mark.integration
def test_a_gateway_turn_fails_cleanly_and_its_memory_stays_flat(bulky: Process, tmp_path: Path) -> None:
    response, grown = _gateway_turn(bulky, tmp_path, CAP)
    assert response.status_code == 200, response.text
    answer = response.json()["choices"][0]["message"]["content"]
    assert "bulky" in answer and "http://" not in answer, answer
    # half the body: a turn that held the answer grows the peak by all of it (the test below); the
    # margin is for what else a gateway allocates during a turn in a busy suite (up to ~15 MB seen)
    assert grown < BODY_MB / 2, f"gateway peak RSS grew {grown:.1f} MB"


@pytest.mark.integration
def test_a_gateway_with_a_cap_above_the_answer_holds_it_whole(bulky: Process, tmp_path: Path) -> None:
    """The measurement above can fail: the same turn with the cap above the body grows the peak."""
    _response, grown = _gateway_turn(bulky, tmp_path, 200 * 1024 * 1024)
    assert grown > BODY_MB * 0.9, f"gateway peak RSS grew only {grown:.1f} MB"
