"""The cache in front of a store, and the application's own writes committed with a pause."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import Column, MetaData, String, Table, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from execution.graph import (
    CachingCheckpointer,
    ExtraWrite,
    GraphBuilder,
    GraphDefinition,
    GraphEngine,
    GraphResult,
    GraphSetupError,
    InMemoryCheckpointer,
    SqlCheckpointer,
    append,
)
from execution.graph.checkpoint import GraphVersionRow
from shared.status import RunStatus
from tests.execution.graph.conftest import sqlite_checkpointer

State = Mapping[str, Any]
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


async def store(path: Path) -> SqlCheckpointer:
    ck = await sqlite_checkpointer(path, snapshot_every=4)
    async with ck.engine.begin() as conn:
        await conn.run_sync(turns_meta.create_all)
    return ck


def record_turn(turn_id: str) -> Any:
    def on_commit(result: GraphResult) -> list[ExtraWrite]:
        async def write(conn: AsyncConnection) -> None:
            await conn.execute(insert(turns).values(id=turn_id, answer=result.state["log"][-1]))

        return [write]

    return on_commit


async def stored_turns(ck: SqlCheckpointer) -> list[tuple[str, str]]:
    async with ck.engine.connect() as conn:
        return [tuple(r) for r in await conn.execute(select(turns).order_by(turns.c.id))]


async def test_extra_writes_land_with_the_pause(tmp_path: Path) -> None:
    ck = await store(tmp_path / "db.sqlite3")
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        await engine.run({"log": []}, session_id="s")
        result = await engine.resume("s", {"message": "hi"}, on_commit=record_turn("t1"))
        assert result.status == RunStatus.WAITING_INPUT
        assert await stored_turns(ck) == [("t1", "echo hi")]
    finally:
        await ck.close()


async def test_a_failing_extra_write_rolls_the_pause_back(tmp_path: Path) -> None:
    ck = await store(tmp_path / "db.sqlite3")
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        await engine.run({"log": []}, session_id="s")
        await engine.resume("s", {"message": "one"}, on_commit=record_turn("t1"))
        before = await engine.get_session("s")
        with pytest.raises(Exception, match="UNIQUE"):  # the same turn id twice
            await engine.resume("s", {"message": "two"}, on_commit=record_turn("t1"))
        after = await engine.get_session("s")
        assert after.session.version == before.session.version
        assert after.state["log"] == ["echo one"]
        assert await stored_turns(ck) == [("t1", "echo one")]
        # and the session goes on from where it was
        again = await engine.resume("s", {"message": "three"}, on_commit=record_turn("t2"))
        assert again.state["log"] == ["echo one", "echo three"]
    finally:
        await ck.close()


async def test_a_new_session_in_exit_mode_is_created_by_its_first_pause(tmp_path: Path) -> None:
    ck = await store(tmp_path / "db.sqlite3")
    engine = GraphEngine(chat_graph(), ck, durability="exit")
    try:
        assert await ck.head("fresh") is None
        with pytest.raises(Exception, match="UNIQUE"):
            # the extra write fails, so the session was never created
            await engine.run({"log": []}, session_id="fresh", on_commit=_always_fails)
        assert await ck.head("fresh") is None
        await engine.run({"log": []}, session_id="fresh")
        head = await ck.head("fresh")
        assert head is not None and head.status == RunStatus.WAITING_INPUT
    finally:
        await ck.close()


def _always_fails(result: GraphResult) -> list[ExtraWrite]:
    async def write(conn: AsyncConnection) -> None:
        await conn.execute(text("create table if not exists once (id integer primary key)"))
        await conn.execute(text("insert into once (id) values (1), (1)"))

    return [write]


async def test_memory_checkpointer_refuses_extra_writes() -> None:
    engine = GraphEngine(chat_graph(), InMemoryCheckpointer(), durability="exit")
    with pytest.raises(GraphSetupError, match="SqlCheckpointer"):
        await engine.run({"log": []}, session_id="s", on_commit=record_turn("t"))


async def test_cached_resume_serves_from_memory_until_someone_else_writes(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    a_store, b_store = await store(path), await sqlite_checkpointer(path, snapshot_every=4)
    gateway_a = GraphEngine(chat_graph(), CachingCheckpointer(a_store), durability="exit")
    gateway_b = GraphEngine(chat_graph(), CachingCheckpointer(b_store), durability="exit")
    try:
        await gateway_a.run({"log": []}, session_id="s")
        await gateway_a.resume("s", {"message": "one"})
        # Change a stored delta behind the checkpointers' backs (the head stays the same): a
        # cached resume does not read it, which shows the versions were not read again.
        async with a_store.engine.begin() as conn:
            await conn.execute(
                update(versions)
                .where(versions.c.session_id == "s", versions.c.node == "reply")
                .values(delta='{"log": ["tampered"]}')
            )
        cached = await gateway_a.resume("s", {"message": "two"})
        assert cached.state["log"] == ["echo one", "echo two"]
        # Another process writes the session: the cached copy is stale and must not be used.
        moved = await gateway_b.resume("s", {"message": "three"})
        assert moved.state["log"][-1] == "echo three"
        back = await gateway_a.resume("s", {"message": "four"})
        assert back.state["log"][-2:] == ["echo three", "echo four"]
        assert back.version == moved.version + 2
    finally:
        await a_store.close()
        await b_store.close()


async def test_a_cached_resume_continues_from_the_state_it_stored(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    plain_store = await store(path)
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


async def test_cache_keeps_at_most_max_sessions(tmp_path: Path) -> None:
    inner = await store(tmp_path / "db.sqlite3")
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
