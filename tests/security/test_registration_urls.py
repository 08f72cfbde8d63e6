"""Finding 10: registration's outbound-URL policy. Only plain http(s) base URLs (no credentials,
query or fragment), never link-local or metadata addresses, only allowed hosts when an
allow-list is set; failures answer one text whatever the target (no port scan), except for the
hosts the operator listed as its domains' (the allow-list), which are told what happened."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse

from orchestrator import DomainClient, DomainRegistry
from orchestrator.registry import ManifestRejected
from orchestrator.url_policy import BAD_HOST, DENIED, MALFORMED, UrlPolicy, UrlRefused
from shared.errors import DomainUnavailable
from tests.conftest import Process, free_port, reserve_port, start_gateway, write_bootstrap
from tests.security.conftest import raw_app, serving


@pytest.mark.parametrize(
    "url",
    [
        "http://user:pass@127.0.0.1:8001",
        "http://127.0.0.1:8001/?",
        "http://127.0.0.1:8001/admin?x=1",
        "http://127.0.0.1:8001/#",
        "ftp://127.0.0.1:8001",
        "http://127.0.0.1:99999",
        "http://127.0.0.1:8001/a b",
        "http:///nohost",
    ],
)
def test_urls_that_are_not_plain_base_urls_are_refused(url: str) -> None:
    with pytest.raises(UrlRefused) as err:
        UrlPolicy(resolve=False).check(url)
    assert err.value.message == MALFORMED and err.value.status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data",
        "http://[fe80::1]:8000",
        "http://[::ffff:169.254.169.254]",
        "http://metadata.google.internal",
        "http://100.100.100.200",
    ],
)
def test_link_local_and_metadata_addresses_are_refused(url: str) -> None:
    with pytest.raises(UrlRefused) as err:
        UrlPolicy(resolve=False).check(url)
    assert err.value.message == DENIED


def test_a_host_name_is_judged_by_the_addresses_it_resolves_to() -> None:
    assert UrlPolicy().check("http://localhost:8001/") == "http://localhost:8001"
    with pytest.raises(UrlRefused):
        UrlPolicy(["10.0.0.0/8"]).check("http://localhost:8001")  # resolves to loopback
    assert UrlPolicy(["127.0.0.0/8"]).check("http://localhost:8001") == "http://localhost:8001"


def test_an_allow_list_refuses_everything_else() -> None:
    policy = UrlPolicy(["finance", "10.1.0.0/16"], resolve=False)
    assert policy.check("http://finance:8001") == "http://finance:8001"
    assert policy.check("http://10.1.2.3:8001") == "http://10.1.2.3:8001"
    for url in ("http://10.2.0.1", "http://elsewhere:8001", "http://127.0.0.1:8001"):
        with pytest.raises(UrlRefused):
            policy.check(url)


@pytest.fixture
async def registry() -> AsyncIterator[DomainRegistry]:
    async with httpx.AsyncClient(timeout=5) as http:
        yield DomainRegistry(DomainClient(http), env={})


def _internal_service() -> FastAPI:
    app = FastAPI()

    @app.get("/{path:path}")
    async def anything(path: str) -> PlainTextResponse:
        return PlainTextResponse(f"internal secret at /{path}")

    return app


async def test_failures_read_the_same_for_a_closed_port_and_an_open_one(registry: DomainRegistry) -> None:
    """With no DOMAIN_ALLOWED_HOSTS the registration may reach any host of the gateway's
    networks: there the one text is the security property (an admin key must not map which
    internal ports are open). Issue 28 changed that text, deliberately, so that it no longer
    claims the domain answered; it still reads the same for a closed port and an open one."""
    # held, never listening: closed, and not given to the open service started next
    with reserve_port() as reserved:
        closed = reserved.url
        async with serving(_internal_service()) as open_port:
            answers = []
            for url in (closed, open_port):
                with pytest.raises(DomainUnavailable) as err:
                    await registry.register("probe", url)
                answers.append(err.value.message.replace(url, "<url>"))
    assert (
        answers
        == [
            "domain at <url> could not be registered: no valid manifest was read from its /manifest: "
            "it may not be listening, may be too slow or may answer something else "
            "(the gateway log names the cause)"
        ]
        * 2
    )
    assert registry.list() == []


def _slow_service() -> FastAPI:
    app = FastAPI()

    @app.get("/manifest")
    async def manifest() -> PlainTextResponse:
        await asyncio.sleep(5)
        return PlainTextResponse("{}")

    return app


async def test_the_operators_own_hosts_are_told_what_happened() -> None:
    """Issue 28: a host the operator listed (DOMAIN_ALLOWED_HOSTS) is its own domain's, not a
    probe target, so the registration says what happened: could not connect, timed out, an HTTP
    error, or an answer that is not a manifest (field paths when it is JSON)."""
    async with httpx.AsyncClient(timeout=5) as http:
        registry = DomainRegistry(
            DomainClient(http), env={}, url_policy=UrlPolicy(["127.0.0.0/8"]), load_deadline_s=1.0
        )
        closed = f"http://127.0.0.1:{free_port()}"
        with pytest.raises(DomainUnavailable) as err:
            await registry.register("probe", closed)
        assert err.value.message == (
            f"domain at {closed} could not be registered: could not connect to {closed}/manifest"
        )
        async with serving(_internal_service()) as text_only, serving(FastAPI()) as no_manifest:
            with pytest.raises(DomainUnavailable) as err:
                await registry.register("probe", text_only)
            assert err.value.message.endswith(
                f"could not be registered: {text_only}/manifest answered with a body "
                "that is not a JSON object"
            )
            with pytest.raises(DomainUnavailable) as err:
                await registry.register("probe", no_manifest)
            assert f"could not be registered: {no_manifest}/manifest answered HTTP 404" in err.value.message
        async with serving(_slow_service()) as slow:
            with pytest.raises(DomainUnavailable) as err:
                await registry.register("probe", slow)
            assert err.value.message.endswith(
                "could not be registered: no manifest and health answer within 1 s"
            )
        async with serving(raw_app({"domain": "probe", "version": 1})) as invalid:
            with pytest.raises(ManifestRejected) as rejected:
                await registry.register("probe", invalid)
            assert {"path": "version", "message": "1 is not of type 'string'"} in rejected.value.details
        assert registry.list() == []


async def test_a_credentials_url_is_refused_before_any_request(registry: DomainRegistry) -> None:
    with pytest.raises(UrlRefused) as err:
        await registry.register("probe", "http://user:pass@127.0.0.1:1")
    assert err.value.status_code == 400 and err.value.param == "base_url"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    folder = tmp_path_factory.mktemp("gateway")
    process = start_gateway(
        {
            "ADMIN_TOKEN": "admin-secret",
            "API_KEYS": "user-key",
            "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'g.sqlite3'}",
            "BOOTSTRAP_FILE": str(write_bootstrap(Path(folder / "b.json"), {})),
            "REDIS_URL": "",
        }
    )
    try:
        yield process
    finally:
        process.stop()


@pytest.mark.integration
@pytest.mark.parametrize(
    ("base_url", "code"),
    [
        ("http://user:pass@127.0.0.1:1", "base_url_refused"),
        ("http://169.254.169.254", "base_url_refused"),
        ("http://127.0.0.1:1/?", "base_url_refused"),
        # issue 24, finding 9: host names the HTTP client cannot encode
        ("http://a..b", "base_url_refused"),
        ("http://xn--a", "base_url_refused"),
        ("http://.example", "base_url_refused"),
        ("http://" + "a" * 64 + ".example", "base_url_refused"),
    ],
)
def test_the_admin_route_answers_400_not_500(gateway: Process, base_url: str, code: str) -> None:
    response = httpx.post(
        f"{gateway.url}/v1/domains",
        json={"name": "probe", "base_url": base_url},
        headers={"Authorization": "Bearer admin-secret"},
        timeout=30,
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == code


@pytest.fixture(scope="module")
def gateway_with_allowed_hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    folder = tmp_path_factory.mktemp("gateway-allowed")
    process = start_gateway(
        {
            "ADMIN_TOKEN": "admin-secret",
            "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'g.sqlite3'}",
            "BOOTSTRAP_FILE": str(write_bootstrap(Path(folder / "b.json"), {})),
            "REDIS_URL": "",
            "DOMAIN_ALLOWED_HOSTS": "127.0.0.0/8",
        }
    )
    try:
        yield process
    finally:
        process.stop()


@pytest.mark.integration
def test_an_a2a_agent_that_is_not_listening_is_told_so_on_the_operators_hosts_only(
    gateway: Process, gateway_with_allowed_hosts: Process
) -> None:
    """Issue 28: registering an A2A agent that is not listening said it "did not answer /manifest
    with a valid manifest". On a host the operator listed the answer says it could not connect;
    elsewhere it is the one text, which no longer claims the agent answered."""
    agent = f"http://127.0.0.1:{free_port()}"
    card = f"{agent}/.well-known/agent-card.json"
    answers = {}
    for name, process in (("listed", gateway_with_allowed_hosts), ("any", gateway)):
        response = httpx.post(
            f"{process.url}/v1/domains",
            json={"name": "poet", "base_url": agent, "kind": "a2a"},
            headers={"Authorization": "Bearer admin-secret"},
            timeout=30,
        )
        assert response.status_code == 503, response.text
        error = response.json()["error"]
        assert (error["code"], error["param"]) == ("domain_unavailable", "base_url")
        answers[name] = error["message"]
    assert answers["listed"] == f"domain at {card} could not be registered: could not connect to {card}"
    assert answers["any"] == (
        f"domain at {card} could not be registered: no valid A2A agent card was read from it: it may "
        "not be listening, may be too slow or may answer something else (the gateway log names the cause)"
    )


@pytest.mark.integration
@pytest.mark.parametrize(
    "base_url",
    ["http://bücher.example", "http://☃.example", "http://xn--ls8h.example", "http://ｅｘａｍｐｌｅ.test"],
)
def test_non_ascii_hosts_are_never_a_5xx(gateway: Process, base_url: str) -> None:
    """Issue 24, finding 9: a host the policy lets through but no DNS answers (or the client's own
    IDNA rules refuse) is the registration's uniform failure, not a 500."""
    response = httpx.post(
        f"{gateway.url}/v1/domains",
        json={"name": "probe", "base_url": base_url},
        headers={"Authorization": "Bearer admin-secret"},
        timeout=30,
    )
    assert response.status_code in (400, 503), response.text
    assert response.json()["error"]["param"] == "base_url", response.text


@pytest.mark.parametrize("url", ["http://a..b", "http://xn--a:80", "http://.x", "http://a.-.b" + "c" * 70])
def test_host_names_the_client_cannot_encode_are_refused_with_the_field(url: str) -> None:
    with pytest.raises(UrlRefused) as err:
        UrlPolicy(resolve=False).check(url)
    assert err.value.message == BAD_HOST and err.value.param == "base_url"
