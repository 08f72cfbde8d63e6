"""The approval question shows a goal entity's value the way the person talks, in their language:
an enum by its own synonym in that language (else its value in lower case), a boolean as a yes or
a no (after its description, unquoted), an integral number without ".0", a date, time or datetime
as a weekday and day ("sexta, 13/03" / "Fri 13 Mar") and a clock time. A value an earlier step
makes, a value the entity does not declare, and a parameter that is no goal entity are shown as
before. A replan's changes name their values the same way."""

from __future__ import annotations

from typing import Any

import pytest

from dialogue.approval import approval_question, changes_text, replan_question
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput, ParamChange
from shared.planning import HeldReplan

#: A time-off domain like round 6's: an enum whose first synonyms vote for no language.
TIME_OFF: dict[str, Any] = {
    "domain": "time_off",
    "version": "1",
    "description": {"pt": "Férias e folgas", "en": "Time off"},
    "capabilities": [
        {
            "name": "request_leave",
            "description": {"pt": "Pede uma ausência", "en": "Request leave"},
            "parameters": {"type": "object", "properties": {}},
            "metadata": {"policy": {"confirm": True}},
        },
        {
            "name": "book_room",
            "description": {"pt": "Reserva uma sala", "en": "Book a room"},
            "parameters": {"type": "object", "properties": {}},
            "metadata": {"policy": {"confirm": True}},
        },
        {
            "name": "list_days",
            "description": {"pt": "Lista os dias livres", "en": "List the free days"},
            "parameters": {"type": "object", "properties": {}},
        },
    ],
    "goals": [
        {
            "goal": "REQUEST_LEAVE",
            "description": {"pt": "Pedir férias ou folga", "en": "Request time off"},
            "capabilities": ["request_leave"],
            "entities_schema": {
                "leave_type": {
                    "type": "enum",
                    "values": ["VACATION", "PERSONAL", "HOME_OFFICE"],
                    "synonyms": {
                        "VACATION": ["férias", "vacation"],
                        "PERSONAL": ["folga", "day off", "dia de folga", "personal day"],
                    },
                    "description": {"pt": "O tipo de ausência", "en": "The kind of leave"},
                },
                "start": {
                    "type": "date",
                    "description": {"pt": "O primeiro dia da ausência", "en": "The first day off"},
                },
                "days": {
                    "type": "number",
                    "description": {"pt": "Quantos dias úteis", "en": "How many working days"},
                },
                "half_day": {
                    "type": "boolean",
                    "description": {"pt": "Só meio período", "en": "Only half a day"},
                },
                "urgent": {"type": "boolean"},
            },
        },
        {
            "goal": "BOOK_ROOM",
            "description": {"pt": "Reservar uma sala", "en": "Book a room"},
            "capabilities": ["book_room"],
            "entities_schema": {
                "at": {"type": "datetime", "description": {"pt": "Quando", "en": "When"}},
                "until": {"type": "time", "description": {"pt": "Até que horas", "en": "Until when"}},
                "day": {"type": "date", "description": {"pt": "O dia", "en": "The day"}},
            },
        },
    ],
}
CATALOG = Catalog([validate_manifest(TIME_OFF)])
LEAVE = ExecutionIntent(domain="time_off", capability="request_leave", goal="REQUEST_LEAVE")
ROOM = ExecutionIntent(domain="time_off", capability="book_room", goal="BOOK_ROOM")


def _asked(params: dict[str, Any], language: str, execution: ExecutionIntent = LEAVE) -> str:
    """The approval's text for one step of ``execution``'s capability with ``params``."""
    step = ExecutionStep(id=1, domain="time_off", capability=execution.capability, params=params)
    intent = IntentOutput(primary_domain="time_off", goal=execution.goal, confidence=0.9, language=language)
    return approval_question([step], intent, execution, ExecutionPlan(steps=[step]), CATALOG).text


LEAVE_PARAMS = {"leave_type": "PERSONAL", "start": "2026-03-13", "days": 1.0, "half_day": True}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "pt",
            "Próximo passo: pede uma ausência (o tipo de ausência: “dia de folga”, o primeiro dia da "
            "ausência: “sexta, 13/03”, quantos dias úteis: “1”, só meio período: sim). Confirma?",
        ),
        (
            "en",
            "Next step: request leave (the kind of leave: “personal”, the first day off: “Fri 13 Mar”, "
            "how many working days: “1”, only half a day: yes). Go ahead?",
        ),
    ],
)
def test_a_leave_request_reads_the_way_the_person_talks(language: str, expected: str) -> None:
    """ "folga na sexta, meio período": the enum by the first synonym said in the person's language
    (English has none: the value in lower case), the day with its weekday, 1.0 as "1", the switch
    as its description answered."""
    assert expected in _asked(LEAVE_PARAMS, language)


