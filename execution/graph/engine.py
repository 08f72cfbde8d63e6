"""The execution engine (seed 000, "O Motor de Execução"): follow the definition, merge deltas.

The loop works in *steps*. A step runs the current frontier — usually one node, several after a
fan-out — merges each node's delta in frontier order (deterministic, whatever finished first),
numbers every merged state as a new version, then asks the edges for the next frontier (routers
see the state after the whole step). ``__end__`` ends a branch; the run completes when the
frontier is empty.

* **Sync nodes run inline** on the event loop: they are expected to be cheap (formatting,
  routing decisions). Anything that does I/O or heavy CPU must be ``async`` (or offload itself
  with ``asyncio.to_thread``). Async nodes of one step run concurrently.
* **Interrupts**: when the next frontier contains an interrupt node the run stops *before* that
  step, the session is persisted with ``status="waiting_input"`` and the interrupt's question /
  payload, and :meth:`GraphEngine.resume` later merges the new input as the interrupt's delta and
  continues from exactly that frontier — completed nodes never run again.
* **Without a checkpointer** nothing is encoded or stored (the in-memory fast path); a run that
  reaches an interrupt still returns ``waiting_input``, but only a checkpointer can resume it.
* With a checkpointer the state must be JSON data. ``durability`` (LangGraph's names) says when
  intermediate steps are written: ``"sync"`` (default) each step before the next starts,
  ``"async"`` group-committed in the background while the run goes on, ``"exit"`` not at all.
  A pause, completion or failure is always written before ``run``/``resume`` return.

>>> import asyncio
>>> from execution.graph import END, GraphBuilder, GraphEngine, InMemoryCheckpointer, append
>>> calls = []
>>> def plan(state):
...     calls.append("plan")
...     return {"messages": ["which ticker: NDA-SE.ST or NDA-FI.HE?"]}
>>> def answer(state):
...     calls.append("answer")
...     return {"messages": [f"quote for {state['choice']}"]}
>>> graph = (
...     GraphBuilder("turn", reducers={"messages": append})
...     .add_node("plan", plan)
...     .add_interrupt("ask", question="Which one?")
...     .add_node("answer", answer)
...     .add_edge("plan", "ask").add_edge("ask", "answer").add_edge("answer", END)
...     .set_entry("plan")
...     .compile()
... )
>>> engine = GraphEngine(graph, InMemoryCheckpointer())
>>> first = asyncio.run(engine.run({"messages": []}, session_id="s1"))
>>> first.status, first.interrupt.name, first.interrupt.question
(<RunStatus.WAITING_INPUT: 'waiting_input'>, 'ask', 'Which one?')
>>> done = asyncio.run(engine.resume("s1", {"choice": "NDA-SE.ST"}))
>>> done.status, done.state["messages"][-1], calls
(<RunStatus.COMPLETED: 'completed'>, 'quote for NDA-SE.ST', ['plan', 'answer'])
>>> [(v.version, v.node) for v in asyncio.run(engine.history("s1"))]
[(0, '__start__'), (1, 'plan'), (2, 'ask'), (3, 'answer')]
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from execution.graph.checkpoint import (
    Checkpointer,
    ExtraWrite,
    Frontier,
    SessionRecord,
    VersionInfo,
    VersionRecord,
    utcnow,
)
from execution.graph.definition import GraphDefinition
from execution.graph.errors import (
    GraphRecursionError,
    GraphRuntimeError,
    GraphSetupError,
    SessionNotFoundError,
)
from execution.graph.state import (
    END,
    INPUT,
    START,
    State,
    StateView,
    decode,
    encode,
    encode_delta,
    merge_delta,
    thaw,
)
from shared.status import InvalidTransition, RunStatus, transition


@dataclass(frozen=True, slots=True)
class Interrupt:
    """Why a run is waiting: the interrupt node, its fixed question and its payload from the state."""

    name: str
    question: str | None = None
    payload: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "question": self.question, "payload": self.payload}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Interrupt:
        return cls(name=data["name"], question=data.get("question"), payload=data.get("payload"))


@dataclass(frozen=True, slots=True)
class GraphResult:
    """What one ``run`` / ``resume`` call returns."""

    session_id: str
    status: RunStatus
    #: The state after the last merged version. Read it, never change it: states share structure
    #: with each other, and the engine resumes the session from this very object.
    state: State
    #: Number of the last merged version (0 = the initial state).
    version: int
    #: Nodes run by *this call*, in merge order (interrupts answered by ``resume`` included).
    path: tuple[str, ...]
    steps: int
    #: The frontier left to run (the interrupt(s) when waiting; empty when completed).
    next: tuple[str, ...] = ()
    interrupt: Interrupt | None = None


@dataclass(frozen=True, slots=True)
class SessionState:
    """A stored session and its current state (what ``GET /v1/sessions/{id}`` needs)."""

    session: SessionRecord
    state: State


#: Sessions whose latest state an engine keeps (least recently stored out first).
_STATES_KEPT = 1024


def generate_session_id() -> str:
    """A fresh session id (``gs-<32 hex>``) for runs started without one."""
    return f"gs-{uuid.uuid4().hex}"


Durability = Literal["sync", "async", "exit"]

#: Given the result about to be stored (a pause or a completion), the caller's own writes to
#: commit in the same transaction (``SqlCheckpointer`` only); see ``GraphEngine.run``.
OnCommit = Callable[["GraphResult"], Sequence[ExtraWrite]]


class _Writer:
    """Hands a run's version records to the checkpointer according to the durability mode.

    * ``sync``  — every step is stored before the next step starts;
    * ``async`` — group commit: while one write is in flight the following steps accumulate and
      go out together in the next write (the run never waits for intermediate writes);
    * ``exit``  — intermediate steps are only kept in memory.

    Whatever the mode, a pause, a completion or a failure first drains every pending write and
    then stores the rest with the session row, so a ``waiting_input`` session is always durable.
    """

    __slots__ = ("backlog", "ck", "create", "mode", "on_commit", "stored", "task")

    def __init__(
        self,
        ck: Checkpointer,
        mode: Durability,
        *,
        on_commit: OnCommit | None = None,
        create: bool = False,
        stored: Callable[[str, VersionRecord, State], None] | None = None,
    ):
        self.ck = ck
        self.mode = mode
        self.on_commit = on_commit
        #: told (session id, last record, state at it) once the final write landed
        self.stored = stored
        #: a new session not stored yet (``exit``): the final write creates it
        self.create = create
        self.backlog: list[VersionRecord] = []
        self.task: asyncio.Future[None] | None = None

    def _take(self) -> list[VersionRecord]:
        records, self.backlog = self.backlog, []
        return records

    async def step(self, session: SessionRecord, records: list[VersionRecord]) -> None:
        self.backlog.extend(records)
        if self.mode == "sync":
            await self.ck.save(session, self._take(), update_session=False)
        elif self.mode == "async" and (self.task is None or self.task.done()):
            if self.task is not None:
                self.task.result()  # surface a failed write now
            self.task = asyncio.ensure_future(self.ck.save(session, self._take(), update_session=False))

    async def final(
        self,
        session: SessionRecord,
        records: list[VersionRecord],
        expected_version: int,
        result: GraphResult | None = None,
    ) -> None:
        if self.task is not None:
            task, self.task = self.task, None
            await task
        self.backlog.extend(records)
        extra = self.on_commit(result) if self.on_commit is not None and result is not None else ()
        create, self.create = self.create, False
        expected = None if create else expected_version
        batch = self._take()
        await self.ck.save(session, batch, create=create, expected_version=expected, extra=extra)
        if self.stored is not None and result is not None and batch and batch[-1].version == result.version:
            self.stored(session.session_id, batch[-1], result.state)


class GraphEngine:
    """Runs one :class:`GraphDefinition`, optionally persisting sessions through a :class:`Checkpointer`."""

    def __init__(
        self,
        graph: GraphDefinition,
        checkpointer: Checkpointer | None = None,
        *,
        max_steps: int | None = None,
        durability: Durability = "sync",
    ):
        if durability not in ("sync", "async", "exit"):
            raise GraphSetupError(f"unknown durability {durability!r}", param="durability")
        self.graph = graph
        self.checkpointer = checkpointer
        self.max_steps = max_steps if max_steps is not None else graph.max_steps
        self.durability: Durability = durability
        #: session id -> (the last record this engine stored, the state at it): a resume whose
        #: checkpointer hands back that very record object (a cache hit) skips decoding and
        #: folding. States are never changed once produced (see ``state``), so sharing is safe.
        self._states: OrderedDict[str, tuple[VersionRecord, State]] = OrderedDict()

    # ------------------------------------------------------------------ public API

    async def run(
        self,
        initial_state: Mapping[str, Any] | None = None,
        *,
        session_id: str | None = None,
        on_commit: OnCommit | None = None,
    ) -> GraphResult:
        """Start a new run at the entry node (a new session when a checkpointer is set).

        ``on_commit`` (also on :meth:`resume`) is called with the result about to be stored when
        the run pauses or completes; the writes it returns are committed in the same transaction
        as the session (so an application's record of the turn and the graph's pause land
        together or not at all). With ``durability="exit"`` a new session is only stored then.
        """
        sid = session_id or generate_session_id()
        state: State = dict(initial_state or {})
        frontier = Frontier((self.graph.entry,), {})
        ck = self.checkpointer
        writer = None
        if ck is not None:
            text = encode(state, what="initial state")
            now = utcnow()
            record = VersionRecord(0, START, text, text, frontier, now)
            session = SessionRecord(
                sid, self.graph.name, RunStatus.EXECUTING, 0, frontier, None, None, now, now
            )
            deferred = self.durability == "exit"
            writer = _Writer(ck, self.durability, on_commit=on_commit, create=deferred, stored=self._stored)
            if deferred:
                writer.backlog.append(record)
            else:
                await ck.save(session, [record], create=True)
        return await self._drive(
            sid, state, 0, frontier, answer=None, status=RunStatus.EXECUTING, row_version=0, writer=writer
        )

    async def resume(
        self,
        session_id: str,
        new_input: Mapping[str, Any] | None = None,
        *,
        on_commit: OnCommit | None = None,
    ) -> GraphResult:
        """Load a session, merge ``new_input`` (through the reducers) and continue where it stopped.

        A session waiting on an interrupt gets ``new_input`` as that interrupt's delta and follows
        its edges (a router after the interrupt can tell an answer from a fresh request). A
        forked / interrupted-by-crash session just continues its stored frontier.
        """
        ck = self._require_checkpointer("resume")
        session, records, row_version = await self._load(ck, session_id)
        try:
            transition(session.status, RunStatus.EXECUTING)
        except InvalidTransition as exc:
            raise GraphRuntimeError(
                f"session {session_id!r} is {session.status.value} and cannot be resumed; "
                "fork it from a version to continue",
                param="session_id",
            ) from exc
        state = self._current_state(session_id, records)
        waiting = session.status == RunStatus.WAITING_INPUT
        frontier = session.frontier
        version = session.version
        if not waiting and new_input:
            # Not waiting on a question: the input is its own version, then the frontier runs.
            delta_text = encode(new_input, what="resume input")
            state = merge_delta(state, new_input, self.graph.reducers)
            version += 1
            record = VersionRecord(
                version, INPUT, delta_text, self._snapshot(version, state), frontier, utcnow()
            )
            await ck.save(
                self._session(session_id, RunStatus.EXECUTING, version, frontier, INPUT, None, session),
                [record],
                expected_version=row_version,
            )
            row_version = version
        return await self._drive(
            session_id,
            state,
            version,
            frontier,
            answer=dict(new_input or {}) if waiting else None,
            status=session.status,
            base=session,
            row_version=row_version,
            writer=_Writer(ck, self.durability, on_commit=on_commit, stored=self._stored),
        )

    async def get_session(self, session_id: str) -> SessionState:
        """The session row and its current state."""
        session, records, _ = await self._load(self._require_checkpointer("get_session"), session_id)
        return SessionState(session, self._current_state(session_id, records))

    async def _load(
        self, ck: Checkpointer, session_id: str
    ) -> tuple[SessionRecord, list[VersionRecord], int]:
        """Session (advanced to its latest version if a run wrote past the row), records, row version."""
        loaded = await ck.load(session_id)
        if loaded is None:
            raise SessionNotFoundError(f"no graph session {session_id!r}", param="session_id")
        session, records = loaded
        self._check_graph(session)
        row_version = session.version
        last = records[-1] if records else None
        if last is not None and last.version > session.version and last.frontier is not None:
            session = replace(session, version=last.version, frontier=last.frontier, current_node=last.node)
        return session, records, row_version

    async def history(self, session_id: str) -> list[VersionInfo]:
        """Every version of the session: number, node, timestamp, delta size."""
        versions = await self._require_checkpointer("history").history(session_id)
        if not versions:
            raise SessionNotFoundError(f"no graph session {session_id!r}", param="session_id")
        return versions

    async def get_version(self, session_id: str, version: int) -> State:
        """The full state as it was right after ``version`` was merged."""
        records = await self._require_checkpointer("get_version").replay(session_id, version)
        if not records or records[-1].version != version:
            raise SessionNotFoundError(
                f"session {session_id!r} has no version {version}",
                param="version",
                details={"version": version},
            )
        return self._fold(records)

    async def fork(self, session_id: str, version: int, new_session_id: str | None = None) -> SessionRecord:
        """Time travel: a new session whose history is ``session_id``'s up to ``version``.

        The fork continues from that version's frontier: ``waiting_input`` if it stood before an
        interrupt (answer it with :meth:`resume`), ``pending`` otherwise (``resume`` runs it).
        Versions inside a parallel step are not resume points; fork from the step's last version.
        """
        ck = self._require_checkpointer("fork")
        records = await ck.records(session_id, version)
        if not records or records[-1].version != version:
            raise SessionNotFoundError(
                f"session {session_id!r} has no version {version}",
                param="version",
                details={"version": version},
            )
        last = records[-1]
        if last.frontier is None:
            raise GraphRuntimeError(
                f"version {version} of {session_id!r} is inside a parallel step; "
                "fork from the step's last version",
                param="version",
            )
        start = max(i for i, r in enumerate(records) if r.snapshot is not None)
        state = self._fold(records[start:])
        interrupt = self._pending_interrupt(last.frontier.next, state)
        if interrupt is not None:
            status = RunStatus.WAITING_INPUT
        elif last.frontier.next:
            status = RunStatus.PENDING
        else:
            status = RunStatus.COMPLETED
        new_sid = new_session_id or generate_session_id()
        now = utcnow()
        session = SessionRecord(
            new_sid,
            self.graph.name,
            status,
            version,
            last.frontier,
            last.node,
            None if interrupt is None else interrupt.to_json(),
            now,
            now,
        )
        await ck.save(session, records, create=True)
        return session

    async def delete(self, session_id: str) -> bool:
        self._states.pop(session_id, None)
        return await self._require_checkpointer("delete").delete(session_id)

    # ------------------------------------------------------------------ the loop

    async def _drive(
        self,
        sid: str,
        state: State,
        version: int,
        frontier: Frontier,
        *,
        answer: dict[str, Any] | None,
        status: RunStatus,
        base: SessionRecord | None = None,
        row_version: int = 0,
        writer: _Writer | None = None,
    ) -> GraphResult:
        graph = self.graph
        reducers = graph.reducers
        interrupts = graph.interrupt_names
        ck = self.checkpointer
        snapshot_every = ck.snapshot_every if ck is not None else 0
        next_nodes: list[str] = list(frontier.next)
        joins: dict[str, set[str]] = {k: set(v) for k, v in frontier.joins.items()}
        path: list[str] = []
        steps = 0
        saved_version = row_version  # the session row's version: optimistic-concurrency token
        written = version  # the newest version stored
        created_at = base.created_at if base is not None else None

        if answer is None and any(n in interrupts for n in next_nodes):
            # Entry is an interrupt, or resume() of a fork that stands before one.
            return await self._pause(
                sid, state, version, next_nodes, joins, path, steps, saved_version, writer, created_at
            )

        while next_nodes:
            if steps >= self.max_steps:
                exc = GraphRecursionError(self.max_steps, path[-8:])
                await self._fail(sid, written, next_nodes, joins, path, saved_version, [], writer, created_at)
                raise exc
            steps += 1
            step = next_nodes
            view = StateView(state)
            try:
                deltas = await self._run_step(step, view, answer)
            except BaseException:
                await self._fail(sid, written, step, joins, path, saved_version, [], writer, created_at)
                raise
            answer = None
            pending: list[tuple[int, str, str, str | None]] = []
            try:
                for node, delta in zip(step, deltas, strict=True):
                    if ck is not None:
                        delta_text, viewed = encode_delta(delta or {}, what=f"delta of node {node!r}")
                        if viewed:  # a node handed back values it read: store plain data
                            delta = thaw(delta)
                    state = merge_delta(state, delta, reducers, plain=ck is not None)
                    version += 1
                    path.append(node)
                    if ck is not None:
                        snapshot = encode(state, what="state") if version % snapshot_every == 0 else None
                        pending.append((version, node, delta_text, snapshot))
                view = StateView(state)
                next_nodes = []
                for node in step:
                    await self._route(node, view, next_nodes, joins)
            except BaseException:
                if ck is not None:
                    records = self._records(pending, None)
                    await self._fail(
                        sid,
                        written + len(records),
                        step,
                        joins,
                        path,
                        saved_version,
                        records,
                        writer,
                        created_at,
                    )
                raise
            if not next_nodes:
                status = RunStatus.COMPLETED
            elif any(n in interrupts for n in next_nodes):
                return await self._pause(
                    sid,
                    state,
                    version,
                    next_nodes,
                    joins,
                    path,
                    steps,
                    saved_version,
                    writer,
                    created_at,
                    self._records(pending, Frontier(tuple(next_nodes), _freeze_joins(joins))),
                )
            else:
                status = RunStatus.EXECUTING
            if writer is not None:
                front = Frontier(tuple(next_nodes), _freeze_joins(joins))
                if status == RunStatus.EXECUTING and writer.mode == "exit":
                    writer.backlog.extend(self._records(pending, front))  # kept for the final write
                    written = version
                    continue
                session = SessionRecord(
                    sid, graph.name, status, version, front, step[-1], None, created_at or utcnow(), utcnow()
                )
                if status == RunStatus.EXECUTING:
                    await writer.step(session, self._records(pending, front))
                else:
                    done = GraphResult(sid, RunStatus.COMPLETED, state, version, tuple(path), steps, ())
                    await writer.final(session, self._records(pending, front), saved_version, done)
                    return done
                written = version
        return GraphResult(sid, RunStatus.COMPLETED, state, version, tuple(path), steps, ())

    async def _run_step(
        self, step: Sequence[str], view: StateView, answer: dict[str, Any] | None
    ) -> list[Any]:
        node_fns = self.graph.node_fns
        if len(step) == 1:
            node = step[0]
            if node in self.graph.interrupt_names:
                return [answer]
            fn, is_async = node_fns[node]
            out = fn(view)
            if is_async or inspect.isawaitable(out):
                out = await out
            return [self._check_delta(node, out)]
        results: list[Any] = [None] * len(step)
        tasks: list[tuple[int, asyncio.Task[Any]]] = []
        answered = False
        try:
            for i, node in enumerate(step):
                if node in self.graph.interrupt_names:
                    # One answer for the whole step, attributed to the first interrupt.
                    results[i] = None if answered else answer
                    answered = True
                    continue
                fn, is_async = node_fns[node]
                if is_async:
                    tasks.append((i, asyncio.ensure_future(fn(view))))
                else:
                    out = fn(view)
                    if inspect.isawaitable(out):
                        tasks.append((i, asyncio.ensure_future(out)))
                    else:
                        results[i] = self._check_delta(node, out)
            if tasks:
                outs = await asyncio.gather(*(t for _, t in tasks))
                for (i, _), out in zip(tasks, outs, strict=True):
                    results[i] = self._check_delta(step[i], out)
        except BaseException:
            for _, task in tasks:
                task.cancel()
            raise
        return results

    @staticmethod
    def _check_delta(node: str, out: Any) -> Any:
        if out is None or type(out) is dict or isinstance(out, Mapping):
            return out
        raise GraphRuntimeError(
            f"node {node!r} returned {type(out).__name__}; a node returns a dict delta or None",
            param=f"nodes.{node}",
        )

    async def _route(self, node: str, view: StateView, out: list[str], joins: dict[str, set[str]]) -> None:
        graph = self.graph
        targets = graph.edges.get(node)
        if targets is None and node in graph.routers:
            targets = await self._ask_router(node, view)
        for target in targets or ():
            if target != END and target not in out:
                out.append(target)
        for join in graph.joins_by_source.get(node, ()):
            arrived = joins.setdefault(join.target, set())
            arrived.add(node)
            if len(arrived) == len(join.sources):
                del joins[join.target]
                if join.target not in out:
                    out.append(join.target)

    async def _ask_router(self, node: str, view: StateView) -> tuple[str, ...]:
        fn, is_async = self.graph.routers[node]
        label = fn(view)
        if is_async or inspect.isawaitable(label):
            label = await label
        edge = self.graph.conditional_edges[node]
        labels = (
            [label] if isinstance(label, str) else list(label) if isinstance(label, list | tuple) else None
        )
        if labels is None:
            raise GraphRuntimeError(
                f"router of {node!r} returned {type(label).__name__}; "
                "expected a label, a node name or a list",
                param=f"conditional_edges.{node}",
            )
        resolved: list[str] = []
        for item in labels:
            if item in edge.path_map:
                resolved.extend(edge.path_map[item])
            elif item in edge.targets:
                resolved.append(item)
            else:
                raise GraphRuntimeError(
                    f"router of {node!r} returned {item!r}, which is not one of its labels "
                    f"({', '.join(edge.path_map)}) or targets",
                    param=f"conditional_edges.{node}",
                    details={"label": item, "labels": list(edge.path_map)},
                )
        return tuple(resolved)

    # ------------------------------------------------------------------ persistence helpers

    async def _pause(
        self,
        sid: str,
        state: State,
        version: int,
        next_nodes: list[str],
        joins: dict[str, set[str]],
        path: list[str],
        steps: int,
        saved_version: int,
        writer: _Writer | None,
        created_at: Any,
        records: list[VersionRecord] | None = None,
    ) -> GraphResult:
        interrupt = self._pending_interrupt(next_nodes, state)
        assert interrupt is not None
        result = GraphResult(
            sid, RunStatus.WAITING_INPUT, state, version, tuple(path), steps, tuple(next_nodes), interrupt
        )
        if writer is not None:
            payload = interrupt.to_json()
            encode(payload, what=f"payload of interrupt {interrupt.name!r}")
            front = Frontier(tuple(next_nodes), _freeze_joins(joins))
            current = path[-1] if path else None
            session = SessionRecord(
                sid,
                self.graph.name,
                RunStatus.WAITING_INPUT,
                version,
                front,
                current,
                payload,
                created_at or utcnow(),
                utcnow(),
            )
            await writer.final(session, records or [], saved_version, result)
        return result

    async def _fail(
        self,
        sid: str,
        version: int,
        next_nodes: Sequence[str],
        joins: dict[str, set[str]],
        path: list[str],
        saved_version: int,
        records: list[VersionRecord],
        writer: _Writer | None,
        created_at: Any,
    ) -> None:
        if writer is None:
            return
        front = Frontier(tuple(next_nodes), _freeze_joins(joins))
        current = path[-1] if path else None
        session = SessionRecord(
            sid,
            self.graph.name,
            RunStatus.FAILED,
            version,
            front,
            current,
            None,
            created_at or utcnow(),
            utcnow(),
        )
        # Never hide the original error behind a storage one.
        with contextlib.suppress(Exception):
            await writer.final(session, records, saved_version)

    def _records(
        self, pending: list[tuple[int, str, str, str | None]], front: Frontier | None
    ) -> list[VersionRecord]:
        now = utcnow()
        last = len(pending) - 1
        return [
            VersionRecord(v, node, delta, snap, front if i == last else None, now)
            for i, (v, node, delta, snap) in enumerate(pending)
        ]

    def _pending_interrupt(self, next_nodes: Sequence[str], state: Mapping[str, Any]) -> Interrupt | None:
        for name in next_nodes:
            spec = self.graph.nodes.get(name)
            if spec is not None and spec.kind == "interrupt":
                payload = state.get(spec.payload_key) if spec.payload_key else None
                return Interrupt(name, spec.question, payload)
        return None

    def _snapshot(self, version: int, state: State) -> str | None:
        ck = self.checkpointer
        return encode(state, what="state") if ck is not None and version % ck.snapshot_every == 0 else None

    def _session(
        self,
        sid: str,
        status: RunStatus,
        version: int,
        frontier: Frontier,
        current: str | None,
        interrupt: Mapping[str, Any] | None,
        base: SessionRecord,
    ) -> SessionRecord:
        return SessionRecord(
            sid, self.graph.name, status, version, frontier, current, interrupt, base.created_at, utcnow()
        )

    def _stored(self, session_id: str, last: VersionRecord, state: State) -> None:
        self._states[session_id] = (last, state)
        self._states.move_to_end(session_id)
        while len(self._states) > _STATES_KEPT:
            self._states.popitem(last=False)

    def _current_state(self, session_id: str, records: Sequence[VersionRecord]) -> State:
        kept = self._states.get(session_id)
        if kept is not None and records and kept[0] is records[-1]:
            return kept[1]
        return self._fold(records)

    def _fold(self, records: Sequence[VersionRecord]) -> State:
        if not records or records[0].snapshot is None:
            raise GraphRuntimeError("stored session has no snapshot to start from; the store is corrupt")
        state = decode(records[0].snapshot)
        reducers = self.graph.reducers
        for record in records[1:]:
            state = merge_delta(state, decode(record.delta), reducers, plain=True)
        return state

    def _check_graph(self, session: SessionRecord) -> None:
        if session.graph_name != self.graph.name:
            raise GraphRuntimeError(
                f"session {session.session_id!r} belongs to graph {session.graph_name!r}, "
                f"not {self.graph.name!r}",
                param="session_id",
            )

    def _require_checkpointer(self, what: str) -> Checkpointer:
        if self.checkpointer is None:
            raise GraphRuntimeError(f"{what} needs a checkpointer; build GraphEngine(graph, checkpointer)")
        return self.checkpointer


def _freeze_joins(joins: dict[str, set[str]]) -> dict[str, tuple[str, ...]]:
    return {k: tuple(sorted(v)) for k, v in joins.items()}


# ---------------------------------------------------------------------- module-level API


async def run(
    graph: GraphDefinition,
    initial_state: Mapping[str, Any] | None = None,
    *,
    session_id: str | None = None,
    checkpointer: Checkpointer | None = None,
    max_steps: int | None = None,
    durability: Durability = "sync",
) -> GraphResult:
    """``GraphEngine(graph, checkpointer).run(initial_state)`` in one call."""
    return await GraphEngine(graph, checkpointer, max_steps=max_steps, durability=durability).run(
        initial_state, session_id=session_id
    )


async def resume(
    graph: GraphDefinition,
    session_id: str,
    new_input: Mapping[str, Any] | None = None,
    *,
    checkpointer: Checkpointer,
    max_steps: int | None = None,
    durability: Durability = "sync",
) -> GraphResult:
    """``GraphEngine(graph, checkpointer).resume(session_id, new_input)`` in one call."""
    return await GraphEngine(graph, checkpointer, max_steps=max_steps, durability=durability).resume(
        session_id, new_input
    )
