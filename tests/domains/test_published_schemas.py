"""The JSON Schemas in ``shared/schemas/`` are the models' own, and they say what the models say:
what the SDK helpers send validates, a typo in a typed field does not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from sdk.service import clarify, fail, option
from shared.models import ExecutionIntent
from shared.schemas import PUBLISHED, SCHEMA_DIR, render, stale, write

ROOT = Path(__file__).resolve().parents[2]


def validator(file_name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMA_DIR / file_name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_published_schema_matches_the_models() -> None:
    assert stale() == [], "a published schema is out of date: run python -m shared.schemas"


def test_a_schema_out_of_step_with_the_models_is_reported_and_rewritten(tmp_path: Path) -> None:
    assert write(tmp_path) == sorted(PUBLISHED)
    assert stale(tmp_path) == []
    edited = json.loads(render("domain_output.schema.json"))
    del edited["properties"]["failure"]
    (tmp_path / "domain_output.schema.json").write_text(json.dumps(edited, indent=2, sort_keys=True) + "\n")
    (tmp_path / "execution_intent.schema.json").unlink()
    assert stale(tmp_path) == ["domain_output.schema.json", "execution_intent.schema.json"]
    assert write(tmp_path) == ["domain_output.schema.json", "execution_intent.schema.json"]
    assert stale(tmp_path) == []


def test_the_check_command_fails_on_a_stale_directory(tmp_path: Path) -> None:
    def check() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "shared.schemas", "--check", "--dir", str(tmp_path)]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)

    stale_run = check()
    assert stale_run.returncode == 1
    assert "stale:" in stale_run.stderr and "domain_output.schema.json" in stale_run.stderr
    write(tmp_path)
    assert check().returncode == 0


@pytest.mark.parametrize(
    "output",
    [
        clarify(
            "Qual Nordea?",
            [option("NDA-SE.ST", "Stockholm", aliases=["sueca"], exchange="Nasdaq Stockholm")],
            param="symbol",
        ),
        clarify("E agora?", continue_with="research_reply", result={"stage": "refine"}),
        fail("Sem preço.", "price_unavailable", recoverable=True, suggestions=[{"symbol": "VALE3.SA"}]),
    ],
    ids=["choice", "conversation", "failure"],
)
def test_what_the_sdk_helpers_send_validates(output: Any) -> None:
    assert list(validator("domain_output.schema.json").iter_errors(output.model_dump(mode="json"))) == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"status": "clarification", "clarification": {"question": "?", "optoins": []}}, "clarification"),
        ({"status": "failure", "failure": {"recoverable": True}}, "failure"),
        ({"status": "failure", "failure": {"reason": "x", "suggestions": ["VALE3.SA"]}}, "failure"),
        ({"status": "done"}, "status"),
    ],
    ids=["misspelt-options", "reason-missing", "suggestion-not-a-patch", "unknown-status"],
)
def test_a_malformed_output_is_rejected_naming_the_field(body: dict[str, Any], field: str) -> None:
    errors = list(validator("domain_output.schema.json").iter_errors(body))
    assert errors and all(e.absolute_path and e.absolute_path[0] == field for e in errors)


def test_the_intent_a_domain_receives_validates() -> None:
    intent = ExecutionIntent(
        domain="finance",
        capability="get_stock_price",
        parameters={"symbol_text": "Nordea"},
        context={"session_id": "s1", "language": "pt"},
    )
    check = validator("execution_intent.schema.json")
    assert list(check.iter_errors(intent.model_dump(mode="json"))) == []
    assert list(check.iter_errors({"domain": "finance", "capability": "x", "confidence": 2}))
