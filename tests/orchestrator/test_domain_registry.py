from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from cli.bootstrap import BootstrapDomain, domain_url
from orchestrator import DomainClient, DomainRegistry, ManifestRejected
from orchestrator.registry import GoalOverlapRefused, env_override
from shared.catalog import Catalog
from shared.errors import DomainUnavailable, NotFound, SetupError


def _bootstrap(tmp_path: Path, domains: list[dict[str, Any]]) -> Path:
    path = tmp_path / "domains.bootstrap.json"
    path.write_text(json.dumps({"domains": domains}))
    return path


async def test_bootstrap_lists_down_domains_as_unhealthy_and_refresh_recovers_them(
    tmp_path: Path, hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    hosts.serve("bakery.test", make["bakery"]().app())
    path = _bootstrap(
        tmp_path,
        [
            {"name": "bakery", "base_url": "http://bakery.test", "command": ["python", "-m", "x"]},
            {"name": "lounge", "base_url": "http://lounge.test/"},
        ],
    )
    seen: list[list[str]] = []
    registry.subscribe(lambda catalog: seen.append(catalog.domains))

    listed = await registry.load_bootstrap(path)
    assert [(d.name, d.healthy) for d in listed] == [("bakery", True), ("lounge", False)]
    assert listed[0].version == "1.2" and listed[0].goals == ["BAKE"]
    assert listed[0].capabilities == ["bake_bread", "slow_cake"]
    assert listed[1].last_error == "could not connect to http://lounge.test/manifest"
    assert registry.catalog.domains == ["bakery"]
    assert registry.endpoint("lounge") == "http://lounge.test"

    hosts.serve("lounge.test", make["lounge"]().app())
    refreshed = await registry.refresh()
    assert [(d.name, d.healthy, d.last_error) for d in refreshed] == [
        ("bakery", True, None),
        ("lounge", True, None),
    ]
    assert registry.catalog.domains == ["bakery", "lounge"]
    assert seen == [["bakery"], ["bakery", "lounge"]]


async def test_env_overrides_bootstrap_urls(
    tmp_path: Path, hosts: Any, client: DomainClient, make: dict[str, Any]
) -> None:
    hosts.serve("elsewhere.test", make["bakery"]().app())
    registry = DomainRegistry(client, env={"DOMAIN_URL_BAKERY": "http://elsewhere.test"})
    await registry.load_bootstrap(
        _bootstrap(tmp_path, [{"name": "bakery", "base_url": "http://bakery.test"}])
    )
    assert registry.endpoint("bakery") == "http://elsewhere.test"
    assert registry.list()[0].healthy


def test_one_domain_url_reader_serves_the_registry_and_the_launcher(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMAIN_URL_FX_RATES", "http://10.0.0.5:9000")
    monkeypatch.delenv("DOMAIN_URL_FINANCE", raising=False)
    assert env_override("fx-rates") == "http://10.0.0.5:9000"  # upper case, '-' read as '_'
    assert env_override("fx-rates", {}) is None
    assert (
        domain_url(BootstrapDomain(name="fx-rates", base_url="http://127.0.0.1:8001"))
        == "http://10.0.0.5:9000"
    )
    assert (
        domain_url(BootstrapDomain(name="finance", base_url="http://127.0.0.1:8001"))
        == "http://127.0.0.1:8001"
    )


async def test_a_bootstrap_file_that_is_not_a_domains_list_is_a_setup_error(
    tmp_path: Path, registry: DomainRegistry
) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"domain": []}))
    with pytest.raises(SetupError) as err:
        await registry.load_bootstrap(path)
    assert err.value.param == "domains"


