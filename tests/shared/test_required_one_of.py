"""``required_one_of``: a goal's groups of entities of which a request needs at least one. A group
that names an entity the goal does not declare, one required on its own, a boolean, or fewer than
two is refused with its field path, as registration answers it (400 ``invalid_manifest``)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from shared.manifest import SCHEMA_PATH, ManifestInvalid, validate_manifest


def manifest(groups: Any, **biller: Any) -> dict[str, Any]:
    return {
        "domain": "bills",
        "version": "1",
        "description": "Contas",
        "capabilities": [{"name": "pay_bill", "description": "Paga uma conta"}],
        "goals": [
            {
                "goal": "PAY_BILL",
                "description": "Pagar uma conta",
                "capabilities": ["pay_bill"],
                "entities_schema": {
                    "biller_text": {"type": "string", **biller},
                    "barcode_text": {"type": "string"},
                    "now": {"type": "boolean"},
                },
                "required_one_of": groups,
            }
        ],
    }


def test_a_group_of_declared_entities_is_kept_and_says_what_is_missing() -> None:
    goal = validate_manifest(manifest([["biller_text", "barcode_text"]])).goals[0]
    assert goal.required_one_of == [["biller_text", "barcode_text"]]
    assert goal.missing_group({}) == ["biller_text", "barcode_text"]
    assert goal.missing_group({"biller_text": ""}) == ["biller_text", "barcode_text"]
    assert goal.missing_group({"barcode_text": "2379"}) is None


def test_a_manifest_without_groups_is_served_without_the_field() -> None:
    # a gateway from before the field refuses keys it does not know: a domain that declares no
    # group must still register there
    served = validate_manifest(manifest([])).model_dump(mode="json", exclude_none=True)
    assert "required_one_of" not in served["goals"][0]
    kept = validate_manifest(manifest([["biller_text", "barcode_text"]])).model_dump(mode="json")
    assert kept["goals"][0]["required_one_of"] == [["biller_text", "barcode_text"]]


def test_a_default_satisfies_the_group() -> None:
    goal = validate_manifest(manifest([["biller_text", "barcode_text"]], default="Enel")).goals[0]
    assert goal.missing_group({}) is None


def test_the_published_schema_carries_it() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.validate(manifest([["biller_text", "barcode_text"]]), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(manifest([["biller_text"]]), schema)


@pytest.mark.parametrize(
    ("groups", "biller", "path", "message"),
    [
        ([["biller_text", "bar_code"]], {}, "goals.0.required_one_of", "group 0 names ['bar_code']"),
        ([["biller_text", "barcode_text"]], {"required": True}, "goals.0.required_one_of", "on its own"),
        ([["biller_text", "now"]], {}, "goals.0.required_one_of", "['now'] is a boolean"),
        ([["biller_text", "biller_text"]], {}, "goals.0.required_one_of", "names an entity twice"),
        ([["biller_text"]], {}, "goals.0.required_one_of.0", "too short"),
    ],
)
def test_a_bad_group_is_refused_with_its_field_path(
    groups: Any, biller: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(ManifestInvalid) as refused:
        validate_manifest(manifest(groups, **biller))
    assert [e["path"] for e in refused.value.errors] == [path]
    assert message in refused.value.errors[0]["message"]
