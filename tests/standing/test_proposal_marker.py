"""A proposal waiting for the person's yes is marked in the session's state (only a marked session
reads it from the database): the mark and the proposal survive a gateway restart, and a message
about something else clears both."""

from __future__ import annotations

import pytest

from gateway.settings import GatewaySettings
from tests.standing.conftest import Clock, gateway, listed, say

pytestmark = pytest.mark.integration


async def test_a_proposal_outlives_a_restart_and_the_yes_after_it_makes_it(
    settings: GatewaySettings, clock: Clock
) -> None:
    async with gateway(settings, clock) as (client, _):
        asked = await say(client, "marked", "me avisa quando a Petrobras passar de 40 reais")
        assert asked.endswith("Confirma?")
    async with gateway(settings, clock) as (client, _):
        done = await say(client, "marked", "sim")
        assert done.startswith("Pronto:")
        (made,) = await listed(client)
        assert (made["kind"], made["status"], made["session_id"]) == ("watch", "active", "marked")
        # made: the session no longer waits, so a later "sim" is not read as a yes to it
        assert not (await say(client, "marked", "sim")).startswith("Pronto:")
        assert len(await listed(client)) == 1


async def test_a_message_about_something_else_drops_the_proposal(
    settings: GatewaySettings, clock: Clock
) -> None:
    async with gateway(settings, clock) as (client, _):
        await say(client, "dropped", "every Monday at 8am send me the price of Apple")
        await say(client, "dropped", "what is the price of Petrobras?")
        assert not (await say(client, "dropped", "yes")).startswith("Done:")
        assert await listed(client) == []
