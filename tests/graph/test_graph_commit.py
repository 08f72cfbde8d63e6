"""The cache in front of a store, and the application's own writes committed with a pause: the
SQL tests run on every SQL checkpointer: aiosqlite, the SQLite thread and PostgreSQL (``sql_store``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import pytest
from sqlalchemy import Column, MetaData, String, Table, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from graph import (
    CachingCheckpointer,
    ExtraWrite,
    GraphBuilder,
    GraphDefinition,
    GraphEngine,
    GraphResult,
    GraphSetupError,
    InMemoryCheckpointer,
    append,
)
from graph.checkpoint import GraphVersionRow
from shared.db import create_engine
from shared.status import RunStatus
from tests.graph.conftest import SqlStore, StoreParam, sql_checkpointer

State = Mapping[str, Any]
T = TypeVar("T")
turns_meta = MetaData()
turns = Table("turns", turns_meta, Column("id", String, primary_key=True), Column("answer", String))
versions = cast(Table, GraphVersionRow.__table__)


def chat_graph() -> GraphDefinition:
    def reply(state: State) -> dict[str, Any]:
        return {"log": [f"echo {state['message']}"]}

    return (
        GraphBuilder("chat", reducers={"log": append})
        .add_interrupt("idle")
        .add_node("reply", reply)
        .add_edge("idle", "reply")
        .add_edge("reply", "idle")
        .set_entry("idle")
        .compile()
    )


async def on_database(url: str, work: Callable[[Connection], T]) -> T:
    """``work`` in a transaction on the store's database, through a connection of its own."""
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            return await conn.run_sync(work)
    finally:
        await engine.dispose()


async def store(sql_store: StoreParam) -> SqlStore:
    url, thread = sql_store
    await on_database(url, turns_meta.create_all)
    return await sql_checkpointer(url, snapshot_every=4, thread=thread)


def record_turn(turn_id: str) -> Any:
    def on_commit(result: GraphResult) -> list[ExtraWrite]:
        def write(conn: Connection) -> None:
            conn.execute(insert(turns).values(id=turn_id, answer=result.state["log"][-1]))

        return [write]

    return on_commit


async def stored_turns(sql_store: StoreParam) -> list[tuple[str, str]]:
    def read(conn: Connection) -> list[tuple[str, str]]:
        return [(r.id, r.answer) for r in conn.execute(select(turns).order_by(turns.c.id))]

    return await on_database(sql_store[0], read)


async def test_extra_writes_land_with_the_pause(sql_store: StoreParam) -> None:
    ck = await store(sql_store)
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        await engine.run({"log": []}, session_id="s")
        result = await engine.resume("s", {"message": "hi"}, on_commit=record_turn("t1"))
        assert result.status == RunStatus.WAITING_INPUT
        assert await stored_turns(sql_store) == [("t1", "echo hi")]
    finally:
        await ck.close()


async def test_an_async_extra_write_is_refused(sql_store: StoreParam) -> None:
    ck = await store(sql_store)

    def on_commit(result: GraphResult) -> list[ExtraWrite]:
        async def write(conn: AsyncConnection) -> None:
            await conn.execute(insert(turns).values(id="t1", answer="never"))

        return [cast(ExtraWrite, write)]

    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        await engine.run({"log": []}, session_id="s")
        with pytest.raises(GraphSetupError, match="plain function"):
            await engine.resume("s", {"message": "hi"}, on_commit=on_commit)
    finally:
        await ck.close()


async def test_a_failing_extra_write_rolls_the_pause_back(sql_store: StoreParam) -> None:
    ck = await store(sql_store)
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        await engine.run({"log": []}, session_id="s")
        await engine.resume("s", {"message": "one"}, on_commit=record_turn("t1"))
        before = await engine.get_session("s")
        with pytest.raises(IntegrityError):  # the same turn id twice
            await engine.resume("s", {"message": "two"}, on_commit=record_turn("t1"))
        after = await engine.get_session("s")
        assert after.session.version == before.session.version
        assert after.state["log"] == ["echo one"]
        assert await stored_turns(sql_store) == [("t1", "echo one")]
        # and the session goes on from where it was
        again = await engine.resume("s", {"message": "three"}, on_commit=record_turn("t2"))
        assert again.state["log"] == ["echo one", "echo three"]
    finally:
        await ck.close()


async def test_a_new_session_in_exit_mode_is_created_by_its_first_pause(sql_store: StoreParam) -> None:
    ck = await store(sql_store)
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        assert await ck.head("fresh") is None
        with pytest.raises(IntegrityError):
            # the extra write fails, so the session was never created
            await engine.run({"log": []}, session_id="fresh", on_commit=_always_fails)
        assert await ck.head("fresh") is None
        await engine.run({"log": []}, session_id="fresh")
        head = await ck.head("fresh")
        assert head is not None and head.status == RunStatus.WAITING_INPUT
    finally:
        await ck.close()


def _always_fails(result: GraphResult) -> list[ExtraWrite]:
    def write(conn: Connection) -> None:
        conn.execute(text("create table if not exists once (id integer primary key)"))
        conn.execute(text("insert into once (id) values (1), (1)"))

    return [write]


