"""Standing requests read from messages, in Portuguese and English: the recurrence, the time of
day (Duckling), the watch's condition and amount, what runs at each tick, and management."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dialogue.standing import (
    StandingView,
    answer_yes_no,
    describe_draft,
    describe_view,
    read_command,
    read_standing,
)
from shared.i18n import CORE
from tests.standing.conftest import standing_request

NOW = datetime(2026, 11, 26, 13, tzinfo=UTC)  # 10:00 in São Paulo: "at 9" is not "21:00"
SP = "America/Sao_Paulo"


@pytest.mark.parametrize(
    ("text", "rule", "runs", "label"),
    [
        (
            "manda as maiores altas do Brasil todo dia útil às 9h no meu telegram",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0",
            "manda as maiores altas do Brasil no meu telegram",
            "as maiores altas do Brasil",
        ),
        (
            "every Monday at 8am send me the price of Apple and Microsoft",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0",
            "send me the price of Apple and Microsoft",
            "the price of Apple and Microsoft",
        ),
        (
            "toda segunda às 8:30 me manda a cotação do Itaú",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=30",
            "me manda a cotação do Itaú",
            "a cotação do Itaú",
        ),
        ("daily at 9 send me the top gainers", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", None, "the top gainers"),
        ("every day at 9pm send me the top gainers", "FREQ=DAILY;BYHOUR=21;BYMINUTE=0", None, None),
        ("a cada hora me manda a cotação da Vale", "FREQ=HOURLY;BYMINUTE=0", None, "a cotação da Vale"),
        ("every 2 hours send me the price of Tesla", "FREQ=HOURLY;INTERVAL=2;BYMINUTE=0", None, None),
        ("todos os dias me manda as maiores quedas", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", None, None),
        ("send me Apple's price on Mondays at 8am", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0", None, None),
        (
            "manda a cotação da Vale às segundas-feiras às 10h",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=10;BYMINUTE=0",
            None,
            "a cotação da Vale",
        ),
    ],
)
def test_schedules(text: str, rule: str, runs: str | None, label: str | None) -> None:
    draft = read_standing(text, time_zone=SP, now=NOW)
    assert draft is not None and draft.kind == "schedule"
    assert draft.recurrence == rule
    if runs is not None:
        assert draft.request_text == runs
    if label is not None:
        assert draft.label == label


def test_confirmations_say_what_and_when_in_the_persons_language() -> None:
    pt = read_standing(
        "manda as maiores altas do Brasil todo dia útil às 9h no meu telegram", time_zone=SP, now=NOW
    )
    assert pt is not None
    assert describe_draft(pt) == (
        "Todo dia útil às 09:00 (America/Sao_Paulo) vou mandar “as maiores altas do Brasil” "
        "no seu telegram. Confirma?"
    )
    en = read_standing(
        "every Monday at 8am send me the price of Apple and Microsoft", time_zone="America/New_York", now=NOW
    )
    assert en is not None and en.language == "en"
    assert describe_draft(en) == (
        "Every Monday at 08:00 (America/New_York) I will send you "
        "“the price of Apple and Microsoft”. Confirm?"
    )


@pytest.mark.parametrize(
    ("text", "subject", "condition", "language"),
    [
        ("me avisa quando a Petrobras passar de 40 reais", "Petrobras", "value > `40`", "pt"),
        ("me avise quando a Vale cair abaixo de 55,5", "Vale", "value < `55.5`", "pt"),
        ("alert me when Apple goes below $150", "Apple", "value < `150`", "en"),
        ("let me know when Microsoft rises above 400 dollars", "Microsoft", "value > `400`", "en"),
    ],
)
def test_watches(text: str, subject: str, condition: str, language: str) -> None:
    draft = read_standing(text, time_zone=SP, now=NOW)
    assert draft is not None and draft.kind == "watch"
    assert (draft.label, draft.condition, draft.language) == (subject, condition, language)
    assert subject in draft.request_text


def test_watch_confirmation() -> None:
    draft = read_standing("me avisa quando a Petrobras passar de 40 reais", time_zone=SP, now=NOW)
    assert draft is not None
    draft = draft.model_copy(update={"interval_seconds": 600})
    assert describe_draft(draft) == (
        "Vou acompanhar “Petrobras” a cada 10 minutos e te aviso quando passar de 40 BRL. Confirma?"
    )


@pytest.mark.parametrize(
    ("text", "subject", "condition", "language", "confirmation"),
    [
        (
            "me avisa se a Petrobras subir 5%",
            "Petrobras",
            "output.result.change_pct >= `5`",
            "pt",
            "Vou acompanhar “Petrobras” a cada 10 minutos e te aviso quando subir 5% no dia. Confirma?",
        ),
        (
            "me avise quando a Vale cair 2,5 por cento",
            "Vale",
            "output.result.change_pct <= `-2.5`",
            "pt",
            "Vou acompanhar “Vale” a cada 10 minutos e te aviso quando cair 2,5% no dia. Confirma?",
        ),
        (
            "alert me when Apple drops 3%",
            "Apple",
            "output.result.change_pct <= `-3`",
            "en",
            "I will check “Apple” every 10 minutes and tell you when it falls 3% on the day. Confirm?",
        ),
        (
            "let me know if Microsoft rises 4 percent",
            "Microsoft",
            "output.result.change_pct >= `4`",
            "en",
            "I will check “Microsoft” every 10 minutes and tell you when it rises 4% on the day. Confirm?",
        ),
    ],
)
def test_percentage_watches(
    text: str, subject: str, condition: str, language: str, confirmation: str
) -> None:
    draft = read_standing(text, time_zone=SP, now=NOW)
    assert draft is not None and draft.kind == "watch" and draft.percent
    assert (draft.label, draft.condition, draft.language) == (subject, condition, language)
    assert subject in draft.request_text
    draft = draft.model_copy(update={"interval_seconds": 600})
    assert describe_draft(draft) == confirmation


def test_a_percentage_watch_is_told_back_in_words() -> None:
    request = standing_request(
        kind="watch",
        label="Petrobras",
        request_text="quanto está Petrobras?",
        recurrence=None,
        interval_seconds=300,
        condition="output.result.change_pct <= `-2.5`",
    )
    view = StandingView.model_validate(request.model_dump())
    assert describe_view(view, "pt") == "“Petrobras” — a cada 5 minutos, quando cair 2,5% no dia"
    assert describe_view(view, "en") == "“Petrobras” — every 5 minutes, when it falls 2.5% on the day"


@pytest.mark.parametrize(
    "text",
    [
        "me avisa se a reserva for confirmada",
        "alert me when Apple reports earnings",
        "cotação da Petrobras",
        "qual foi a maior alta de hoje?",
        "manda isso no telegram",
        "price of Apple",
        "what do people eat every day?",
        "o que a Petrobras faz todo dia?",
        # one day named is a date, not a recurrence
        "book a GP on Thursday at 11",
        "will it rain on Friday?",
        "marca um médico na quinta às 11",
        # a question about another thing's schedule lists no standing requests
        "what's the schedule and price of the marketing course?",
        "qual o agendamento da minha consulta de amanhã?",
    ],
)
def test_ordinary_requests_are_not_standing(text: str) -> None:
    assert read_standing(text, time_zone=SP, now=NOW) is None
    assert read_command(text, language="pt") is None


@pytest.mark.parametrize(
    ("text", "action", "target", "kind"),
    [
        ("quais alertas eu tenho?", "list", [], "watch"),
        ("quais agendamentos eu tenho?", "list", [], "schedule"),
        ("what alerts do I have?", "list", [], "watch"),
        ("pausa o da Petrobras", "pause", ["petrobras"], None),
        ("cancela o alerta da Petrobras", "cancel", ["petrobras"], "watch"),
        ("resume the Apple one", "resume", ["apple"], None),
        ("cancel my Apple alert", "cancel", ["apple"], "watch"),
    ],
)
def test_management(text: str, action: str, target: list[str], kind: str | None) -> None:
    command = read_command(text, language="pt")
    assert command is not None
    assert (command.action, command.target, command.kind) == (action, target, kind)


@pytest.mark.parametrize(
    ("text", "yes"),
    [
        ("sim", True),
        ("Sim, pode", True),
        ("yes", True),
        ("não", False),
        ("no thanks", False),
        ("talvez amanhã cedo sim", None),
    ],
)
def test_yes_no(text: str, yes: bool | None) -> None:
    assert answer_yes_no(text) is yes


def _said_ids(path: Path) -> set[str]:
    """The message ids ``path`` passes to ``say`` or ``StandingRefused`` (both branches of an if)."""
    ids: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("say", "StandingRefused"):
            first = node.args[0]
            branches = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            ids |= {b.value for b in branches if isinstance(b, ast.Constant) and isinstance(b.value, str)}
    return ids


def test_every_text_said_is_in_the_catalog_and_every_catalog_text_is_said() -> None:
    root = Path(__file__).resolve().parents[2]
    said = _said_ids(root / "dialogue" / "standing.py") | _said_ids(
        root / "gateway" / "turns" / "standing.py"
    )
    catalog = {m.removeprefix("standing.") for m in CORE if m.startswith("standing.")}
    assert said - catalog == set()  # a typo would be told as the id itself
    assert catalog - said == set()
