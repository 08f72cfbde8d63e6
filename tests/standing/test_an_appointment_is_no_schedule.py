"""A domain's appointment is called an "agendamento" too: cancelling one that none of the person's
standing requests is goes to the domains, while an alert asked for by name is still looked up."""

from __future__ import annotations

import pytest

from gateway.settings import GatewaySettings
from tests.standing.conftest import Clock, gateway, say

pytestmark = pytest.mark.integration

NOT_FOUND = "Não encontrei um alerta ou agendamento"


async def test_an_appointment_nothing_of_the_persons_names_is_left_to_the_domains(
    settings: GatewaySettings, clock: Clock
) -> None:
    async with gateway(settings, clock) as (client, _):
        answered = await say(client, "appointment", "cancela o agendamento DS2110")
        assert not answered.startswith(NOT_FOUND), answered


async def test_an_alert_by_its_name_is_still_looked_up(settings: GatewaySettings, clock: Clock) -> None:
    async with gateway(settings, clock) as (client, _):
        assert (await say(client, "alert", "cancela o alerta da Petrobras")).startswith(NOT_FOUND)


async def test_a_schedule_of_the_persons_is_still_cancelled_by_that_word(
    settings: GatewaySettings, clock: Clock
) -> None:
    async with gateway(settings, clock) as (client, _):
        await say(client, "mine", "toda segunda às 9h me manda a cotação da Petrobras")
        assert (await say(client, "mine", "sim")).startswith("Pronto:")
        assert (await say(client, "mine", "cancela o agendamento da Petrobras")).startswith("Cancelado:")
