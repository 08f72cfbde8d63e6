"""Chat clients that resend the whole history and no session header: the session is derived from
the history, an edited or regenerated turn forks it, and a second message while a turn runs is
queued or refused by policy. A real gateway process over real domain processes, driven by the
official openai SDK."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from tests.conftest import Process, start_gateway, write_bootstrap
from tests.integration.test_gateway_config import in_process, settings_for

pytestmark = pytest.mark.integration

SYSTEM = {"role": "system", "content": "Você é um assistente de finanças."}


def client_for(platform: Process) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{platform.url}/v1", api_key="unused-locally", max_retries=0)


def ask(client: openai.OpenAI, messages: list[Any]) -> tuple[str, str]:
    """The answer to the whole ``messages`` history, and the session the gateway ran it on."""
    raw = client.chat.completions.with_raw_response.create(model="orchestrator", messages=messages)
    completion = raw.parse()
    return completion.choices[0].message.content or "", raw.headers["x-session-id"]


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict[str, str]:
    return {"role": "assistant", "content": text}


def test_a_resent_history_continues_its_session(platform: Process) -> None:
    client = client_for(platform)
    first = [SYSTEM, user("qual o preço da Nordea?")]
    question, session = ask(client, first)
    assert "Qual deles?" in question
    # the client resends everything, the question included, and answers it: no header needed
    answer, same = ask(client, [*first, assistant(question), user("2")])
    assert same == session and "NDA-FI.HE" in answer
    follow, still = ask(
        client, [*first, assistant(question), user("2"), assistant(answer), user("e a Vale?")]
    )
    assert still == session and "VALE3" in follow


def test_a_streamed_answer_is_continued_as_the_client_shows_it(platform: Process) -> None:
    client = client_for(platform)
    first: list[Any] = [SYSTEM, user("qual o preço da Nordea?")]
    stream = client.chat.completions.create(
        model="orchestrator",
        messages=first,
        stream=True,
        metadata={"show_progress": "true"},
    )
    shown = "".join(choice.delta.content or "" for chunk in stream for choice in chunk.choices)
    assert "Qual deles?" in shown
    # the client keeps what it showed, reflowed: whitespace does not matter
    answer, _ = ask(client, [*first, assistant("  " + shown.replace("\n", "\n\n") + "\n"), user("a segunda")])
    assert "NDA-FI.HE" in answer


def test_a_first_message_always_starts_a_new_session(platform: Process) -> None:
    client = client_for(platform)
    _, one = ask(client, [SYSTEM, user("qual o preço da Apple?")])
    _, two = ask(client, [SYSTEM, user("qual o preço da Apple?")])
    assert one != two


def test_an_edited_message_forks_the_session_where_it_was_edited(platform: Process) -> None:
    client = client_for(platform)
    first = [SYSTEM, user("qual o preço da Nordea?")]
    question, session = ask(client, first)
    answer, _ = ask(client, [*first, assistant(question), user("2")])
    assert "NDA-FI.HE" in answer

    # the person edits "2" into "1": the old session already answered the question, a fork at
    # the question still has it pending
    edited, forked = ask(client, [*first, assistant(question), user("1")])
    assert forked != session and "NDA-SE.ST" in edited
    view = httpx.get(f"{platform.url}/v1/sessions/{forked}", timeout=10).json()
    assert [t["input_text"] for t in view["turns"]] == ["1"]  # the fork's own turns only

    # both lines go on, each on its own session
    on_fork, fork_again = ask(
        client, [*first, assistant(question), user("1"), assistant(edited), user("e a Vale?")]
    )
    on_old, old_again = ask(
        client, [*first, assistant(question), user("2"), assistant(answer), user("e a Vale?")]
    )
    assert (fork_again, old_again) == (forked, session)
    assert "VALE3" in on_fork and "VALE3" in on_old


def test_a_regenerated_answer_does_not_continue_the_old_state(platform: Process) -> None:
    client = client_for(platform)
    first = [SYSTEM, user("qual o preço da Nordea?")]
    question, session = ask(client, first)
    history = [*first, assistant(question), user("2")]
    answer, _ = ask(client, history)
    # "regenerate": the same history again; the session has moved past it, so it runs on a fork
    again, regenerated = ask(client, history)
    assert regenerated != session and again == answer


def test_an_edited_first_message_starts_over(platform: Process) -> None:
    client = client_for(platform)
    question, session = ask(client, [SYSTEM, user("qual o preço da Nordea?")])
    # an earlier message the platform never saw: nothing of the old session continues
    reply, other = ask(client, [SYSTEM, user("qual o preço da Apple?"), assistant(question), user("2")])
    assert other != session and "NDA" not in reply


def test_a_session_header_still_wins(platform: Process) -> None:
    client = client_for(platform)
    first: list[Any] = [SYSTEM, user("qual o preço da Nordea?")]
    question, _ = ask(client, first)
    named = f"named-{uuid.uuid4().hex[:8]}"
    answered: list[Any] = [*first, assistant(question), user("2")]
    raw = client.chat.completions.with_raw_response.create(
        model="orchestrator",
        messages=answered,
        extra_headers={"X-Session-Id": named},
    )
    assert raw.headers["x-session-id"] == named
    assert "NDA-FI.HE" not in (raw.parse().choices[0].message.content or "")


async def test_a_second_message_while_a_turn_runs_is_refused_under_reject(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, double_texting="reject")) as client:

        async def send(stream: bool) -> httpx.Response:
            return await client.post(
                "/v1/chat/completions",
                json={"model": "orchestrator", "messages": [user("cotação da Vale")], "stream": stream},
                headers={"X-Session-Id": "double"},
            )

        replies = await asyncio.gather(send(False), send(True), send(False), send(True))
        codes = sorted(r.status_code for r in replies)
        assert codes[0] == 200 and 409 in codes, codes
        for refused in (r for r in replies if r.status_code == 409):
            # a stream is refused before it starts, as an ordinary OpenAI error
            error = refused.json()["error"]
            assert error["type"] == "conflict_error" and error["param"] == "session_id"


async def test_under_queue_the_second_message_waits_its_turn(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes)) as client:
        replies = await asyncio.gather(
            *(
                client.post(
                    "/v1/chat/completions",
                    json={"model": "orchestrator", "messages": [user(text)], "stream": stream},
                    headers={"X-Session-Id": "queued"},
                )
                for text, stream in (("cotação da Vale", False), ("preço da Apple", True))
            )
        )
        assert [r.status_code for r in replies] == [200, 200]
        view = (await client.get("/v1/sessions/queued")).json()
        assert view["turn_count"] == 2


async def test_another_tenant_neither_reads_nor_continues_a_conversation(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    async with in_process(settings_for(tmp_path, domain_processes, api_keys="key-a,key-b")) as client:
        a = {"Authorization": "Bearer key-a"}
        b = {"Authorization": "Bearer key-b"}
        first = [user("qual o preço da Nordea?")]
        asked = await client.post("/v1/responses", json={"model": "orchestrator", "input": first}, headers=a)
        question = asked.json()["output"][0]["content"][0]["text"]
        response_id = asked.json()["id"]
        assert "Qual deles?" in question

        assert (await client.get(f"/v1/responses/{response_id}", headers=b)).status_code == 404
        stolen = await client.post(
            "/v1/responses",
            json={"model": "orchestrator", "input": "2", "previous_response_id": response_id},
            headers=b,
        )
        assert stolen.status_code == 404 and stolen.json()["error"]["param"] == "previous_response_id"
        # the same history from another tenant is not the same conversation
        history = [*first, assistant(question), user("2")]
        replayed = await client.post(
            "/v1/chat/completions", json={"model": "orchestrator", "messages": history}, headers=b
        )
        assert replayed.headers["x-session-id"] != asked.headers["x-session-id"]
        assert "NDA-FI.HE" not in replayed.json()["choices"][0]["message"]["content"]

        own = await client.post(
            "/v1/chat/completions", json={"model": "orchestrator", "messages": history}, headers=a
        )
        assert own.headers["x-session-id"] == asked.headers["x-session-id"]
        assert "NDA-FI.HE" in own.json()["choices"][0]["message"]["content"]


def test_conversations_continue_after_a_gateway_restart(
    tmp_path: Path, domain_processes: dict[str, Process]
) -> None:
    bootstrap = write_bootstrap(tmp_path / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'gateway.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "",
        "REDIS_URL": "",
    }
    gateway = start_gateway(env)
    try:
        client = client_for(gateway)
        asked = client.responses.create(model="orchestrator", input="qual o preço da Nordea?")
        chat_history = [SYSTEM, user("qual o preço da Nordea?")]
        question, session = ask(client, chat_history)
    finally:
        gateway.stop()
    gateway = start_gateway(env)
    try:
        client = client_for(gateway)
        assert client.responses.retrieve(asked.id) == asked
        answered = client.responses.create(model="orchestrator", input="2", previous_response_id=asked.id)
        assert "NDA-FI.HE" in answered.output_text
        answer, same = ask(client, [*chat_history, assistant(question), user("1")])
        assert same == session and "NDA-SE.ST" in answer
    finally:
        gateway.stop()
