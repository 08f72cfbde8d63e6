"""An approval takes the everyday yes of either language ("sure", "yeah", "beleza", "fechado", "no
problem"), as a standing request's draft already did: one list of yes words for every question. A
longer reply that adds something is no bare yes; a no followed by its reason ("no wait, I'll keep
it") is a no."""

from __future__ import annotations

import pytest

from dialogue.choice import is_yes
from shared.models import ApprovalQuestion
from tests.dialogue.test_graph import Conversation


@pytest.mark.parametrize(
    ("request_text", "yes"),
    [
        ("cancel Marta's visit", "sure"),
        ("cancel Marta's visit", "yeah"),
        ("cancel Marta's visit", "yep, go ahead"),
        ("cancela a visita do Carlos", "beleza"),
        ("cancela a visita do Carlos", "fechado"),
        ("cancel Marta's visit", "that's right"),
        ("cancel Marta's visit", "correct"),
        ("cancel Marta's visit", "no problem, go ahead"),
        ("cancela a visita do Carlos", "não tem problema"),
        ("cancel Marta's visit", "confirmed"),
        ("cancel Marta's visit", "perfect"),
        ("cancel Marta's visit", "fine"),
        ("cancel Marta's visit", "alright, go ahead"),
        ("cancela a visita do Carlos", "combinado"),
        ("cancela a visita do Carlos", "ótimo"),
    ],
)
async def test_an_everyday_yes_approves(visits_chat: Conversation, request_text: str, yes: str) -> None:
    asked = await visits_chat.say(request_text)
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
    done = await visits_chat.say(yes)
    assert done.state.question is None, done.state.turn.answer
    assert [c.capability for c in visits_chat.domains.calls] == ["cancel_visit"]


@pytest.mark.parametrize("reply", ["sure, but make it Carlos instead please", "surely not", "", "right now"])
def test_a_longer_reply_or_another_word_is_no_bare_yes(reply: str) -> None:
    assert not is_yes(reply)


@pytest.mark.parametrize(
    ("request_text", "no"),
    [
        ("cancel Marta's visit", "no wait, I'll keep it"),
        ("cancela a visita do Carlos", "não. mudei de ideia, deixa ela"),
    ],
)
async def test_a_no_with_its_reason_declines(visits_chat: Conversation, request_text: str, no: str) -> None:
    asked = await visits_chat.say(request_text)
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
    done = await visits_chat.say(no)
    assert done.state.question is None, done.state.turn.answer
    assert visits_chat.domains.calls == []
