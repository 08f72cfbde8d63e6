"""The inspector's page and JSON over real HTTP: the page without a key, the data only with it."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.conftest import Process, start_fixture_domain
from tests.ui.conftest import api, run

pytestmark = pytest.mark.integration


def test_the_page_and_its_assets_are_served_without_a_key_and_without_outside_sources(
    keyed_gateway: Process,
) -> None:
    page = httpx.get(f"{keyed_gateway.url}/ui", timeout=10)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    csp = page.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    # nothing is fetched from anywhere but the gateway itself
    assert "http://" not in page.text and "https://" not in page.text
    for name, media_type in [
        ("app.js", "text/javascript"),
        ("api.js", "text/javascript"),
        ("graph.js", "text/javascript"),
        ("inspector.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
    ]:
        asset = httpx.get(f"{keyed_gateway.url}/ui/assets/{name}", timeout=10)
        assert asset.status_code == 200, name
        assert asset.headers["content-type"].startswith(media_type)
        assert "https://" not in asset.text, name


@pytest.mark.parametrize("name", ["__init__.py", "..%2Fapp.py", ".hidden.js", "missing.js"])
def test_only_the_inspector_assets_are_served(keyed_gateway: Process, name: str) -> None:
    assert httpx.get(f"{keyed_gateway.url}/ui/assets/{name}", timeout=10).status_code == 404


def test_the_json_the_page_reads_needs_the_key(keyed_gateway: Process) -> None:
    for path in ("/v1/sessions", "/v1/breakers"):
        assert httpx.get(f"{keyed_gateway.url}{path}", timeout=10).status_code == 401
        wrong = httpx.get(f"{keyed_gateway.url}{path}", headers={"Authorization": "Bearer nope"}, timeout=10)
        assert wrong.status_code == 401
        assert api(keyed_gateway, "GET", path).status_code == 200


def test_sessions_are_listed_newest_first_searchable_by_message_and_paged(keyed_gateway: Process) -> None:
    tag = uuid.uuid4().hex[:8]
    first, second = f"list-{tag}-a", f"list-{tag}-b"
    run(keyed_gateway, "oi, tudo bem?", first)
    run(keyed_gateway, "qual o preço da Petrobras?", second)

    page = api(keyed_gateway, "GET", "/v1/sessions", params={"q": tag}).json()
    assert [s["session_id"] for s in page["data"]] == [second, first]
    assert page["total"] == 2
    newest = page["data"][0]
    assert newest["last_input"] == "qual o preço da Petrobras?"
    assert newest["turn_count"] == 1 and newest["status"] == "completed"
    assert newest["updated_at"].endswith(("Z", "+00:00"))

    # a word of a message finds its session, whatever its case
    by_message = api(keyed_gateway, "GET", "/v1/sessions", params={"q": "PETROBRAS", "limit": 200}).json()
    assert second in {s["session_id"] for s in by_message["data"]}
    assert first not in {s["session_id"] for s in by_message["data"]}

    paged = api(keyed_gateway, "GET", "/v1/sessions", params={"q": tag, "limit": 1, "offset": 1}).json()
    assert [s["session_id"] for s in paged["data"]] == [first]
    assert paged["total"] == 2 and paged["limit"] == 1 and paged["offset"] == 1

    # LIKE's wildcards in a search are plain characters
    assert api(keyed_gateway, "GET", "/v1/sessions", params={"q": f"{tag}%"}).json()["total"] == 0


def test_breakers_list_every_registered_domain(keyed_gateway: Process) -> None:
    body = api(keyed_gateway, "GET", "/v1/breakers").json()
    domains = {d["name"] for d in api(keyed_gateway, "GET", "/v1/domains").json()["data"]}
    assert {b["domain"] for b in body["data"]} == domains
    assert all(b["state"] == "closed" and b["open"] is False for b in body["data"])
    assert body["threshold"] >= 1 and body["ttl_s"] > 0


def test_a_session_is_titled_by_its_first_request_and_says_what_it_waits_for(keyed_gateway: Process) -> None:
    tag = uuid.uuid4().hex[:8]
    asking = f"title-{tag}-a"
    run(keyed_gateway, "qual o preço da Nordea?", asking)
    answered = f"title-{tag}-b"
    run(keyed_gateway, "qual o preço da Nordea?", answered)
    run(keyed_gateway, "2", answered)

    page = api(keyed_gateway, "GET", "/v1/sessions", params={"q": tag}).json()
    listed = {s["session_id"]: s for s in page["data"]}
    waiting, done = listed[asking], listed[answered]
    # the title is the first request, not the last message ("2")
    assert waiting["title"] == done["title"] == "qual o preço da Nordea?"
    assert done["last_input"] == "2"
    assert waiting["status"] == "waiting_input"
    assert waiting["pending_question"].startswith("Encontrei mais de um ticker para 'Nordea'")
    assert done["pending_question"] is None

    # the title's words find the session
    found = api(keyed_gateway, "GET", "/v1/sessions", params={"q": "preço da nordea", "limit": 200}).json()
    assert {asking, answered} <= {s["session_id"] for s in found["data"]}


def test_the_catalog_view_gives_kinds_descriptions_and_overlaps_apart_from_notices(
    keyed_gateway: Process,
) -> None:
    english = api(keyed_gateway, "GET", "/v1/inspector/catalog", params={"lang": "en"}).json()
    portuguese = api(keyed_gateway, "GET", "/v1/inspector/catalog", params={"lang": "pt"}).json()
    domains = {d["name"]: d for d in english["domains"]}
    assert {"finance", "notifier", "general"} <= set(domains)
    assert {d["kind"] for d in english["domains"]} == {"http"}
    described = {c["name"]: c["description"] for d in english["domains"] for c in d["capabilities"]}
    described_pt = {c["name"]: c["description"] for d in portuguese["domains"] for c in d["capabilities"]}
    assert all(described.values())
    assert described.keys() == described_pt.keys()
    assert any(described[name] != described_pt[name] for name in described), "descriptions follow lang"
    for overlap in english["overlaps"]:
        assert overlap["domain_a"] != overlap["domain_b"]
        assert english["overlap_shown_from"] <= overlap["similarity"] <= 1
    assert all(n["type"] != "goal_overlap" for n in english["notices"])
    assert httpx.get(f"{keyed_gateway.url}/v1/inspector/catalog", timeout=10).status_code == 401


def test_a_registered_domain_whose_goal_reads_like_finances_shows_up_as_an_overlap_with_its_score(
    keyed_gateway: Process,
) -> None:
    markets = start_fixture_domain("overlap_domain")
    admin = {"Authorization": "Bearer test-admin-token"}
    try:
        registered = httpx.post(
            f"{keyed_gateway.url}/v1/domains",
            json={"name": "markets", "base_url": markets.url, "allow_overlap": True},
            headers=admin,
            timeout=60,
        )
        assert registered.status_code == 201, registered.text
        assert registered.json()["notes"], "the registration says answers may shift meanwhile"
        catalog = api(keyed_gateway, "GET", "/v1/inspector/catalog").json()
        pairs = {
            frozenset({(o["domain_a"], o["goal_a"]), (o["domain_b"], o["goal_b"])}): o["similarity"]
            for o in catalog["overlaps"]
        }
        clash = frozenset({("markets", "STOCK_PRICE"), ("finance", "GET_QUOTE")})
        assert clash in pairs, catalog["overlaps"]
        assert 0.3 <= pairs[clash] <= 1
        # the overlap is not mixed into the registry's other notices
        assert all(n["type"] != "goal_overlap" for n in catalog["notices"])
    finally:
        httpx.delete(f"{keyed_gateway.url}/v1/domains/markets", headers=admin, timeout=60)
        markets.stop()
    after = api(keyed_gateway, "GET", "/v1/inspector/catalog").json()
    assert all("markets" not in (o["domain_a"], o["domain_b"]) for o in after["overlaps"])


def test_an_a2a_conversation_is_listed_as_the_a2a_channels(keyed_gateway: Process) -> None:
    context = f"a2a-{uuid.uuid4().hex[:10]}"
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/send",
        "params": {
            "message": {
                "kind": "message",
                "messageId": uuid.uuid4().hex,
                "contextId": context,
                "role": "user",
                "parts": [{"kind": "text", "text": "qual o preço da Petrobras?"}],
            }
        },
    }
    sent = api(keyed_gateway, "POST", "/a2a", json=message)
    assert sent.status_code == 200 and "error" not in sent.json(), sent.text
    listed = api(keyed_gateway, "GET", "/v1/sessions", params={"q": context}).json()["data"]
    assert [(s["channel"], s["title"]) for s in listed] == [("a2a", "qual o preço da Petrobras?")]
