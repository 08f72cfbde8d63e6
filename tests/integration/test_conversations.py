"""Conversations that pause and resume (issue 3), through real HTTP to real domain processes."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import httpx
import pytest

from tests.conftest import Process, chat
from tests.integration.test_gateway_config import in_process, settings_for

pytestmark = pytest.mark.integration


def say(platform: Process, session: str, text: str) -> dict:
    response = httpx.post(
        f"{platform.url}/v1/runs", json={"input_text": text, "session_id": session}, timeout=30
    )
    assert response.status_code == 200, response.text
    return response.json()


def new_session() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.mark.parametrize(
    ("reply", "symbol"),
    [
        ("a sueca", "NDA-SE.ST"),
        ("a segunda", "NDA-FI.HE"),
        ("NDA-FI.HE", "NDA-FI.HE"),
        ("a de Estocolmo", "NDA-SE.ST"),
    ],
)
def test_a_clarification_is_answered_by_the_next_message(platform: Process, reply: str, symbol: str) -> None:
    session = new_session()
    asked = say(platform, session, "qual o preço da Nordea?")
    assert asked["status"] == "waiting_input"
    answered = say(platform, session, reply)
    assert answered["status"] == "completed", answered["answer"]
    assert answered["steps"][0]["output"]["result"]["symbol"] == symbol
    assert symbol in answered["answer"]


def test_the_openai_channel_resumes_the_same_way(platform: Process) -> None:
    session = new_session()
    question = chat(platform, session, "qual o preço da Nordea?")
    # a chat client shows only text: the candidates are in it, numbered, in the domain's words
    assert question.splitlines() == [
        "Encontrei mais de um ticker para 'Nordea'. Qual deles?",
        "1. Nordea Bank Abp (Stockholm) — Nasdaq Stockholm (SEK) — NDA-SE.ST",
        "2. Nordea Bank Abp (Helsinki) — Nasdaq Helsinki (EUR) — NDA-FI.HE",
        "Responda com o número ou o nome.",
    ]
    answer = chat(platform, session, "2")
    assert "NDA-FI.HE" in answer


def test_a_fresh_request_abandons_the_question(platform: Process) -> None:
    session = new_session()
    assert say(platform, session, "qual o preço da Nordea?")["status"] == "waiting_input"
    fresh = say(platform, session, "quais as maiores altas do Brasil?")
    assert fresh["status"] == "completed"
    assert fresh["intent"]["goal"] == "TOP_MOVERS"
    assert any("abandoned" in note for note in fresh["notes"])


def test_follow_ups_use_session_memory(platform: Process, domain_processes: dict[str, Process]) -> None:
    session = new_session()
    first = say(platform, session, "qual o preço da Petrobras?")
    assert first["status"] == "completed"
    follow = say(platform, session, "e a Vale?")
    assert follow["status"] == "completed"
    assert follow["intent"]["goal"] == "GET_QUOTE"
    assert follow["steps"][0]["output"]["result"]["symbol"] == "VALE3.SA"

    sent = say(platform, session, "manda isso no telegram")
    assert sent["status"] == "completed", sent["answer"]
    assert [s["capability"] for s in sent["steps"]] == ["send_telegram_message"]
    outbox = httpx.get(f"{domain_processes['notifier'].url}/outbox", timeout=10).json()["messages"]
    assert outbox[-1]["message"] == follow["answer"]


def test_an_everyday_verb_of_a_goals_action_is_that_goal(
    platform: Process, domain_processes: dict[str, Process]
) -> None:
    """ "joga" is in no example: it sends, like the notifier's "manda"."""
    session = new_session()
    quote = say(platform, session, "qual o preço da Petrobras?")
    assert quote["status"] == "completed"
    sent = say(platform, session, "joga isso no telegram")
    assert sent["status"] == "completed", sent["answer"]
    assert [s["capability"] for s in sent["steps"]] == ["send_telegram_message"]
    outbox = httpx.get(f"{domain_processes['notifier'].url}/outbox", timeout=10).json()["messages"]
    assert outbox[-1]["message"] == quote["answer"]


def test_follow_ups_name_what_changes_in_the_last_goals_own_terms(platform: Process) -> None:
    session = new_session()
    losers = say(platform, session, "maiores quedas no Brasil")
    assert losers["intent"]["entities"] == {"direction": "LOSERS", "market_text": "Brasil"}
    assert [s["capability"] for s in losers["steps"]] == ["get_top_losers"]

    # a goal with no required text entity: the market and the direction are read off the words
    us = say(platform, session, "e nos EUA?")
    assert us["intent"]["goal"] == "TOP_MOVERS", us["answer"]
    assert us["intent"]["entities"] == {"direction": "LOSERS", "market_text": "EUA"}
    assert us["steps"][0]["output"]["result"]["markets"] == ["US"]
    gainers = say(platform, session, "e as altas?")
    assert gainers["intent"]["entities"] == {"direction": "GAINERS", "market_text": "EUA"}
    assert [s["capability"] for s in gainers["steps"]] == ["get_top_gainers"]

    # a list in a follow-up is a list: one quote step each, as in a first message
    say(platform, session, "qual o preço da Apple?")
    two = say(platform, session, "e da Microsoft e da Tesla?")
    assert two["status"] == "completed", two["answer"]
    assert sorted(s["output"]["result"]["symbol"] for s in two["steps"]) == ["MSFT", "TSLA"]

    # "e ..." that names another goal is that goal, not a quote of "obrigado"
    thanks = say(platform, session, "e obrigado!")
    assert thanks["intent"]["goal"] == "SMALL_TALK", thanks["answer"]


