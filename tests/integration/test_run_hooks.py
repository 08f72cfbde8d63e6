"""The operator's run hooks through a real gateway process over the real finance domain:
``RUN_HOOKS`` names tests/fixtures/run_hooks.py's ``Hooks`` (a validation_fn that withholds one
ticker's quotes) and ``RUN_TRANSITION_OVERRIDES_FILE`` holds a rule that makes an unknown
company a final answer instead of a replan."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Process, gateway_over
from tests.fixtures.run_hooks import WITHHELD_SYMBOL

pytestmark = pytest.mark.integration

FINAL_ON_UNKNOWN_SYMBOL = {
    "when_status": "failed",
    "if": "domain == 'finance' && output.failure.reason == 'symbol_not_found'",
    "goto": "failed",
}


@pytest.fixture(scope="module")
def hooked_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    work = tmp_path_factory.mktemp("hooked-gateway")
    rules = work / "overrides.json"
    rules.write_text(json.dumps([FINAL_ON_UNKNOWN_SYMBOL]))
    env = {"RUN_HOOKS": "tests.fixtures.run_hooks:hooks", "RUN_TRANSITION_OVERRIDES_FILE": str(rules)}
    with gateway_over(domain_processes, work, env) as gateway:
        yield gateway


def run(gateway: Process, text: str) -> dict:
    response = httpx.post(f"{gateway.url}/v1/runs", json={"input_text": text}, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def test_validation_fn_rejects_a_steps_output_and_the_run_says_so(hooked_gateway: Process) -> None:
    trace = run(hooked_gateway, "qual o preço da Petrobras?")
    assert trace["status"] == "failed", trace
    [step] = trace["steps"]
    assert step["capability"] == "get_stock_price" and step["status"] == "failed"
    # the hook saw the gateway's own run id and the step it judged (its typed StepContext)
    reason = f"{WITHHELD_SYMBOL} quotes are withheld (run {trace['run_id']}, step 1)"
    assert step["error"] == f"invalid output: {reason}"
    assert step["attempts"] == 2  # an idempotent capability is asked once more before it fails
    assert step["output"]["failure"]["reason"] == "invalid_output"
    assert reason in trace["answer"]  # the person is told why there is no price
    # a quote the rule does not name goes through untouched
    vale = run(hooked_gateway, "qual o preço da Vale?")
    assert vale["status"] == "completed" and "VALE3" in vale["answer"]


def test_a_rule_from_the_file_makes_a_failure_final_instead_of_a_replan(hooked_gateway: Process) -> None:
    trace = run(hooked_gateway, "qual o preço da Empresa Inexistente Zyxw?")
    assert trace["status"] == "failed", trace
    assert "transition override: step 1 failed -> failed" in trace["notes"], trace["notes"]
    # the finance domain calls this failure recoverable: without the rule the run would replan
    assert [s["output"]["failure"]["reason"] for s in trace["steps"]] == ["symbol_not_found"]


def test_a_gateway_whose_hooks_cannot_load_does_not_start(
    domain_processes: dict[str, Process], tmp_path: Path
) -> None:
    log = tmp_path / "gateway.log"
    with (
        pytest.raises(RuntimeError, match="exited with"),
        gateway_over(
            domain_processes, tmp_path, {"RUN_HOOKS": "tests.fixtures.run_hooks:not_hooks"}, log=log
        ),
    ):
        pass
    assert "RUN_HOOKS='tests.fixtures.run_hooks:not_hooks': is a function, not an execution.policy.Hooks" in (
        log.read_text(errors="replace")
    )