@pytest.mark.parametrize(
    ("params", "pt", "en"),
    [
        ({"leave_type": "VACATION"}, "(o tipo de ausência: “férias”)", "(the kind of leave: “vacation”)"),
        # no synonyms at all: the value humanised, in either language
        (
            {"leave_type": "HOME_OFFICE"},
            "(o tipo de ausência: “home office”)",
            "(the kind of leave: “home office”)",
        ),
        # a boolean the goal does not describe: the yes or no alone, quoted like any bare value
        ({"urgent": False}, "(“não”)", "(“no”)"),
        ({"half_day": "false"}, "(só meio período: não)", "(only half a day: no)"),
        ({"days": 2.5}, "(quantos dias úteis: “2.5”)", "(how many working days: “2.5”)"),
    ],
)
def test_each_kind_of_value_in_both_languages(params: dict[str, Any], pt: str, en: str) -> None:
    assert pt in _asked(params, "pt")
    assert en in _asked(params, "en")


@pytest.mark.parametrize(
    ("params", "pt", "en"),
    [
        (
            {"at": "2026-03-13T14:00:00-03:00"},
            "(quando: “sexta, 13/03, 14:00”)",
            "(when: “Fri 13 Mar at 14:00”)",
        ),
        ({"until": "18:30:00"}, "(até que horas: “18:30”)", "(until when: “18:30”)"),
        ({"day": "2026-03-16"}, "(o dia: “segunda, 16/03”)", "(the day: “Mon 16 Mar”)"),
        ({"at": "2026-03-15"}, "(quando: “domingo, 15/03”)", "(when: “Sun 15 Mar”)"),
        # Portuguese pads the day as it writes it, English does not
        ({"day": "2026-04-03"}, "(o dia: “sexta, 03/04”)", "(the day: “Fri 3 Apr”)"),
    ],
)
def test_dates_and_times_read_as_a_weekday_and_a_clock(params: dict[str, Any], pt: str, en: str) -> None:
    assert pt in _asked(params, "pt", ROOM)
    assert en in _asked(params, "en", ROOM)


def test_what_no_spec_reads_better_is_shown_as_written() -> None:
    """A value the enum does not declare, a date that is no ISO date, a parameter that is no goal
    entity: quoted as today."""
    params = {"leave_type": "SABBATICAL", "start": "amanhã", "reason": True, "weight": 2.0}
    text = _asked(params, "pt")
    assert "(o tipo de ausência: “SABBATICAL”, o primeiro dia da ausência: “amanhã”, “True”, “2.0”)" in text


def test_a_value_an_earlier_step_makes_is_still_named_by_that_step() -> None:
    listed = ExecutionStep(id=1, domain="time_off", capability="list_days", params={})
    leave = ExecutionStep(
        id=2, domain="time_off", capability="request_leave", params={"start": "${1.first_free}"}
    )
    plan = ExecutionPlan(steps=[listed, leave])
    intent = IntentOutput(primary_domain="time_off", goal="REQUEST_LEAVE", confidence=0.9, language="pt")
    text = approval_question([leave], intent, LEAVE, plan, CATALOG).text
    assert "(o primeiro dia da ausência: com o resultado de “lista os dias livres”)" in text


def test_a_step_of_another_goal_keeps_its_values_as_written() -> None:
    """The room booking is no capability of the leave request: its parameters are no entities."""
    step = ExecutionStep(id=1, domain="time_off", capability="book_room", params={"day": "2026-03-16"})
    intent = IntentOutput(primary_domain="time_off", goal="REQUEST_LEAVE", confidence=0.9, language="en")
    text = approval_question([step], intent, LEAVE, ExecutionPlan(steps=[step]), CATALOG).text
    assert "book a room (“2026-03-16”)" in text


def test_a_replans_changes_name_their_values_the_same_way() -> None:
    step = ExecutionStep(id=1, domain="time_off", capability="request_leave", params=LEAVE_PARAMS)
    plan = ExecutionPlan(steps=[step])
    changes = [ParamChange(1, "start", "2026-03-14", "2026-03-16"), ParamChange(1, "half_day", True, False)]
    assert changes_text(changes, LEAVE, plan, CATALOG, "pt") == (
        "“segunda, 16/03” no lugar de “sábado, 14/03” (o primeiro dia da ausência); "
        "“não” no lugar de “sim” (só meio período)"
    )
    # the plan the yes runs carries the suggestion
    patched = ExecutionPlan(steps=[step.model_copy(update={"params": {**LEAVE_PARAMS, "half_day": False}})])
    held = HeldReplan(patched, 1, changes[1:], "A half day is for one day only.")
    intent = IntentOutput(primary_domain="time_off", goal="REQUEST_LEAVE", language="en")
    assert replan_question(held, intent, LEAVE, CATALOG).text.startswith(
        "That did not work: A half day is for one day only. The service suggests trying again with "
        "“no” instead of “yes” (only half a day). Next step: request leave (the kind of leave: "
        "“personal”, the first day off: “Fri 13 Mar”, how many working days: “1”, only half a day: no)."
    )