def test_a_failed_request_is_followed_up_and_corrected(platform: Process) -> None:
    session = new_session()
    failed = say(platform, session, "maiores quedas na Islândia")
    assert failed["status"] == "failed", failed["answer"]
    # the failed request is the last one: a follow-up keeps what it said (the losers)
    brazil = say(platform, session, "e no Brasil?")
    assert brazil["status"] == "completed", brazil["answer"]
    assert brazil["intent"]["entities"] == {"direction": "LOSERS", "market_text": "Brasil"}
    assert [s["capability"] for s in brazil["steps"]] == ["get_top_losers"]
    again = say(platform, session, "top gainers in Iceland")
    assert again["status"] == "failed", again["answer"]
    corrected = say(platform, session, "sorry, I meant the US")
    assert corrected["intent"]["entities"] == {"direction": "GAINERS", "market_text": "US"}, corrected
    assert [s["capability"] for s in corrected["steps"]] == ["get_top_gainers"]


def test_session_endpoints_show_state_history_and_reset_keeps_history(platform: Process) -> None:
    session = new_session()
    say(platform, session, "cotação da Apple")
    asked = say(platform, session, "qual o preço da Nordea?")
    assert asked["event_id"] == "evt-0004"

    view = httpx.get(f"{platform.url}/v1/sessions/{session}", timeout=10).json()
    assert view["status"] == "waiting_input"
    assert view["pending_question"]["kind"] == "domain_clarification"
    assert view["pending_question"] == view["state"]["question"]  # stored once: in the session's state
    assert view["pending_question"]["resume"]["param"] == "symbol"
    assert view["pending_question"]["options"][1]["value"] == "NDA-FI.HE"
    assert [t["event_id"] for t in view["turns"]] == ["evt-0002", "evt-0004"]
    assert [m["event_id"] for m in view["state"]["messages"]] == [
        "evt-0001",
        "evt-0002",
        "evt-0003",
        "evt-0004",
    ]
    versions = view["versions"]
    assert [v["version"] for v in versions] == list(range(len(versions)))
    # one version per turn, named by the nodes it folded
    assert len(versions) == 3 and versions[0]["node"] == "__start__"
    assert {"understand", "plan", "execute", "respond"} <= set(versions[1]["node"].split(">"))

    history = httpx.get(f"{platform.url}/v1/sessions/{session}/history", timeout=10).json()
    assert len(history["turns"]) == 2 and history["versions"] == versions

    reset = httpx.delete(f"{platform.url}/v1/sessions/{session}", timeout=10)
    assert reset.status_code == 200
    after = httpx.get(f"{platform.url}/v1/sessions/{session}", timeout=10).json()
    assert after["state"] is None and after["pending_question"] is None
    assert len(after["turns"]) == 2  # emitted history kept
    # the question is gone: "a sueca" is now a fresh (unclear) message, not an answer
    again = say(platform, session, "cotação da Microsoft")
    assert again["status"] == "completed" and again["event_id"] == "evt-0006"


def test_time_travel_forks_a_session_from_a_past_version(platform: Process) -> None:
    session = new_session()
    say(platform, session, "qual o preço da Nordea?")
    waiting_version = httpx.get(f"{platform.url}/v1/sessions/{session}", timeout=10).json()["versions"][-1][
        "version"
    ]
    say(platform, session, "a sueca")
    fork = httpx.post(
        f"{platform.url}/v1/sessions/{session}/fork", json={"version": waiting_version}, timeout=10
    )
    assert fork.status_code == 201, fork.text
    forked = fork.json()["session_id"]
    # the fork is back at the question: this time pick the Finnish listing
    answered = say(platform, forked, "a finlandesa")
    assert answered["steps"][0]["output"]["result"]["symbol"] == "NDA-FI.HE"
    old = httpx.get(f"{platform.url}/v1/sessions/{session}/versions/{waiting_version}", timeout=10).json()
    assert old["state"]["question"]["kind"] == "domain_clarification"


async def test_the_confidence_gate_asks_and_yes_proceeds(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, confidence_threshold=0.9999)) as client:
        asked = (
            await client.post("/v1/runs", json={"input_text": "cotação da Vale", "session_id": "g1"})
        ).json()
        assert asked["status"] == "waiting_input"
        assert asked["question"]["kind"] == "confidence_gate"
        assert asked["question"]["options"][0]["goal"] == "GET_QUOTE"
        assert asked["steps"] == []  # nothing ran before the person confirmed
        done = (await client.post("/v1/runs", json={"input_text": "sim", "session_id": "g1"})).json()
        assert done["status"] == "completed" and "VALE3" in done["answer"]


async def test_concurrent_messages_to_one_session_are_serialised(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes)) as client:
        texts = ["cotação da Vale", "cotação da Apple", "cotação da Nvidia", "cotação da Petrobras"]
        replies = await asyncio.gather(
            *(client.post("/v1/runs", json={"input_text": t, "session_id": "same"}) for t in texts)
        )
        bodies = [r.json() for r in replies]
        assert all(b["status"] == "completed" for b in bodies)
        assert sorted(b["event_id"] for b in bodies) == ["evt-0002", "evt-0004", "evt-0006", "evt-0008"]
        view = (await client.get("/v1/sessions/same")).json()
        assert len(view["state"]["messages"]) == 8


async def test_a_busy_session_is_refused_with_409_when_waiting_is_off(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, session_lock_wait_s=0)) as client:
        replies = await asyncio.gather(
            *(
                client.post("/v1/runs", json={"input_text": "cotação da Vale", "session_id": "busy"})
                for _ in range(4)
            )
        )
        codes = sorted(r.status_code for r in replies)
        assert codes[0] == 200 and 409 in codes
        refused = next(r for r in replies if r.status_code == 409)
        assert refused.headers["x-should-retry"] == "false"
        assert refused.json()["error"]["type"] == "conflict_error"
