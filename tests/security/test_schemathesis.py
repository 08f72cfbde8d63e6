"""Property-based requests from the gateway's own OpenAPI document, against a real gateway process.

Schemathesis generates valid and invalid requests for every documented operation and checks each
answer: never a 5xx, its status and content type documented, its body as the document declares,
and invalid input refused with a 4xx. The run is bounded (a few examples per operation, no
shrinking, loopback only) to stay within about a minute on a busy 2-core machine.

Left out: domain registration and removal (they reach out to URLs and retrain intent) and the
admin key routes (they change who may call). The turn routes are included with a smaller budget:
each valid request runs a whole turn against the real domain processes.

Schemathesis' own pytest integration (``from_fixture``) relies on pytest internals that pytest 9
changed, so each operation is driven here with its Hypothesis strategies directly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.schemas import APIOperation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import Process, gateway_over

pytestmark = pytest.mark.integration

KEY = "schemathesis-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    content_type_conformance,
    negative_data_rejection,
]
#: Operations left out of the run (see the module docstring).
EXCLUDED_PATHS = re.compile(r"^/v1/(domains|admin/)")
#: The operations that run a turn: a valid request costs a whole turn.
TURN_PATHS = re.compile(r"^/v1/(chat/completions|responses|runs)$")
#: A valid body around a generated text, per turn route: random bodies of the full OpenAI shapes
#: are nearly always refused (a tool message without content, an unknown model), and the turn
#: behind them would then never run.
TURN_BODIES: dict[str, Callable[[str], dict[str, Any]]] = {
    "/v1/chat/completions": lambda text: {
        "model": "orchestrator",
        "messages": [{"role": "user", "content": text}],
    },
    "/v1/responses": lambda text: {"model": "orchestrator", "input": text},
    "/v1/runs": lambda text: {"input_text": text},
}
#: Examples per operation, valid and invalid mixed (invalid only where the operation takes input).
EXAMPLES = 20
TURN_EXAMPLES = 10


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A gateway of its own (what the run creates stays out of other tests' way), with a key."""
    env = {"API_KEYS": KEY, "LOG_LEVEL": "ERROR"}
    with gateway_over(domain_processes, tmp_path_factory.mktemp("schemathesis"), env) as process:
        yield process


@pytest.fixture(scope="module")
def operations(gateway: Process) -> list[APIOperation]:
    document = httpx.get(f"{gateway.url}/openapi.json", timeout=30).json()
    found = []
    for result in schemathesis.openapi.from_dict(document).get_all_operations():
        assert isinstance(result, Ok), result.err()  # a document schemathesis cannot read
        found.append(result.ok())
    return [op for op in found if not EXCLUDED_PATHS.match(op.path)]


@pytest.fixture(scope="module")
def known_ids(gateway: Process) -> dict[str, str]:
    """Ids of things that exist (a session, its run, a stored response), so that part of the
    examples reach the success answers of the routes that look them up, not only their 404."""
    run = httpx.post(
        f"{gateway.url}/v1/runs", json={"input_text": "cotação da PETR4"}, headers=AUTH, timeout=60
    )
    assert run.status_code == 200, run.text
    response = httpx.post(
        f"{gateway.url}/v1/responses", json={"model": "orchestrator", "input": "oi"}, headers=AUTH, timeout=60
    )
    assert response.status_code == 200, response.text
    return {
        "session_id": run.json()["session_id"],
        "run_id": run.json()["run_id"],
        "response_id": response.json()["id"],
        "model_id": "orchestrator",
    }


def takes_input(operation: APIOperation) -> bool:
    return bool(operation.definition.raw.get("parameters") or operation.definition.raw.get("requestBody"))


def problems(operation: APIOperation, gateway: Process, examples: int, known: dict[str, str]) -> list[str]:
    """What the bounded run found wrong with ``operation``: empty if every answer was right."""
    modes = list(GenerationMode) if takes_input(operation) else [GenerationMode.POSITIVE]
    strategies = [operation.as_strategy(mode) for mode in modes]
    existing = {name: known[name] for name in re.findall(r"{(\w+)}", operation.path) if name in known}
    if existing:
        strategies.append(operation.as_strategy(GenerationMode.POSITIVE, path_parameters=existing))
    # the turn's body, for the operation at that path that takes one (POST /v1/runs, not its GET)
    body = TURN_BODIES.get(operation.path) if operation.definition.raw.get("requestBody") else None
    if body is not None:
        strategies.append(
            st.text(min_size=1, max_size=200).flatmap(
                lambda text: operation.as_strategy(GenerationMode.POSITIVE, body=body(text))
            )
        )
    cases = st.one_of(*strategies)

    @settings(
        max_examples=examples,
        deadline=None,  # the machine is shared: no per-example time limit
        database=None,  # no example database written into the checkout
        phases=[Phase.generate],  # no shrinking: a failing example is reported as found
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases)
    def run(case: Any) -> None:
        case.call_and_validate(base_url=gateway.url, headers=AUTH, checks=CHECKS, timeout=60)

    try:
        run()
    except Exception as exc:  # one report per operation, the run goes on with the next
        return [f"{operation.label}: {exc}"]
    return []


def run_all(
    operations: list[APIOperation], gateway: Process, examples: int, known: dict[str, str]
) -> list[str]:
    return [p for op in operations for p in problems(op, gateway, examples, known)]


def test_no_server_error_and_answers_as_documented(
    operations: list[APIOperation], gateway: Process, known_ids: dict[str, str]
) -> None:
    selected = [op for op in operations if not TURN_PATHS.match(op.path)]
    assert len(selected) >= 12, [op.label for op in selected]
    found = run_all(selected, gateway, EXAMPLES, known_ids)
    assert found == [], "\n\n".join(found)


def test_turn_routes_no_server_error_and_answer_as_documented(
    operations: list[APIOperation], gateway: Process, known_ids: dict[str, str]
) -> None:
    selected = [op for op in operations if TURN_PATHS.match(op.path)]
    assert {op.path for op in selected} == {"/v1/chat/completions", "/v1/responses", "/v1/runs"}
    found = run_all(selected, gateway, TURN_EXAMPLES, known_ids)
    assert found == [], "\n\n".join(found)
