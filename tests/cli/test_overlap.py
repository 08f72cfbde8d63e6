"""``python -m cli.overlap``: the goal overlaps a registration would report, checked before
registering, against manifest files or a running gateway's domains."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.overlap import main, report
from gateway.app import goal_overlap_warnings
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from tests.conftest import Process, free_port, gateway_over, start_service
from tests.fixtures.weather_domain import service as weather


def forecasts(domain: str = "forecasts", goal: str = "FORECAST") -> dict[str, Any]:
    """A second weather domain: its goal reads like weather's GET_WEATHER."""
    return {
        "domain": domain,
        "version": "1",
        "description": "Previsões",
        "capabilities": [{"name": "forecast", "description": "Dá a previsão do tempo"}],
        "goals": [
            {
                "goal": goal,
                "description": "Previsão do tempo para uma cidade",
                "capabilities": ["forecast"],
                "examples": [
                    "como está o tempo em Lisboa?",
                    "previsão do tempo para Oslo",
                    "vai chover em Recife amanhã?",
                    "what's the weather in Paris",
                ],
            }
        ],
    }


def bills() -> dict[str, Any]:
    return {
        "domain": "bills",
        "version": "1",
        "description": "Contas",
        "capabilities": [{"name": "pay_bill", "description": "Paga uma conta"}],
        "goals": [
            {
                "goal": "PAY_BILL",
                "description": "Pagar uma conta ou boleto",
                "capabilities": ["pay_bill"],
                "examples": [
                    "paga a conta de luz",
                    "quero pagar o boleto do condomínio",
                    "pay my water bill",
                ],
            }
        ],
    }


def write(path: Path, manifest: dict[str, Any]) -> Path:
    path.write_text(json.dumps(manifest))
    return path


@pytest.fixture
def weather_file(tmp_path: Path) -> Path:
    return write(tmp_path / "weather.json", weather.manifest().model_dump(mode="json", by_alias=True))


def test_the_lines_are_the_registrations_warnings() -> None:
    candidate = validate_manifest(forecasts())
    others = [weather.manifest()]
    warnings = goal_overlap_warnings(Catalog([*others, candidate]), candidate.domain)
    assert warnings, "the two weather goals should overlap"
    assert report(candidate, others, None) == [f"goal_overlap: {w['message']}" for w in warnings]


def test_an_overlap_exits_1(tmp_path: Path, weather_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main([str(write(tmp_path / "f.json", forecasts())), "--against", str(weather_file)])
    out = capsys.readouterr().out
    assert status == 1
    assert out.startswith("goal_overlap: forecasts.FORECAST overlaps weather.GET_WEATHER ("), out


def test_a_goal_name_another_domain_owns_is_reported(tmp_path: Path, weather_file: Path) -> None:
    candidate = validate_manifest(forecasts(goal="GET_WEATHER"))
    assert report(candidate, [weather.manifest()], None)[0] == (
        "goal_taken: forecasts.GET_WEATHER is a goal of weather"
    )


def test_no_overlap_exits_0(tmp_path: Path, weather_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main([str(write(tmp_path / "b.json", bills())), "--against", str(weather_file)])
    assert status == 0
    assert capsys.readouterr().out == "bills: no goal overlaps 1 other domain(s)\n"


def test_the_domain_it_replaces_is_not_compared(tmp_path: Path, weather_file: Path) -> None:
    assert main([str(weather_file), "--against", str(weather_file)]) == 0


def test_an_invalid_manifest_exits_2_with_its_field_paths(
    tmp_path: Path, weather_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = {**bills(), "goals": [{**bills()["goals"][0], "goal": "pay bill"}]}
    status = main([str(write(tmp_path / "x.json", broken)), "--against", str(weather_file)])
    assert status == 2
    assert "x.json: goals.0.goal: 'pay bill' does not match" in capsys.readouterr().err


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    served = start_service("weather", ["tests/fixtures/weather_domain.py"], None, None)
    try:
        with gateway_over({"weather": served}, tmp_path_factory.mktemp("overlap-cli")) as running:
            yield running
    finally:
        served.stop()


@pytest.mark.integration
def test_against_a_running_gateway(
    gateway: Process, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    candidate = write(tmp_path / "f.json", forecasts())
    assert main([str(candidate), "--gateway", gateway.url, "--token", "test-admin-token"]) == 1
    assert "overlaps weather.GET_WEATHER" in capsys.readouterr().out


def test_a_gateway_that_does_not_answer_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    assert main([str(write(tmp_path / "f.json", forecasts())), "--gateway", closed]) == 2
    assert capsys.readouterr().err.startswith(closed)