async def test_bad_bootstrap_entries_are_skipped_and_listed_with_their_error(
    tmp_path: Path, hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    hosts.serve("bakery.test", make["bakery"]().app())
    entries = [
        {"name": "Bad Name", "base_url": "http://x"},
        {"name": "ftp", "base_url": "ftp://x"},
        {"name": "bakery", "base_url": "http://bakery.test"},
        {"name": "bakery", "base_url": "http://y"},
    ]
    listed = await registry.load_bootstrap(_bootstrap(tmp_path, entries))
    assert [(d.name, d.healthy) for d in listed] == [("bakery", True), ("ftp", False)]
    assert listed[1].last_error == "bootstrap file: domains.1.base_url must be an http(s) URL"
    assert registry.catalog.domains == ["bakery"]
    await registry.refresh()  # an unusable entry is never fetched
    assert [r.url.host for r in hosts.requests].count("x") == 0


async def test_invalid_manifest_is_refused_with_field_paths(
    hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    url = hosts.serve(
        "broken.test",
        make["raw"](
            {
                "domain": "broken",
                "version": "1",
                "description": "d",
                "capabilities": [{"name": "ok", "description": "d"}],
                "goals": [{"goal": "DO_IT", "description": "d", "capabilities": ["missing_cap"]}],
            }
        ),
    )
    with pytest.raises(ManifestRejected) as err:
        await registry.register("broken", url)
    assert err.value.status_code == 400 and err.value.code == "invalid_manifest"
    # a cross-reference error is about the whole document (shared.manifest reports it at "$")
    assert err.value.details == [
        {"path": "$", "message": "Value error, goal DO_IT maps to unknown capabilities ['missing_cap']"}
    ]
    assert "manifest of domain 'broken' is invalid" in err.value.message
    assert registry.list() == [] and registry.catalog.domains == []


async def test_schema_errors_name_the_field(
    hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    url = hosts.serve(
        "broken.test", make["raw"]({"domain": "broken", "version": 1, "description": "d", "capabilities": []})
    )
    with pytest.raises(ManifestRejected) as err:
        await registry.register("broken", url)
    assert {"path": "version", "message": "1 is not of type 'string'"} in err.value.details


async def test_manifest_domain_must_match_the_registered_name(
    hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    url = hosts.serve("bakery.test", make["bakery"]().app())
    with pytest.raises(ManifestRejected) as err:
        await registry.register("pastry", url)
    assert err.value.details == [
        {"path": "domain", "message": "'bakery' does not match the registered name 'pastry'"}
    ]


async def test_an_a2a_agent_that_does_not_answer_is_told_about_its_agent_card_not_a_manifest(
    registry: DomainRegistry,
) -> None:
    card = "http://ghost.test/.well-known/agent-card.json"
    with pytest.raises(DomainUnavailable) as err:
        await registry.register("ghost", card)
    assert err.value.message == (
        f"domain at {card} could not be registered: no valid A2A agent card was read from it: "
        "it may not be listening, may be too slow or may answer something else "
        "(the gateway log names the cause)"
    )


async def test_registering_an_unreachable_domain_raises_the_uniform_text(registry: DomainRegistry) -> None:
    with pytest.raises(DomainUnavailable) as err:
        await registry.register("ghost", "http://ghost.test")
    assert err.value.message == (
        "domain at http://ghost.test could not be registered: no valid manifest was read from its /manifest: "
        "it may not be listening, may be too slow or may answer something else "
        "(the gateway log names the cause)"
    )


async def test_runtime_register_and_unregister_rebuild_the_catalog(
    hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    catalogs: list[Catalog] = []

    async def listener(catalog: Catalog) -> None:
        catalogs.append(catalog)

    unsubscribe = registry.subscribe(listener)
    registered = await registry.register("bakery", hosts.serve("bakery.test", make["bakery"]().app()))
    assert registered.healthy and registered.base_url == "http://bakery.test"
    assert registry.catalog.find_capability("bake_bread") is not None
    await registry.unregister("bakery")
    assert registry.catalog.domains == [] and registry.list() == []
    assert [c.domains for c in catalogs] == [["bakery"], []]
    unsubscribe()
    await registry.register("bakery", "http://bakery.test")
    assert len(catalogs) == 2
    with pytest.raises(NotFound):
        await registry.unregister("nope")
    with pytest.raises(NotFound):
        registry.endpoint("nope")


async def test_lint_hook_and_capability_clashes_become_warnings(
    hosts: Any, client: DomainClient, make: dict[str, Any]
) -> None:
    calls: list[tuple[list[str], str]] = []

    def lint(catalog: Catalog, name: str) -> list[dict[str, Any]]:
        calls.append((catalog.domains, name))
        return [{"type": "goal_overlap", "message": "BAKE looks like CHAT"}]

    registry = DomainRegistry(client, lint=lint, env={})
    await registry.register("lounge", hosts.serve("lounge.test", make["lounge"]().app()))
    twin = make["raw"](
        {
            "domain": "twin",
            "version": "1",
            "description": "d",
            "capabilities": [{"name": "chat", "description": "d"}],
        }
    )
    registered = await registry.register("twin", hosts.serve("twin.test", twin))
    # one lint and one manifest fetch per registration
    assert calls == [(["lounge"], "lounge"), (["lounge", "twin"], "twin")]
    assert [r.url.path for r in hosts.requests if r.url.host == "twin.test"] == ["/manifest", "/health"]
    assert [w["type"] for w in registered.warnings] == ["capability_clash", "goal_overlap"]
    assert registered.warnings[0]["other_domain"] == "lounge"


async def test_a_refused_overlap_lints_once_and_registers_nothing(
    hosts: Any, client: DomainClient, make: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[str] = []

    def lint(catalog: Catalog, name: str) -> list[dict[str, Any]]:
        calls.append(name)
        return [{"type": "goal_overlap", "message": "looks like another"}] if name == "lounge" else []

    registry = DomainRegistry(client, lint=lint, env={})
    with caplog.at_level(logging.INFO, logger="orchestrator.registry"):
        await registry.register("bakery", hosts.serve("bakery.test", make["bakery"]().app()))
    # the log line says where the registration's time went
    assert any(
        "registered domain bakery" in m and "checks" in m and "catalog subscribers" in m
        for m in caplog.messages
    )
    with pytest.raises(GoalOverlapRefused):
        await registry.register(
            "lounge", hosts.serve("lounge.test", make["lounge"]().app()), allow_overlap=False
        )
    assert calls == ["bakery", "lounge"]
    assert [r.url.path for r in hosts.requests if r.url.host == "lounge.test"] == ["/manifest"]
    assert registry.catalog.domains == ["bakery"] and registry.get("lounge") is None


async def test_a_failing_subscriber_does_not_block_registration(
    hosts: Any, registry: DomainRegistry, make: dict[str, Any]
) -> None:
    def broken(catalog: Catalog) -> None:
        raise RuntimeError("subscriber bug")

    seen: list[str] = []
    registry.subscribe(broken)
    registry.subscribe(lambda catalog: seen.extend(catalog.domains))
    await registry.register("bakery", hosts.serve("bakery.test", make["bakery"]().app()))
    assert seen == ["bakery"]
