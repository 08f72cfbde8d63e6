"""Typed entities: Duckling's readings normalised to the manifest's contract, resolved against the
conversation's clock, and given only to entities of their type (a time never fills a date)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from pydantic import SecretStr

from intent.embedded import EmbeddedIntentAdapter
from intent.entities import GoalEntityExtractor
from intent.llm import LlmIntentAdapter, build_schema
from intent.settings import IntentSettings
from intent.typed import RECOGNIZER, Clock, valid_time_zone
from shared.catalog import Catalog
from shared.manifest import DomainManifest, Goal, ManifestInvalid, validate_manifest
from tests.intent.fake_openai_server import FakeOpenAI

SAO_PAULO = "America/Sao_Paulo"
#: a Thursday morning in São Paulo
THURSDAY = datetime(2026, 11, 26, 9, 0, tzinfo=ZoneInfo(SAO_PAULO))
CLOCK = Clock(now=THURSDAY, time_zone=SAO_PAULO)

MEETINGS: dict[str, Any] = {
    "domain": "meetings",
    "version": "1",
    "description": {"pt": "Agenda de reuniões", "en": "Meeting calendar"},
    "capabilities": [{"name": "schedule", "description": "schedule a meeting"}],
    "goals": [
        {
            "goal": "SCHEDULE_MEETING",
            "description": {"pt": "Marcar uma reunião", "en": "Schedule a meeting"},
            "capabilities": ["schedule"],
            "entities_schema": {
                "person": {"type": "string", "required": True, "description": "Com quem"},
                "day": {"type": "date", "required": True, "description": {"pt": "O dia", "en": "The day"}},
                "time": {
                    "type": "time",
                    "required": True,
                    "description": {"pt": "O horário", "en": "The time"},
                },
                "attendees": {"type": "number"},
                "budget": {"type": "money"},
            },
            "examples": [
                {
                    "text": "marca reunião com Ana amanhã às 10h",
                    "entities": {"person": "Ana", "day": "amanhã", "time": "10h"},
                },
                {"text": "schedule a meeting with John on Friday at 3pm", "entities": {"person": "John"}},
                "agenda uma reunião",
            ],
        },
        {
            "goal": "BOOK_ROOM",
            "description": {"pt": "Reservar uma sala", "en": "Book a room"},
            "capabilities": ["schedule"],
            "entities_schema": {"start": {"type": "datetime", "required": True}},
            "examples": ["reserva a sala amanhã às 9h", "book the room tomorrow at 9am"],
        },
    ],
}


def _extractor(goal: int = 0) -> GoalEntityExtractor:
    return GoalEntityExtractor(Goal.model_validate(MEETINGS["goals"][goal]))


def _types(text: str, language: str, clock: Clock = CLOCK) -> list[tuple[str, Any]]:
    return [
        (s.type, s.value) for s in RECOGNIZER.spans(text, language, time_zone=clock.time_zone, now=clock.now)
    ]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("amanhã às 14h", "pt", [("datetime", "2026-11-27T14:00:00-03:00")]),
        ("amanha as 14h", "pt", [("datetime", "2026-11-27T14:00:00-03:00")]),
        ("hj às 10h", "pt", [("datetime", "2026-11-26T10:00:00-03:00")]),
        ("às 14h", "pt", [("time", "14:00")]),
        ("14h", "pt", [("time", "14:00")]),
        # 07:30 has passed on the clock: still the time as written, not 19:30
        ("amanhã 7h30", "pt", [("datetime", "2026-11-27T07:30:00-03:00")]),
        ("às 7h30", "pt", [("time", "07:30")]),
        ("às 8 da noite", "pt", [("time", "20:00")]),
        ("sexta às 11h", "pt", [("datetime", "2026-11-27T11:00:00-03:00")]),
        # "que vem": that weekday of next week (Duckling's Portuguese put Monday a week later)
        ("segunda que vem", "pt", [("date", "2026-11-30")]),
        ("sexta que vem", "pt", [("date", "2026-12-04")]),
        ("temperatura agora", "pt", []),
        ("consulta 18/03 14h", "pt", [("datetime", "2027-03-18T14:00:00-03:00")]),
        ("dia 15 de janeiro para 2 pessoas", "pt", [("date", "2027-01-15"), ("number", 2)]),
        ("dia 1º de março de 2027", "pt", [("date", "2027-03-01")]),
        # a number after noon is no minutes ("meio-dia e dez" is how 12:10 is said)
        ("amanhã meio dia 2 pessoas", "pt", [("datetime", "2026-11-27T12:00:00-03:00"), ("number", 2)]),
        ("meia-noite 3 pessoas", "pt", [("time", "00:00"), ("number", 3)]),
        ("meio dia e meia", "pt", [("time", "12:30")]),
        # a number after hours written with "h" counts what follows it ("18h06" is how 18:06 is said)
        ("amanhã 18h 6 pessoas", "pt", [("datetime", "2026-11-27T18:00:00-03:00"), ("number", 6)]),
        ("sexta 20h 4 jogadores", "pt", [("datetime", "2026-11-27T20:00:00-03:00"), ("number", 4)]),
        ("amanhã às 18h 30 min", "pt", [("datetime", "2026-11-27T18:30:00-03:00")]),
        ("amanhã às 18h 30", "pt", [("datetime", "2026-11-27T18:30:00-03:00")]),
        # "ao meio-dia" is at noon, not Duckling's "until noon" (the day alone was kept)
        ("sexta ao meio-dia", "pt", [("datetime", "2026-11-27T12:00:00-03:00")]),
        ("amanhã ao meio dia pra 3", "pt", [("datetime", "2026-11-27T12:00:00-03:00"), ("number", 3)]),
        ("paguei R$ 50,00", "pt", [("money", {"amount": 50, "currency": "BRL"})]),
        ("quanto é 100 dólares em reais", "pt", [("money", {"amount": 100, "currency": "USD"})]),
        ("a reunião dura 2 horas", "pt", [("duration", "PT2H")]),
        # a start and how long, which Duckling reads as one interval, are a time and a duration
        ("friday 3pm for 2 hours", "en", [("datetime", "2026-11-27T15:00:00-03:00"), ("duration", "PT2H")]),
        (
            "tonight at 11:30pm for 1 hour",
            "en",
            [("datetime", "2026-11-26T23:30:00-03:00"), ("duration", "PT1H")],
        ),
        ("sábado 11h por 4h", "pt", [("datetime", "2026-11-28T11:00:00-03:00"), ("duration", "PT4H")]),
        (
            "domingo 7h por meia hora",
            "pt",
            [("datetime", "2026-11-29T07:00:00-03:00"), ("duration", "PT30M")],
        ),
        ("às 14h", "pt", [("time", "14:00")]),
        ("tomorrow at 2pm", "en", [("datetime", "2026-11-27T14:00:00-03:00")]),
        ("three passengers", "en", [("number", 3)]),
        ("it costs 20 bucks", "en", [("money", {"amount": 20, "currency": "USD"})]),
        # four bare digits are a number (a meter's reading), no year and no day of one
        ("o relógio tá marcando 1560", "pt", [("number", 1560)]),
        ("it costs $19.99", "en", [("money", {"amount": 19.99, "currency": "USD"})]),
        # reais in an English message: only Duckling's Portuguese knows the real
        (
            "refund R$ 25 on order 77801",
            "en",
            [("money", {"amount": 25, "currency": "BRL"}), ("number", 77801)],
        ),
        ("refund 30 reais please", "en", [("money", {"amount": 30, "currency": "BRL"})]),
        ("real estate for 5 people", "en", [("number", 5)]),
        ("email bob@example.org", "en", [("email", "bob@example.org")]),
        ("cancel booking ABC123", "en", []),
        ("hi there, how are you?", "en", []),
        # a count with a times sign; "4x4" is a name, not a count
        ("ingresso pro duna 2x", "pt", [("number", 2)]),
        ("tickets x3", "en", [("number", 3)]),
        ("rent the 4x4", "en", []),
    ],
)
def test_values_are_normalised(text: str, language: str, expected: list[tuple[str, Any]]) -> None:
    assert _types(text, language) == expected


def test_relative_days_follow_the_conversations_time_zone() -> None:
    # 01:00 UTC on Friday is still Thursday evening in São Paulo
    late = datetime(2026, 11, 27, 1, 0, tzinfo=UTC)
    assert _types("amanhã", "pt", Clock(now=late, time_zone=SAO_PAULO)) == [("date", "2026-11-27")]
    assert _types("amanhã", "pt", Clock(now=late, time_zone="UTC")) == [("date", "2026-11-28")]


def test_clock_from_a_context() -> None:
    clock = Clock.of({"time_zone": SAO_PAULO, "now": "2026-11-26T12:00:00+00:00"})
    assert (clock.time_zone, clock.now.hour) == (SAO_PAULO, 12)
    assert Clock.of({"time_zone": "Mars/Olympus"}, "Europe/Lisbon").time_zone == "Europe/Lisbon"
    assert Clock.of(None).now.tzinfo is not None
    assert valid_time_zone("not a zone", "UTC") == "UTC"


def test_a_day_and_a_time_fill_a_date_and_a_time() -> None:
    found = _extractor().extract("marca reunião com o Pedro amanhã às 14h", clock=CLOCK)
    assert found == {"person": "Pedro", "day": "2026-11-27", "time": "14:00"}
    english = _extractor().extract(
        "schedule a meeting with John on Friday at 11:30", clock=CLOCK, language="en"
    )
    assert english == {"person": "John", "day": "2026-11-27", "time": "11:30"}


def test_a_span_that_is_not_a_date_never_fills_a_date() -> None:
    # a time, a name, a bare number: none of them is a day
    assert _extractor().extract("marca reunião com a Ana às 15h", clock=CLOCK) == {
        "person": "Ana",
        "time": "15:00",
    }
    assert "day" not in _extractor().extract("agenda com a Maria", clock=CLOCK)
    assert "day" not in _extractor().extract("marca reunião com 3 pessoas", clock=CLOCK)


def test_numbers_and_money_are_values_not_text() -> None:
    found = _extractor().extract(
        "marca reunião com Ana amanhã às 9h para 4 pessoas, orçamento R$ 200", clock=CLOCK
    )
    assert found["attendees"] == 4
    assert found["budget"] == {"amount": 200, "currency": "BRL"}
    assert found["person"] == "Ana"


def test_a_datetime_is_a_said_day_and_time() -> None:
    room = _extractor(1)
    assert room.extract("reserva a sala amanhã às 9h", clock=CLOCK) == {"start": "2026-11-27T09:00:00-03:00"}
    # a day and a time said apart make one datetime
    assert room.extract("reserva a sala dia 3 de dezembro, às 16h", clock=CLOCK) == {
        "start": "2026-12-03T16:00:00-03:00"
    }
    assert room.extract("reserva a sala às 9h", clock=CLOCK) == {}  # no day was said
    assert room.extract("reserva a sala amanhã", clock=CLOCK) == {}  # no time was said


def test_the_manifest_schema_publishes_the_types() -> None:
    manifest = validate_manifest(MEETINGS)
    assert manifest.goals[0].entities_schema["day"].type == "date"
    bad = json.loads(json.dumps(MEETINGS))
    bad["goals"][0]["entities_schema"]["day"]["type"] = "calendar"
    with pytest.raises(ManifestInvalid) as caught:
        validate_manifest(bad)
    assert "goals.0.entities_schema.day.type" in str(caught.value)
    bad["goals"][0]["entities_schema"]["day"] = {"type": "date", "lookup": [{"value": "x"}]}
    with pytest.raises(ManifestInvalid, match="lookup"):
        validate_manifest(bad)


def test_the_llm_is_asked_for_the_same_contract() -> None:
    catalog = Catalog([DomainManifest.model_validate(MEETINGS)])
    entities = build_schema(catalog)["properties"]["entities"]["properties"]
    assert entities["day"]["anyOf"][0]["pattern"] == r"^\d{4}-\d{2}-\d{2}$"
    assert entities["budget"]["anyOf"][0]["required"] == ["amount", "currency"]
    assert entities["attendees"]["anyOf"][0] == {"type": "number"}


async def test_the_llm_gets_the_clock_and_no_invented_day() -> None:
    catalog = Catalog([DomainManifest.model_validate(MEETINGS)])
    fake = FakeOpenAI(api_key="sk-test")
    reply = {
        "person": "Ana",
        "day": "2026-11-27",
        "time": "15:00",
        "attendees": None,
        "budget": None,
        "start": None,
    }
    fake.reply = lambda body: json.dumps(
        {"goal": "meetings.SCHEDULE_MEETING", "entities": reply, "confidence": 0.9, "language": "pt"}
    )
    settings = IntentSettings(
        llm_base_url="http://llm.test/v1", llm_model="m", llm_api_key=SecretStr("sk-test")
    )
    embedded = EmbeddedIntentAdapter(catalog, use_embeddings=False)
    llm = LlmIntentAdapter(settings, fallback=embedded, transport=httpx.ASGITransport(app=fake.app()))
    llm.catalog = catalog
    context = {"time_zone": SAO_PAULO, "now": THURSDAY.isoformat()}
    out = await llm.parse("marca reunião com a Ana às 15h", context=context)
    # the model said a day the person did not: it is dropped, the time is kept
    assert out.entities == {"person": "Ana", "time": "15:00"}
    assert any("dropped entity day" in note for note in out.notes)
    assert "2026-11-26T09:00" in fake.requests[0]["messages"][0]["content"]
    await llm.aclose()


LEARNED_FORMS = Goal.model_validate(
    {
        "goal": "BOOK",
        "description": "Marcar consulta",
        "capabilities": ["book"],
        "entities_schema": {
            "doctor_text": {"type": "string"},
            "day_text": {"type": "string"},
            "time_text": {"type": "string"},
            "order_text": {"type": "string"},
            "amount_text": {"type": "string"},
        },
        "examples": [
            {
                "text": "marca com a Dra. Lia amanhã às 10h",
                "entities": {"doctor_text": "Dra. Lia", "day_text": "amanhã", "time_text": "10h"},
            },
            {"text": "consulta sexta 9:30", "entities": {"day_text": "sexta", "time_text": "9:30"}},
            {"text": "book for March 14 at 2pm", "entities": {"day_text": "March 14", "time_text": "2pm"}},
            {
                "text": "pedido 12345 estorna R$ 30",
                "entities": {"order_text": "12345", "amount_text": "R$ 30"},
            },
            {
                "text": "pedido 55501 devolve 19,90",
                "entities": {"order_text": "55501", "amount_text": "19,90"},
            },
        ],
    }
)


def test_string_entities_learn_their_form_from_the_annotated_values() -> None:
    extractor = GoalEntityExtractor(LEARNED_FORMS)
    assert extractor.extract("marca amanhã às 14h", clock=CLOCK) == {
        "day_text": "amanhã",
        "time_text": "às 14h",
    }
    # the person's words, as written: the domain reads them
    assert extractor.extract("pedido 77801 estorna 49,90", clock=CLOCK) == {
        "order_text": "77801",
        "amount_text": "49,90",
    }
    # a name or an order number is no day, and an order number no amount
    found = extractor.extract("marca com o Dr. Paulo", clock=CLOCK)
    assert "day_text" not in found and "time_text" not in found
    assert "amount_text" not in extractor.extract("pedido 77801", clock=CLOCK)
