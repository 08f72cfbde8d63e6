"""Standing requests through the gateway: made, listed, paused and cancelled by conversation in
both languages and through /v1/schedules, scoped to the tenant; ticks run with a clock the test
controls, once each even when several gateways look at once; a watch fires once per crossing on a
scripted price series (a domain process whose price the test writes)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from gateway.settings import GatewaySettings
from gateway.storage.principals import Principal
from gateway.turns.standing import watch_session
from shared.manifest import WatchPolicy
from tests.standing.conftest import (
    KEY_A,
    KEY_B,
    MONDAY_8,
    PETROBRAS,
    Clock,
    gateway,
    listed,
    running,
    say,
    schedule,
)

pytestmark = pytest.mark.integration


async def test_made_listed_paused_and_cancelled_in_portuguese(
    settings: GatewaySettings, clock: Clock
) -> None:
    async with gateway(settings, clock) as (client, _):
        asked = await say(
            client, "pt-1", "manda as maiores altas do Brasil todo dia útil às 9h no meu telegram"
        )
        assert asked == (
            "Todo dia útil às 09:00 (America/Sao_Paulo) vou mandar “as maiores altas do Brasil” "
            "no seu telegram. Confirma?"
        )
        assert await listed(client) == []  # nothing is made before the yes
        done = await say(client, "pt-1", "sim")
        assert done.startswith("Pronto:") and "2026-11-23 09:00" in done
        (made,) = await listed(client)
        assert (made["kind"], made["status"], made["session_id"]) == ("schedule", "active", "pt-1")
        assert made["request_text"] == "manda as maiores altas do Brasil no meu telegram"
        assert made["next_fire_at"] == "2026-11-23T12:00:00Z"

        listing = await say(client, "pt-1", "quais agendamentos eu tenho?")
        assert "as maiores altas do Brasil" in listing and "Todo dia útil às 09:00" in listing
        paused = await say(client, "pt-1", "pausa o das maiores altas")
        assert paused.startswith("Pausado:")
        assert (await listed(client))[0]["status"] == "paused"
        resumed = await say(client, "pt-1", "retoma o das maiores altas")
        assert resumed.startswith("Retomado:")
        cancelled = await say(client, "pt-1", "cancela o agendamento das maiores altas")
        assert cancelled.startswith("Cancelado:")
        assert await listed(client) == []
        assert (
            await say(client, "pt-1", "quais alertas eu tenho?") == "Você não tem alertas nem agendamentos."
        )

        # a "não" drops the proposal; a message about something else drops it too
        await say(client, "pt-2", "me avisa quando a Petrobras passar de 40 reais")
        assert await say(client, "pt-2", "não") == "Tudo bem, não criei nada."
        assert await listed(client) == []


async def test_made_listed_and_cancelled_in_english(settings: GatewaySettings, clock: Clock) -> None:
    async with gateway(settings, clock) as (client, _):
        asked = await say(client, "en-1", "every Monday at 8am send me the price of Apple and Microsoft")
        assert asked == (
            "Every Monday at 08:00 (America/Sao_Paulo) I will send you "
            "“the price of Apple and Microsoft”. Confirm?"
        )
        done = await say(client, "en-1", "yes")
        assert done.startswith("Done:") and "2026-11-30 08:00" in done
        listing = await say(client, "en-1", "what schedules do I have?")
        assert "Every Monday at 08:00" in listing
        # another tenant neither sees nor cancels it, by chat or API
        assert (
            await say(client, "en-b", "what schedules do I have?", KEY_B)
            == "You have no alerts or schedules."
        )
        (made,) = await listed(client)
        assert await listed(client, KEY_B) == []
        denied = await client.delete(f"/v1/schedules/{made['id']}", headers=KEY_B)
        assert denied.status_code == 404 and denied.json()["error"]["type"] == "not_found_error"
        assert (await client.post(f"/v1/schedules/{made['id']}/pause", headers=KEY_B)).status_code == 404
        assert (await client.get(f"/v1/schedules/{made['id']}/firings", headers=KEY_B)).status_code == 404
        cancelled = await say(client, "en-1", "cancel the Apple schedule")
        assert cancelled.startswith("Cancelled:")
        assert await listed(client) == []


async def test_api_validates_limits_and_scopes(settings: GatewaySettings, clock: Clock) -> None:
    async with gateway(settings, clock) as (client, _):
        body = {
            "request": PETROBRAS,
            "recurrence": "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
            "timezone": "Europe/Lisbon",
        }
        made = await client.post("/v1/schedules", json=body, headers=KEY_A)
        assert made.status_code == 201, made.text
        out = made.json()
        assert out["description"] == "Todo dia às 09:00 (Europe/Lisbon)"
        assert out["next_fire_at"] == "2026-11-24T09:00:00Z"  # 11:00 in Lisbon (UTC in winter): tomorrow
        for bad, param in (
            ({**body, "recurrence": "FREQ=YEARLY"}, "recurrence"),
            ({**body, "timezone": "Mars/Base"}, "recurrence"),
            (
                {**body, "recurrence": "FREQ=MINUTELY;INTERVAL=1"},
                "recurrence",
            ),  # under SCHEDULES_MIN_INTERVAL_S
            ({"kind": "watch", "request": "x", "condition": "value >"}, "condition"),
            (
                {"kind": "watch", "request": "x", "condition": "value > `1`", "interval_seconds": 5},
                "interval_seconds",
            ),
        ):
            refused = await client.post("/v1/schedules", json=bad, headers=KEY_A)
            assert refused.status_code == 400, bad
            assert refused.json()["error"]["param"] == param
            assert refused.json()["error"]["type"] == "invalid_request_error"
        paused = await client.post(f"/v1/schedules/{out['id']}/pause", headers=KEY_A)
        assert paused.json()["status"] == "paused"
        resumed = await client.post(f"/v1/schedules/{out['id']}/resume", headers=KEY_A)
        assert resumed.json()["status"] == "active"
        for _ in range(2):
            assert (await client.post("/v1/schedules", json=body, headers=KEY_A)).status_code == 201
        over = await client.post("/v1/schedules", json=body, headers=KEY_A)
        assert over.status_code == 409 and over.json()["error"]["code"] == "standing_request_limit"
        assert (await client.post("/v1/schedules", json=body, headers=KEY_B)).status_code == 201
        gone = await client.delete(f"/v1/schedules/{out['id']}", headers=KEY_A)
        assert gone.json()["status"] == "cancelled"
        assert (await client.post(f"/v1/schedules/{out['id']}/resume", headers=KEY_A)).status_code == 404
        # another tenant's session cannot be named
        await say(client, "b-own", "oi", KEY_B)
        taken = await client.post("/v1/schedules", json={**body, "session_id": "b-own"}, headers=KEY_A)
        assert taken.status_code == 404


async def test_a_watch_fires_once_per_crossing(
    settings: GatewaySettings, clock: Clock, price_file: Path
) -> None:
    async with gateway(settings, clock) as (client, service):
        runner = running(service)
        await say(client, "w-1", "me avisa quando a Petrobras passar de 40 reais a cada 5 minutos")
        assert (await say(client, "w-1", "sim")).startswith("Pronto:")
        (watch,) = await listed(client)
        assert (watch["kind"], watch["condition"], watch["interval_seconds"]) == (
            "watch",
            "value > `40`",
            300,
        )
        series = [38, 41, 42, 39, 43, 44]
        statuses = []
        for price in series:
            price_file.write_text(str(price))
            fired = await runner.run_due(clock.now)
            assert len(fired) == 1
            statuses.append(fired[0].status)
            clock.now += timedelta(minutes=5)
        assert statuses == ["quiet", "succeeded", "quiet", "quiet", "succeeded", "quiet"]
        firings = (await client.get(f"/v1/schedules/{watch['id']}/firings", headers=KEY_A)).json()["data"]
        assert [f["condition_met"] for f in reversed(firings)] == [False, True, True, False, True, True]
        # the crossings were told in the person's session; the polls ran in the watch's own
        told = [f for f in firings if f["status"] == "succeeded"]
        for firing in told:
            run = (await client.get(f"/v1/runs/{firing['run_id']}", headers=KEY_A)).json()
            assert run["session_id"] == "w-1" and "Petrobras" in run["answer"]
        polls = (
            await client.get("/v1/runs", headers=KEY_A, params={"session_id": watch_session(watch["id"])})
        ).json()
        assert polls["data"]
        # paused by chat: no poll runs
        assert (await say(client, "w-1", "pausa o alerta da Petrobras")).startswith("Pausado:")
        assert await runner.run_due(clock.now + timedelta(hours=1)) == []


async def test_a_tick_runs_once_and_a_missed_one_is_caught_up(
    settings: GatewaySettings, clock: Clock, price_file: Path
) -> None:
    price_file.write_text("37.5")
    async with gateway(settings, clock) as (client, service):
        runner = running(service)
        made = await schedule(
            client,
            session_id="t-1",
            timezone="America/Sao_Paulo",
            recurrence="FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0",
        )
        assert await runner.run_due(clock.now) == []  # 08:00: not yet
        # a proposal waiting for the person's yes in the same session outlives a tick's turn
        assert (await say(client, "t-1", "me avisa quando a Vale cair abaixo de 50 reais")).endswith(
            "Confirma?"
        )
        clock.now = MONDAY_8 + timedelta(hours=1, seconds=2)
        (first,) = await runner.run_due(clock.now)
        assert first.status == "succeeded" and first.run_id is not None
        assert await runner.run_due(clock.now) == []  # the same tick never twice
        assert (await say(client, "t-1", "sim")).startswith("Pronto:")
        run = (await client.get(f"/v1/runs/{first.run_id}", headers=KEY_A)).json()
        assert run["session_id"] == "t-1" and "37.50" in run["answer"]
        # everything down from Monday 09:01 to Wednesday 09:10: Wednesday's tick runs, once
        clock.now = MONDAY_8 + timedelta(days=2, hours=1, minutes=10)
        (caught_up,) = [f for f in await runner.run_due(clock.now) if f.standing_id == made["id"]]
        assert caught_up.tick == datetime(2026, 11, 25, 12, tzinfo=UTC)
        firings = (await client.get(f"/v1/schedules/{made['id']}/firings", headers=KEY_A)).json()["data"]
        assert len(firings) == 2
        assert {s["kind"] for s in await listed(client)} == {"schedule", "watch"}


async def test_a_tick_over_the_tenants_run_quota_is_skipped_and_recorded(
    settings: GatewaySettings, clock: Clock, price_file: Path
) -> None:
    settings = settings.model_copy(update={"max_concurrent_runs_per_key": 1})
    price_file.write_text("35")
    async with gateway(settings, clock) as (client, service):
        runner = running(service)
        made = await schedule(client, session_id="q-1", recurrence="FREQ=HOURLY;BYMINUTE=0")
        # the tenant's one place is taken (a turn of theirs still running)
        held = await runner.quotas.run_slot(Principal(made["tenant"]))
        clock.now = MONDAY_8 + timedelta(hours=1, seconds=1)
        (skipped,) = await runner.run_due(clock.now)
        assert skipped.status == "skipped" and skipped.result.startswith("quota:")
        assert skipped.run_id is None
        await held.release()
        clock.now += timedelta(hours=1)
        (ran,) = await runner.run_due(clock.now)
        assert ran.status == "succeeded" and ran.run_id is not None


async def test_a_percentage_watch_by_chat_polls_at_the_domains_minimum(
    settings: GatewaySettings, clock: Clock, price_file: Path
) -> None:
    price_file.write_text("40 1.0")
    async with gateway(settings, clock) as (client, service):
        runner = running(service)
        asked = await say(client, "p-1", "me avisa se a Petrobras subir 5% a cada 2 minutos")
        assert asked == (
            "Vou acompanhar “Petrobras” a cada 2 minutos e te aviso quando subir 5% no dia. Confirma?"
        )
        assert (await say(client, "p-1", "sim")).startswith("Pronto:")
        (watch,) = await listed(client)
        assert (watch["condition"], watch["interval_seconds"]) == ("output.result.change_pct >= `5`", 120)
        (first,) = await runner.run_due(clock.now)
        assert first.status == "quiet"
        # the tickers domain declares metadata.watch.min_interval_s = 300: raised at the first poll
        (watch,) = await listed(client)
        assert watch["interval_seconds"] == 300
        assert await runner.run_due(clock.now + timedelta(seconds=121)) == []
        statuses = []
        for point in ["42 5.5", "43 6", "40 1", "42 5"]:
            clock.now += timedelta(minutes=5)
            price_file.write_text(point)
            (fired,) = await runner.run_due(clock.now)
            statuses.append(fired.status)
        assert statuses == ["succeeded", "quiet", "quiet", "succeeded"]
        # English: proposed and told in English, dropped with a no
        asked = await say(client, "p-2", "alert me when Apple drops 3%")
        assert asked == (
            "I will check “Apple” every 2 minutes and tell you when it falls 3% on the day. Confirm?"
        )
        assert await say(client, "p-2", "no") == "All right, I did not set anything up."


async def test_a_watch_on_a_capability_that_may_not_be_watched_is_paused(
    settings: GatewaySettings, clock: Clock, price_file: Path
) -> None:
    price_file.write_text("41")
    async with gateway(settings, clock) as (client, service):
        runner = running(service)
        # the tickers domain's manifest as read by this gateway, now declaring watchable: false
        found = runner.catalog().find_capability("scripted_price", "tickers")
        assert found is not None
        found.capability.metadata.watch = WatchPolicy(watchable=False)
        await schedule(client, kind="watch", condition="value > `40`")
        (fired,) = await runner.run_due(clock.now)
        assert fired.status == "failed" and "tickers.scripted_price cannot be watched" in fired.result
        (watch,) = await listed(client)
        assert watch["status"] == "paused"
        assert await runner.run_due(clock.now + timedelta(hours=1)) == []


async def test_the_api_checks_the_watched_capabilitys_manifest_when_named(
    settings: GatewaySettings, clock: Clock
) -> None:
    async with gateway(settings, clock) as (client, _):
        body: dict[str, Any] = {
            "kind": "watch",
            "request": PETROBRAS,
            "condition": "value > `40`",
            "capability": "tickers.scripted_price",
        }
        # the tickers domain declares metadata.watch.min_interval_s = 300 (the operator's is 120)
        for bad, param in (
            ({**body, "interval_seconds": 120}, "interval_seconds"),
            (body, "interval_seconds"),  # the operator's minimum, 120 s, is under the domain's
            ({**body, "capability": "tickers.no_such_thing", "interval_seconds": 300}, "capability"),
            ({**body, "capability": "elsewhere.scripted_price", "interval_seconds": 300}, "capability"),
        ):
            refused = await client.post("/v1/schedules", json=bad, headers=KEY_A)
            assert refused.status_code == 400, bad
            assert refused.json()["error"]["param"] == param
            assert refused.json()["error"]["type"] == "invalid_request_error"
        assert await listed(client) == []
        assert (await schedule(client, **body, interval_seconds=300))["interval_seconds"] == 300
