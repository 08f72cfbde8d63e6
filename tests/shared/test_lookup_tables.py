"""Lookup tables: the values a string entity can take, in the manifest or at a ``lookup_path``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sdk.service import DomainService
from shared.manifest import LookupEntry, ManifestInvalid, ManifestLimits, parse_lookup, parse_manifest


def manifest(entity: dict[str, Any]) -> dict[str, Any]:
    return {
        "domain": "shop",
        "version": "1",
        "description": "d",
        "capabilities": [{"name": "find", "description": "find a product"}],
        "goals": [
            {
                "goal": "FIND",
                "description": "find",
                "capabilities": ["find"],
                "entities_schema": {"product": entity},
            }
        ],
    }


def test_a_string_entity_may_carry_a_table_or_name_where_it_is_served() -> None:
    inline = {"type": "string", "lookup": [{"value": "Café Pilão", "aliases": ["pilao"]}]}
    spec = parse_manifest(json.dumps(manifest(inline)).encode()).goals[0].entities_schema["product"]
    assert spec.lookup == [LookupEntry(value="Café Pilão", aliases=["pilao"])]
    served = {"type": "string", "lookup_path": "/lookup/products"}
    assert (
        parse_manifest(json.dumps(manifest(served)).encode()).goals[0].entities_schema["product"].lookup_path
    )


@pytest.mark.parametrize(
    ("entity", "path"),
    [
        ({"type": "enum", "values": ["A"], "lookup": [{"value": "A"}]}, "goals.0.entities_schema.product"),
        (
            {"type": "string", "lookup_path": "http://elsewhere/x"},
            "goals.0.entities_schema.product.lookup_path",
        ),
        ({"type": "string", "lookup": [{"value": ""}]}, "goals.0.entities_schema.product.lookup.0.value"),
    ],
)
def test_a_bad_table_is_refused_with_its_field_path(entity: dict[str, Any], path: str) -> None:
    with pytest.raises(ManifestInvalid) as refused:
        parse_manifest(json.dumps(manifest(entity)).encode())
    assert path in {e["path"] for e in refused.value.errors}, refused.value.errors


def test_a_table_over_the_limits_is_refused() -> None:
    limits = ManifestLimits(max_lookup_entries=2, max_lookup_bytes=1024)
    entries = [{"value": f"p{i}"} for i in range(3)]
    big = {"type": "string", "lookup": entries}
    with pytest.raises(ManifestInvalid, match="lookup: more than 2 entries"):
        parse_manifest(json.dumps(manifest(big)).encode(), limits)
    with pytest.raises(ManifestInvalid, match=r"x\.lookup: more than 2 entries"):
        parse_lookup(json.dumps(entries).encode(), "x", limits)
    with pytest.raises(ManifestInvalid, match=r"x\.lookup: larger than 1024 bytes"):
        parse_lookup(b"[" + b'{"value": "p"},' * 200 + b'{"value": "p"}]', "x", limits)
    with pytest.raises(ManifestInvalid, match=r"x\.lookup: not a list of entries"):
        parse_lookup(b'{"value": "p"}', "x", limits)


def test_the_sdk_serves_the_table_at_its_path_and_inlines_it_in_process() -> None:
    products = [LookupEntry(value="Café Pilão", aliases=["pilao"])]
    service = DomainService("shop", "1", "d")
    service.capability("find", "find a product")(lambda intent: None)  # type: ignore[arg-type,return-value]
    service.add_goal(
        {
            "goal": "FIND",
            "description": "find",
            "capabilities": ["find"],
            "entities_schema": {"product": {"type": "string", "lookup_path": "/lookup/products"}},
        }
    )
    service.lookup("/lookup/products", lambda: products)
    served = TestClient(service.app()).get("/lookup/products")
    assert served.status_code == 200
    assert parse_lookup(served.content, "x") == products
    assert service.manifest_with_lookups().goals[0].entities_schema["product"].lookup == products
    assert service.manifest().goals[0].entities_schema["product"].lookup is None  # the published one


def test_the_extractor_knows_the_tables_names_and_aliases_even_with_a_typo() -> None:
    from intent.embedded import entity_extractor
    from shared.catalog import Catalog, GoalRef
    from shared.manifest import validate_manifest

    data = manifest({"type": "string", "multiple": True})
    data["goals"][0]["examples"] = [
        {"text": "preço do Café Pilão", "entities": {"product": "Café Pilão"}},
        {"text": "quanto custa o Nescau", "entities": {"product": "Nescau"}},
    ]
    plain = validate_manifest(data)
    data["goals"][0]["entities_schema"]["product"]["lookup"] = [
        {"value": "Toddy", "aliases": ["achocolatado toddy"]},
        {"value": "Ovomaltine"},
    ]
    with_table = validate_manifest(data)

    def extract(m: Any, text: str) -> Any:
        catalog = Catalog([m])
        return entity_extractor(GoalRef("shop", catalog.find_goal("shop", "FIND")), catalog).extract(text)  # type: ignore[arg-type]

    assert extract(plain, "preço toddy ovomaltine") == {}  # lower-case words nobody taught
    assert extract(with_table, "preço toddy ovomaltine") == {"product": ["toddy", "ovomaltine"]}
    assert extract(with_table, "preço toddy ovomaltina") == {"product": ["toddy", "ovomaltina"]}  # a typo