async def test_memory_checkpointer_refuses_extra_writes() -> None:
    engine = GraphEngine(chat_graph(), InMemoryCheckpointer(), durability="exit")
    with pytest.raises(GraphSetupError, match="SqlCheckpointer"):
        await engine.run({"log": []}, session_id="s", on_commit=record_turn("t"))


async def test_cached_resume_serves_from_memory_until_someone_else_writes(
    sql_store: StoreParam,
) -> None:
    a_store, b_store = await store(sql_store), await sql_checkpointer(sql_store[0], snapshot_every=4)
    gateway_a = GraphEngine(chat_graph(), CachingCheckpointer(a_store), durability="exit")
    gateway_b = GraphEngine(chat_graph(), CachingCheckpointer(b_store), durability="exit")
    try:
        await gateway_a.run({"log": []}, session_id="s")
        await gateway_a.resume("s", {"message": "one"})
        # Change a stored delta behind the checkpointers' backs (the head stays the same): a
        # cached resume does not read it, which shows the versions were not read again.
        tamper = (
            update(versions)
            .where(versions.c.session_id == "s", versions.c.node == "idle>reply")
            .values(delta='{"log": ["tampered"]}')
        )
        tampered = await on_database(sql_store[0], lambda conn: conn.execute(tamper).rowcount)
        assert tampered == 1
        cached = await gateway_a.resume("s", {"message": "two"})
        assert cached.state["log"] == ["echo one", "echo two"]
        # Another process writes the session: the cached copy is stale and must not be used.
        moved = await gateway_b.resume("s", {"message": "three"})
        assert moved.state["log"][-1] == "echo three"
        back = await gateway_a.resume("s", {"message": "four"})
        assert back.state["log"][-2:] == ["echo three", "echo four"]
        assert back.version == moved.version + 1  # one version per turn
    finally:
        await a_store.close()
        await b_store.close()


async def test_a_cached_resume_continues_from_the_state_it_stored(sql_store: StoreParam) -> None:
    plain_store = await store(sql_store)
    cached = GraphEngine(chat_graph(), CachingCheckpointer(plain_store), durability="exit")
    plain = GraphEngine(chat_graph(), plain_store, durability="exit")
    try:
        await cached.run({"log": [], "profile": {"name": "ana"}}, session_id="s")
        first = await cached.resume("s", {"message": "one"})
        second = await cached.resume("s", {"message": "two"})
        # nothing was decoded again: the untouched value is the very object of the last turn
        assert second.state["profile"] is first.state["profile"]
        assert second.state["log"] == ["echo one", "echo two"]
        # without the cache the state is rebuilt from the store: equal, but a new object
        third = await plain.resume("s", {"message": "three"})
        assert third.state["profile"] == {"name": "ana"}
        assert third.state["profile"] is not second.state["profile"]
        # the other engine wrote: the cached engine must rebuild, not reuse its kept state
        fourth = await cached.resume("s", {"message": "four"})
        assert fourth.state["log"] == ["echo one", "echo two", "echo three", "echo four"]
        assert fourth.state["profile"] is not second.state["profile"]
    finally:
        await plain_store.close()


async def test_cache_keeps_at_most_max_sessions(sql_store: StoreParam) -> None:
    inner = await store(sql_store)
    ck = CachingCheckpointer(inner, max_sessions=2)
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        for sid in ("a", "b", "c"):
            await engine.run({"log": []}, session_id=sid)
        assert list(ck._entries) == ["b", "c"]
        assert (await engine.resume("a", {"message": "back"})).state["log"] == ["echo back"]
        assert list(ck._entries) == ["c", "a"]
    finally:
        await inner.close()


def _insert_turn(turn_id: str, answer: str) -> ExtraWrite:
    def write(conn: Connection) -> None:
        conn.execute(insert(turns).values(id=turn_id, answer=answer))

    return write


@pytest.mark.parametrize("single_statement", [False, True])
async def test_a_write_alone_commits_its_rows(sql_store: StoreParam, single_statement: bool) -> None:
    ck = await store(sql_store)
    try:
        await ck.write([_insert_turn("t1", "reserved")], single_statement=single_statement)
        assert await stored_turns(sql_store) == [("t1", "reserved")]
        with pytest.raises(IntegrityError):  # its errors are the caller's, and nothing is left open
            await ck.write([_insert_turn("t1", "again")], single_statement=single_statement)
        await ck.write([_insert_turn("t2", "next")], single_statement=single_statement)
        assert await stored_turns(sql_store) == [("t1", "reserved"), ("t2", "next")]
    finally:
        await ck.close()


async def test_a_single_statement_write_is_one_write(sql_store: StoreParam) -> None:
    ck = await store(sql_store)
    try:
        writes = [_insert_turn("t1", "a"), _insert_turn("t2", "b")]
        with pytest.raises(GraphSetupError, match="one write"):
            await ck.write(writes, single_statement=True)
        with pytest.raises(GraphSetupError, match="one write"):
            await CachingCheckpointer(ck).write(writes, single_statement=True)
        assert await stored_turns(sql_store) == []
    finally:
        await ck.close()
