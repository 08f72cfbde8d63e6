"""Issue 21 through a real gateway and real domain processes, in Portuguese and English: typed
entities resolved against the person's clock, no guessed values, clear requests answered,
follow-ups and corrections on a domain registered at run time, the notifier's own goal.

The meetings domain below declares typed entities; it runs as its own process
(``python tests/integration/test_understanding_typed.py --port P``) and is registered with
``POST /v1/domains``, as an operator would.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from sdk import DomainService, serve  # noqa: E402
from shared.models import DomainOutput, ExecutionIntent  # noqa: E402

ZONE = "America/Sao_Paulo"

service = DomainService("meetings", "1.0.0", {"pt": "Agenda de reuniões", "en": "Meeting calendar"})


@service.capability(
    "schedule_meeting",
    {"pt": "Marca uma reunião", "en": "Schedule a meeting"},
    parameters={
        "type": "object",
        "properties": {
            "person_text": {"type": "string", "minLength": 1},
            "day": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            "time": {"type": "string", "pattern": r"^\d{2}:\d{2}$"},
        },
        "required": ["person_text", "day", "time"],
    },
    metadata={"policy": {"confirm": True, "idempotent": False, "attempts": 1}},
)
def schedule(intent: ExecutionIntent) -> DomainOutput:
    p = intent.parameters
    return DomainOutput(
        status="success", result=dict(p), explanation=f"{p['person_text']} {p['day']} {p['time']}"
    )


@service.capability(
    "list_meetings",
    {"pt": "Lista as reuniões de um dia", "en": "List a day's meetings"},
    parameters={"type": "object", "properties": {"day": {"type": "string"}}},
)
def list_meetings(intent: ExecutionIntent) -> DomainOutput:
    day = intent.parameters.get("day", "today")
    return DomainOutput(status="success", result={"day": day}, explanation=f"meetings on {day}: none")


@service.capability(
    "report_no_show",
    {"pt": "Registra que alguém faltou a uma reunião", "en": "Record that someone missed a meeting"},
    parameters={
        "type": "object",
        "properties": {"person_text": {"type": "string"}, "day": {"type": "string"}},
        "required": ["person_text", "day"],
    },
)
def report_no_show(intent: ExecutionIntent) -> DomainOutput:
    p = intent.parameters
    return DomainOutput(status="success", result=dict(p), explanation=f"{p['person_text']} missed {p['day']}")


def _ex(text: str, **entities: str) -> dict[str, Any]:
    return {"text": text, "entities": entities}


DAY = {"type": "date", "description": {"pt": "O dia", "en": "The day"}}
service.add_goal(
    {
        "goal": "SCHEDULE_MEETING",
        "description": {"pt": "Marcar uma reunião com alguém", "en": "Schedule a meeting with someone"},
        "capabilities": ["schedule_meeting"],
        "entities_schema": {
            "person_text": {
                "type": "string",
                "required": True,
                "description": {"pt": "Com quem", "en": "With whom"},
            },
            "day": {**DAY, "required": True},
            "time": {"type": "time", "required": True, "description": {"pt": "O horário", "en": "The time"}},
        },
        "examples": [
            _ex("marca reunião com Ana amanhã às 10h", person_text="Ana", day="amanhã", time="10h"),
            _ex(
                "agenda uma reunião com o Pedro na sexta às 15h", person_text="Pedro", day="sexta", time="15h"
            ),
            _ex("marcar reunião com Carla dia 20 às 9h", person_text="Carla", day="dia 20", time="9h"),
            _ex("reunião com Bruno segunda 14h", person_text="Bruno", day="segunda", time="14h"),
            _ex(
                "schedule a meeting with John tomorrow at 3pm", person_text="John", day="tomorrow", time="3pm"
            ),
            _ex("book a meeting with Mary on Friday at 10am", person_text="Mary", day="Friday", time="10am"),
            _ex("set up a meeting with Paul on Monday at 2pm", person_text="Paul", day="Monday", time="2pm"),
        ],
    }
)
service.add_goal(
    {
        "goal": "LIST_MEETINGS",
        "description": {"pt": "Ver as reuniões de um dia", "en": "See a day's meetings"},
        "capabilities": ["list_meetings"],
        "entities_schema": {"day": DAY},
        "examples": [
            _ex("quais reuniões eu tenho amanhã?", day="amanhã"),
            _ex("o que tenho na agenda hoje?", day="hoje"),
            _ex("minhas reuniões de sexta", day="sexta"),
            _ex("what meetings do I have tomorrow?", day="tomorrow"),
            _ex("what's on my calendar today?", day="today"),
            _ex("show my meetings on Friday", day="Friday"),
        ],
    }
)

service.add_goal(
    {
        "goal": "REPORT_NO_SHOW",
        "description": {
            "pt": "Registrar que alguém não apareceu numa reunião",
            "en": "Record that someone did not show up to a meeting",
        },
        "capabilities": ["report_no_show"],
        "entities_schema": {
            "person_text": {"type": "string", "required": True, "description": {"pt": "Quem", "en": "Who"}},
            # the meeting already happened: "sexta" is the last Friday
            "day": {**DAY, "required": True, "prefer_dates_from": "past"},
        },
        "examples": [
            _ex("a Ana não apareceu na reunião de ontem", person_text="Ana", day="ontem"),
            _ex("o Pedro faltou na reunião de segunda", person_text="Pedro", day="segunda"),
            _ex("Carla não veio na reunião do dia 12", person_text="Carla", day="dia 12"),
            _ex("John didn't show up to yesterday's meeting", person_text="John", day="yesterday"),
            _ex("Mary was a no-show at the meeting on Monday", person_text="Mary", day="Monday"),
            _ex("Paul skipped the meeting on the 12th", person_text="Paul", day="the 12th"),
        ],
    }
)

if __name__ == "__main__":
    serve(service)

# ------------------------------------------------------------------ the tests

from tests.conftest import (  # noqa: E402
    Process,
    gateway_over,
    reserve_port,
    start_and_wait,
)

pytestmark = pytest.mark.integration
ADMIN = {"Authorization": "Bearer test-admin-token"}


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    with reserve_port() as reserved:  # held until it answers: uvicorn binds after its start-up
        url = reserved.url
        argv = [sys.executable, str(Path(__file__)), "--port", str(reserved.port)]
        proc = start_and_wait(argv, url, {**os.environ, "PYTHONPATH": str(ROOT)})
    meetings = Process("meetings", url, proc)
    try:
        with gateway_over(domain_processes, tmp_path_factory.mktemp("typed")) as running:
            registered = httpx.post(
                f"{running.url}/v1/domains",
                json={"name": "meetings", "base_url": url},
                headers=ADMIN,
                timeout=300,
            )
            assert registered.status_code == 201, registered.text
            yield running
    finally:
        meetings.stop()


class Session:
    def __init__(self, gateway: Process):
        self.gateway = gateway
        self.id = f"typed-{uuid.uuid4().hex[:12]}"

    def say(self, text: str) -> dict[str, Any]:
        response = httpx.post(
            f"{self.gateway.url}/v1/runs",
            json={"input_text": text, "session_id": self.id, "metadata": {"time_zone": ZONE}},
            timeout=60,
        )
        assert response.status_code == 200, response.text
        return dict(response.json())


def _day(offset: int) -> str:
    return (datetime.now(ZoneInfo(ZONE)) + timedelta(days=offset)).date().isoformat()


def _planned(run: dict[str, Any]) -> dict[str, Any]:
    """The parameters of the step a pending approval holds."""
    question = run["question"]
    assert question is not None and question["kind"] == "approval", run["answer"]
    steps = question["resume"]["plan"]["steps"]
    return dict(steps[0]["params"])


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("marca reunião com a Ana amanhã às 14h", "Ana"),
        ("schedule a meeting with John tomorrow at 2pm", "John"),
    ],
)
def test_a_day_and_a_time_reach_the_domain_as_values_after_a_yes(
    gateway: Process, text: str, person: str
) -> None:
    session = Session(gateway)
    asked = session.say(text)
    # a clear request: no "do you want …?", straight to the capability's own approval
    assert _planned(asked) == {"person_text": person, "day": _day(1), "time": "14:00"}
    assert asked["steps"] == []  # nothing acts before the yes
    done = session.say("sim" if person == "Ana" else "yes")
    assert [s["capability"] for s in done["steps"]] == ["schedule_meeting"]
    assert done["steps"][0]["params"]["day"] == _day(1)


@pytest.mark.parametrize("text", ["marca reunião com a Ana às 15h", "schedule a meeting with John at 3pm"])
def test_a_day_nobody_said_is_asked_never_guessed(gateway: Process, text: str) -> None:
    asked = Session(gateway).say(text)
    assert asked["question"]["kind"] == "slot_filling" and asked["question"]["entity"] == "day"
    assert asked["steps"] == []


@pytest.mark.parametrize(
    ("text", "correction"),
    [
        ("marca reunião com a Ana amanhã às 14h", "não, depois de amanhã"),
        ("schedule a meeting with John tomorrow at 2pm", "no, make it the day after tomorrow"),
    ],
)
def test_a_correction_while_the_approval_waits_makes_the_plan_again(
    gateway: Process, text: str, correction: str
) -> None:
    session = Session(gateway)
    assert _planned(session.say(text))["day"] == _day(1)
    again = session.say(correction)
    assert _planned(again)["day"] == _day(2)  # asked again, with the new day
    assert again["steps"] == []


@pytest.mark.parametrize(
    ("first", "follow_up"),
    [
        ("quais reuniões eu tenho amanhã?", "e depois de amanhã?"),
        ("what meetings do I have tomorrow?", "and the day after tomorrow?"),
    ],
)
def test_a_follow_up_changes_the_day_on_a_registered_domain(
    gateway: Process, first: str, follow_up: str
) -> None:
    session = Session(gateway)
    listed = session.say(first)
    assert [s["params"] for s in listed["steps"]] == [{"day": _day(1)}]
    followed = session.say(follow_up)
    assert [s["params"] for s in followed["steps"]] == [{"day": _day(2)}]


@pytest.mark.parametrize(
    ("text", "message", "help_text"),
    [
        ("manda no telegram: reunião às 15h", "reunião às 15h", "o que você sabe fazer?"),
        ("send a telegram message saying the meeting is at 3pm", "the meeting is at 3pm", "what can you do?"),
    ],
)
def test_the_notifier_is_asked_directly_and_help_lists_it(
    gateway: Process, text: str, message: str, help_text: str
) -> None:
    sent = Session(gateway).say(text)
    assert [(s["domain"], s["capability"]) for s in sent["steps"]] == [("notifier", "send_telegram_message")]
    assert sent["steps"][0]["params"]["message"] == message
    assert "telegram" in Session(gateway).say(help_text)["answer"].lower()


def _last(weekday: int) -> str:
    """The last day up to today that is ``weekday`` (Monday is 0): today when today is one."""
    today = datetime.now(ZoneInfo(ZONE)).date()
    return (today - timedelta(days=(today.weekday() - weekday) % 7)).isoformat()


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("a Ana não apareceu na reunião de sexta", "Ana"),
        ("John didn't show up to the meeting on Friday", "John"),
    ],
)
def test_a_day_already_past_is_the_last_one_of_its_name(gateway: Process, text: str, person: str) -> None:
    reported = Session(gateway).say(text)
    assert [(s["capability"], s["params"]) for s in reported["steps"]] == [
        ("report_no_show", {"person_text": person, "day": _last(4)})
    ]
