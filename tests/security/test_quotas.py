"""Quotas: a key had no limit at all, on requests or on runs at once. Now each key has a request
rate (``RATE_LIMIT_PER_MIN``) and a number of turns it may run at once
(``MAX_CONCURRENT_RUNS_PER_KEY``); over either, 429 ``rate_limit_exceeded`` with ``Retry-After``,
which the openai SDK reads as a ``RateLimitError`` it backs off from. With Redis the counts hold
across gateway replicas, and a killed gateway's run slots come back within their lease; without,
each process counts its own. A Redis outage is the shared store's 503, never a 500.

Real gateway processes over a real (slow) domain; the real Redis (``redis_url``), and a Redis of
the test's own where it must be stopped.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from openai._models import FinalRequestOptions

from tests.conftest import Process, gateway_over, start_fixture_domain
from tests.security.test_ready import RedisServer

pytestmark = pytest.mark.integration

#: what the slow domain answers; its turn holds a run slot for a few seconds
SLOW_TEXT = "reconcilia o inventário"
#: the slow domain's calls are cut at this (its manifest asks for more): a turn ends in seconds
DOMAIN_ENV = {"DOMAIN_TIMEOUT_MAX_S": "2", "BREAKER_THRESHOLD": "1000"}


@pytest.fixture(scope="module")
def slow() -> Iterator[dict[str, Process]]:
    domain = start_fixture_domain("slow_domain")
    try:
        yield {"slowpoke": domain}
    finally:
        domain.stop()


def new_key() -> str:
    return f"quota-{uuid.uuid4().hex[:12]}"


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def background(gateway: Process, key: str) -> httpx.Response:
    """A slow run in the background, on a session of its own."""
    body = {"input_text": SLOW_TEXT, "background": True, "session_id": f"q-{uuid.uuid4().hex[:10]}"}
    return httpx.post(f"{gateway.url}/v1/runs", json=body, headers=auth(key), timeout=30)


def sdk(gateway: Process, key: str, *, max_retries: int = 0) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{gateway.url}/v1", api_key=key, max_retries=max_retries, timeout=30)


def assert_over_quota(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 429, response.text
    error: dict[str, Any] = response.json()["error"]
    assert (error["type"], error["code"]) == ("rate_limit_error", "rate_limit_exceeded")
    assert 1 <= int(response.headers["retry-after"]) <= 60
    return error


def wait_finished(gateway: Process, key: str, run_id: str, timeout_s: float = 60) -> dict[str, Any]:
    """Poll the run until it has a final status (it is findable all along)."""
    deadline = time.monotonic() + timeout_s
    delay = 0.1
    while True:
        response = httpx.get(f"{gateway.url}/v1/runs/{run_id}", headers=auth(key), timeout=10)
        assert response.status_code == 200, response.text
        run: dict[str, Any] = response.json()
        if run["status"] not in ("queued", "executing"):
            return run
        assert time.monotonic() < deadline, run
        time.sleep(delay)
        delay = min(delay * 1.5, 1.0)


def test_over_the_request_rate_the_openai_sdk_gets_a_rate_limit_error_it_backs_off_from(
    slow: dict[str, Process], tmp_path: Path
) -> None:
    k1, k2 = new_key(), new_key()
    env = {"API_KEYS": f"{k1},{k2}", "RATE_LIMIT_PER_MIN": "3", **DOMAIN_ENV}
    with gateway_over(slow, tmp_path, env) as gateway:
        client = sdk(gateway, k1)
        for _ in range(3):
            client.models.list()
        with pytest.raises(openai.RateLimitError) as caught:
            client.models.list()
        error = caught.value
        assert (error.status_code, error.type, error.code) == (429, "rate_limit_error", "rate_limit_exceeded")
        retry_after = int(error.response.headers["retry-after"])
        assert 1 <= retry_after <= 60
        # the SDK retries a 429 and waits exactly what the header says (its own backoff logic)
        assert client._should_retry(error.response)
        options = FinalRequestOptions.construct(method="get", url="/models")
        assert client._calculate_retry_timeout(1, options, error.response.headers) == retry_after
        # every /v1 route counts, and another key has a quota of its own
        assert_over_quota(httpx.get(f"{gateway.url}/v1/sessions", headers=auth(k1), timeout=10))
        assert len(sdk(gateway, k2).models.list().data) >= 1


def accepted_once_free(gateway: Process, key: str, timeout_s: float = 15) -> httpx.Response:
    """A background run of ``key``, sent again (backing off) while its slots are all taken."""
    deadline = time.monotonic() + timeout_s
    delay = 0.05
    while (response := background(gateway, key)).status_code == 429:
        assert "at once" in response.json()["error"]["message"], response.text
        assert time.monotonic() < deadline, "the key's run slots never came back"
        time.sleep(delay)
        delay *= 2
    assert response.status_code == 202, response.text
    return response


def test_without_redis_a_gateway_limits_a_keys_runs_at_once_in_process(
    slow: dict[str, Process], tmp_path: Path
) -> None:
    k1, k2 = new_key(), new_key()
    env = {"API_KEYS": f"{k1},{k2}", "MAX_CONCURRENT_RUNS_PER_KEY": "1", **DOMAIN_ENV}
    with gateway_over(slow, tmp_path, env) as gateway:
        first = background(gateway, k1)
        assert first.status_code == 202, first.text
        # the background run holds k1's one slot: a chat completion and another run are refused
        with pytest.raises(openai.RateLimitError) as caught:
            sdk(gateway, k1).chat.completions.create(
                model="orchestrator", messages=[{"role": "user", "content": SLOW_TEXT}]
            )
        assert caught.value.code == "rate_limit_exceeded"
        assert "at once" in assert_over_quota(background(gateway, k1))["message"]
        # nothing was recorded for the refused run, and other keys are not held back
        assert background(gateway, k2).status_code == 202
        # the slot comes back once the run has ended
        wait_finished(gateway, k1, first.json()["run_id"])
        second = accepted_once_free(gateway, k1)
        wait_finished(gateway, k1, second.json()["run_id"])
        # a streamed answer holds its slot until the stream ends
        chat = {"model": "orchestrator", "stream": True, "messages": [{"role": "user", "content": SLOW_TEXT}]}
        while True:
            with httpx.stream(
                "POST", f"{gateway.url}/v1/chat/completions", json=chat, headers=auth(k1), timeout=60
            ) as stream:
                if stream.status_code == 429:  # the background run's slot is on its way back
                    stream.read()
                    time.sleep(0.05)
                    continue
                assert stream.status_code == 200
                assert "at once" in assert_over_quota(background(gateway, k1))["message"]
                assert [line for line in stream.iter_lines() if line.startswith("data: ")][
                    -1
                ] == "data: [DONE]"
                break
        accepted_once_free(gateway, k1)


@pytest.mark.redis
def test_two_gateways_sharing_redis_share_the_quotas_and_a_killed_ones_slots_come_back(
    slow: dict[str, Process], tmp_path: Path, redis_url: str
) -> None:
    k1, k2, k3 = new_key(), new_key(), new_key()
    env = {
        "API_KEYS": f"{k1},{k2},{k3}",
        "REDIS_URL": redis_url,
        "MAX_CONCURRENT_RUNS_PER_KEY": "2",
        "RATE_LIMIT_PER_MIN": "20",
        "QUOTA_SLOT_LEASE_S": "1",
        **DOMAIN_ENV,
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with contextlib.ExitStack() as stack:
        a = stack.enter_context(gateway_over(slow, tmp_path / "a", env))
        b = stack.enter_context(gateway_over(slow, tmp_path / "b", env))
        # the request rate: 10 requests on each gateway use k3's 20; the next, on either, is refused
        for gateway in (a, b):
            for _ in range(10):
                assert httpx.get(f"{gateway.url}/v1/models", headers=auth(k3), timeout=10).status_code == 200
        assert_over_quota(httpx.get(f"{a.url}/v1/models", headers=auth(k3), timeout=10))
        assert_over_quota(httpx.get(f"{b.url}/v1/models", headers=auth(k3), timeout=10))

        # runs at once: k1's two slots are taken on A; B refuses k1's third, not k2's first
        for _ in range(2):
            assert background(a, k1).status_code == 202
        assert "at once" in assert_over_quota(background(b, k1))["message"]
        with pytest.raises(openai.RateLimitError):
            sdk(b, k1).chat.completions.create(
                model="orchestrator", messages=[{"role": "user", "content": SLOW_TEXT}]
            )
        assert background(b, k2).status_code == 202

        # A dies holding k1's slots (its runs never end there): they come back within the lease
        a.stop("kill")
        accepted_once_free(b, k1)


@pytest.mark.redis
def test_a_redis_outage_under_quotas_is_a_503_not_a_500(slow: dict[str, Process], tmp_path: Path) -> None:
    own_redis = RedisServer(tmp_path)
    own_redis.start()
    try:
        env = {
            "REDIS_URL": own_redis.url,
            "REDIS_TIMEOUT_S": "1",
            "RATE_LIMIT_PER_MIN": "100",
            "MAX_CONCURRENT_RUNS_PER_KEY": "5",
            **DOMAIN_ENV,
        }
        with gateway_over(slow, tmp_path, env) as gateway:
            assert httpx.get(f"{gateway.url}/v1/models", timeout=10).status_code == 200
            own_redis.kill()
            for response in (
                httpx.get(f"{gateway.url}/v1/models", timeout=30),
                httpx.post(
                    f"{gateway.url}/v1/runs", json={"input_text": SLOW_TEXT, "background": True}, timeout=30
                ),
            ):
                assert response.status_code == 503, response.text
                assert response.json()["error"]["code"] == "service_unavailable"
                assert response.headers["retry-after"] == "1"
    finally:
        own_redis.kill()
