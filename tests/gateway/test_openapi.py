"""The OpenAPI document a real gateway serves describes the answers it really gives.

No FastAPI 422 (bad input is a 400 in OpenAI's error shape), every operation lists its error
answers with the one ``ErrorResponse`` schema, and real error answers (400, 401, 403, 404) validate
against the schema the document declares for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from tests.conftest import Process, gateway_over

pytestmark = pytest.mark.integration

USER_KEY = "openapi-user-key"
ERROR_REF = "#/components/schemas/ErrorResponse"
#: Operations whose handlers are only reached with the admin role.
ADMIN_OPERATIONS = {
    ("post", "/v1/domains"),
    ("delete", "/v1/domains/{name}"),
    ("get", "/v1/admin/keys"),
    ("post", "/v1/admin/keys"),
    ("delete", "/v1/admin/keys/{key_id}"),
}
#: Operations that run a turn.
TURN_OPERATIONS = {("post", "/v1/chat/completions"), ("post", "/v1/responses"), ("post", "/v1/runs")}


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    """A real gateway with one user key (so a missing key is a 401); no domain is needed to be
    refused."""
    with gateway_over({}, tmp_path_factory.mktemp("openapi"), {"API_KEYS": USER_KEY}) as process:
        yield process


@pytest.fixture(scope="module")
def document(gateway: Process) -> dict[str, Any]:
    response = httpx.get(f"{gateway.url}/openapi.json", timeout=30)
    assert response.status_code == 200
    return dict(response.json())


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def test_no_422_anywhere(document: dict[str, Any]) -> None:
    with_422 = [f"{m.upper()} {p}" for m, p, op in operations(document) if "422" in op["responses"]]
    assert with_422 == []
    assert "HTTPValidationError" not in document["components"]["schemas"]


def test_the_error_schema_is_openais_shape(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["ErrorResponse"]["required"] == ["error"]
    assert set(schemas["ErrorDetail"]["required"]) == {"message", "type", "param", "code"}


def expected_errors(method: str, path: str) -> set[str]:
    codes = {"400", "401", "429"}
    if "{" in path:
        codes.add("404")
    if method in ("post", "put", "patch"):
        codes.add("413")
    if (method, path) in ADMIN_OPERATIONS:
        codes.add("403")
    if (method, path) in TURN_OPERATIONS:
        codes |= {"404", "409", "503"}
    return codes


def test_every_v1_operation_lists_its_errors_with_the_error_schema(document: dict[str, Any]) -> None:
    v1 = [(m, p, op) for m, p, op in operations(document) if p.startswith("/v1/")]
    assert len(v1) >= 20  # every /v1 route is in the document
    missing = {
        f"{m.upper()} {p}": sorted(expected_errors(m, p) - set(op["responses"]))
        for m, p, op in v1
        if expected_errors(m, p) - set(op["responses"])
    }
    assert missing == {}
    wrong_schema = [
        f"{m.upper()} {p} {code}"
        for m, p, op in v1
        for code, response in op["responses"].items()
        if code.startswith(("4", "5"))
        and response["content"]["application/json"]["schema"] != {"$ref": ERROR_REF}
    ]
    assert wrong_schema == []


def test_a_background_run_documents_its_202(document: dict[str, Any]) -> None:
    accepted = document["paths"]["/v1/runs"]["post"]["responses"]["202"]
    ref = accepted["content"]["application/json"]["schema"]["$ref"]
    assert set(document["components"]["schemas"][ref.rsplit("/", 1)[1]]["required"]) >= {"run_id", "status"}


def declared_schema(document: dict[str, Any], method: str, path: str, status: int) -> dict[str, Any]:
    """The response schema the document declares, with its components alongside so that the
    ``#/components/...`` references resolve."""
    responses = document["paths"][path][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {path} answered {status}, which is not documented"
    schema = responses[str(status)]["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


AUTH = {"Authorization": f"Bearer {USER_KEY}"}


@pytest.mark.parametrize(
    ("method", "url", "template", "headers", "body", "status"),
    [
        # too short a text: the body's validation, as a 400 naming the field
        ("post", "/v1/runs", "/v1/runs", AUTH, {"input_text": ""}, 400),
        # a query parameter out of its range
        ("get", "/v1/sessions?limit=0", "/v1/sessions", AUTH, None, 400),
        ("get", "/v1/runs/run-unknown", "/v1/runs/{run_id}", AUTH, None, 404),
        ("get", "/v1/models/no-such-model", "/v1/models/{model_id}", AUTH, None, 404),
        ("get", "/v1/runs/run-unknown", "/v1/runs/{run_id}", {}, None, 401),
        ("get", "/v1/admin/keys", "/v1/admin/keys", AUTH, None, 403),
    ],
)
def test_real_error_answers_match_the_declared_schema(
    gateway: Process,
    document: dict[str, Any],
    method: str,
    url: str,
    template: str,
    headers: dict[str, str],
    body: dict[str, Any] | None,
    status: int,
) -> None:
    response = httpx.request(method, f"{gateway.url}{url}", headers=headers, json=body, timeout=30)
    assert response.status_code == status, response.text
    schema = declared_schema(document, method, template, status)
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(response.json())]
    assert errors == []


def test_a_body_of_another_shape_would_not_validate(document: dict[str, Any]) -> None:
    """The check above can fail: FastAPI's own 422 body is not the declared error."""
    schema = declared_schema(document, "post", "/v1/runs", 400)
    fastapi_body = {
        "detail": [{"loc": ["body", "input_text"], "msg": "too short", "type": "string_too_short"}]
    }
    assert not Draft202012Validator(schema).is_valid(fastapi_body)
