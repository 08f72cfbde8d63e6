"""The execution engine: follow the definition, fold deltas, persist versions, pause on interrupts.

The loop works in *steps*. A step runs the current frontier — usually one node, several after a
fan-out — folds each node's delta in frontier order (deterministic, whatever finished first),
numbers every folded state as a new version, then asks the edges for the next frontier (routers
see the state after the whole step). ``__end__`` ends a branch; the run completes when the
frontier is empty.

* **Sync nodes run inline** on the event loop: they are expected to be cheap (formatting,
  routing decisions). Anything that does I/O or heavy CPU must be ``async`` (or offload itself
  with ``asyncio.to_thread``). Async nodes of one step run concurrently.
* **Interrupts**: when the next frontier contains an interrupt node the run stops *before* that
  step, the session is persisted with ``status="waiting_input"`` and the interrupt's question /
  payload, and :meth:`GraphEngine.resume` later folds the new input as the interrupt's delta and
  continues from exactly that frontier — completed nodes never run again.
* **Without a checkpointer** nothing is encoded or stored; a run that reaches an interrupt still
  returns ``waiting_input``, but only a checkpointer can resume it.
* **State**: a plain dict, or an instance of the graph's ``state_schema`` (see
  :mod:`graph.codec`); either way it becomes JSON only at the checkpoint.
  ``durability`` (LangGraph's names) says when intermediate steps are written: ``"sync"``
  (default) each step before the next starts, ``"async"`` group-committed in the background
  while the run goes on, ``"exit"`` not at all: everything one ``run``/``resume`` call folded
  becomes *one* version (its deltas squashed, encoded once), written with the pause or the end
  in one transaction, so a call (a conversation turn) is stored whole or not at all, and time
  travel steps from call to call. A pause, completion or failure is always written before
  ``run``/``resume`` return.

>>> import asyncio
>>> from graph import END, GraphBuilder, GraphEngine, InMemoryCheckpointer, append
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
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, Literal, Protocol

from graph.checkpoint import (
    Checkpointer,
    ExtraWrite,
    Frontier,
    SessionRecord,
    VersionInfo,
    VersionRecord,
    utcnow,
)
from graph.codec import StateCodec, StateT
from graph.definition import ConditionalEdge, GraphDefinition
from graph.errors import (
    GraphRecursionError,
    GraphRuntimeError,
    GraphSetupError,
    SessionNotFoundError,
)
from graph.state import END, INPUT, START, squash
from graph.update import StateUpdate
from shared.status import InvalidTransition, RunStatus, transition


@dataclass(frozen=True, slots=True)
class Interrupt:
    """Why a run is waiting: the interrupt node, its fixed question and its payload from the state."""

    name: str
    question: str | None = None
    #: the ``payload_key`` value, typed as in the state; the session row keeps its JSON form
    payload: Any = None


@dataclass(frozen=True, slots=True)
class GraphResult(Generic[StateT]):
    """What one ``run`` / ``resume`` call returns."""

    session_id: str
    status: RunStatus
    #: The state after the last folded version (a dict, or the schema's model). Read it, never
    #: change it: states share structure with each other and the engine resumes from this object.
    state: StateT
    #: Number of the last folded version (0 = the initial state).
    version: int
    #: Nodes run by *this call*, in fold order (interrupts answered by ``resume`` included).
    path: tuple[str, ...]
    steps: int
    #: The frontier left to run (the interrupt(s) when waiting; empty when completed).
    next: tuple[str, ...] = ()
    interrupt: Interrupt | None = None


@dataclass(frozen=True, slots=True)
class SessionState(Generic[StateT]):
    """A stored session and its current state (what ``GET /v1/sessions/{id}`` needs)."""

    session: SessionRecord
    state: StateT


#: Sessions whose latest state an engine keeps (least recently stored out first).
_STATES_KEPT = 1024


#: Longest node label of a version (the ``graph_versions.node`` column holds 200 characters).
_LABEL_MAX = 200


def node_label(nodes: Sequence[str]) -> str:
    """The node column of a version that folds several nodes: their names in fold order.

    >>> node_label(["idle", "understand", "respond"])
    'idle>understand>respond'
    >>> len(node_label(["step"] * 80)) <= _LABEL_MAX
    True
    """
    label = ">".join(nodes)
    if len(label) <= _LABEL_MAX:
        return label
    tail = label[-(_LABEL_MAX - len(nodes[0]) - 2) :]
    return f"{nodes[0]}…{tail[tail.find('>') :]}"


def generate_session_id() -> str:
    """A fresh session id (``gs-<32 hex>``) for runs started without one."""
    return f"gs-{uuid.uuid4().hex}"


Durability = Literal["sync", "async", "exit"]


class OnCommit(Protocol[StateT]):
    """The caller's own rows, written in the transaction that stores a call's pause or end.

    Not a callback into the caller's logic: given the result about to be stored, it returns
    the writes (:class:`~graph.checkpoint.ExtraWrite`) of the application's own records of that
    result (a conversation turn's run trace, say), and the checkpointer commits them with the
    session row, so both land together or not at all (``SqlCheckpointer``; the in-memory one
    runs them with no connection). It runs once per ``run`` / ``resume`` call, after the last
    node, and must not do I/O itself.
    """

    def __call__(self, result: GraphResult[StateT], /) -> Sequence[ExtraWrite]: ...


class _Writer:
    """Hands a run's version records to the checkpointer according to the durability mode.

    * ``sync``  — every step is stored before the next step starts;
    * ``async`` — group commit: while one write is in flight the following steps accumulate and
      go out together in the next write (the run never waits for intermediate writes);
    * ``exit``  — nothing until the call ends: the engine hands over one version for the call.

    Whatever the mode, a pause, a completion or a failure first drains every pending write and
    then stores the rest with the session row, so a ``waiting_input`` session is always durable.
    """

    __slots__ = ("backlog", "ck", "create", "mode", "on_commit", "stored", "task")

    def __init__(
        self,
        ck: Checkpointer,
        mode: Durability,
        *,
        on_commit: OnCommit[Any] | None = None,
        create: bool = False,
        stored: Callable[[str, VersionRecord, Any], None] | None = None,
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
        result: GraphResult[Any] | None = None,
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


@dataclass(slots=True)
class _Cursor(Generic[StateT]):
    """Where one ``run`` / ``resume`` call stands; each step of the loop advances it."""

    session_id: str
    state: StateT
    #: the newest folded version
    version: int
    next_nodes: list[str]
    #: per join target, the sources that already arrived
    joins: dict[str, set[str]]
    writer: _Writer | None
    #: what the caller handed this call for its nodes (``deps=``); never stored
    deps: object = None
    #: the session row's version: the optimistic-concurrency token of the final write
    row_version: int = 0
    #: the newest version handed to the writer
    written: int = 0
    created_at: datetime | None = None
    path: list[str] = field(default_factory=list)
    steps: int = 0
    #: ``durability="exit"``: (node, delta) folded since the last stored version, in fold order
    folded: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    #: ``len(folded)`` when the current step began (what a failing step leaves out)
    step_start: int = 0

    @property
    def current_node(self) -> str | None:
        return self.path[-1] if self.path else None

    def frontier(self, next_nodes: Sequence[str] | None = None) -> Frontier:
        nodes = self.next_nodes if next_nodes is None else next_nodes
        return Frontier(tuple(nodes), {k: tuple(sorted(v)) for k, v in self.joins.items()})

    def result(self, status: RunStatus, interrupt: Interrupt | None = None) -> GraphResult[StateT]:
        return GraphResult(
            self.session_id,
            status,
            self.state,
            self.version,
            tuple(self.path),
            self.steps,
            tuple(self.next_nodes),
            interrupt,
        )


@dataclass(frozen=True, slots=True)
class _Pending:
    """A folded version whose record is not built yet (its frontier is known at the step's end)."""

    version: int
    node: str
    delta: str
    snapshot: str | None


class GraphEngine(Generic[StateT]):
    """Runs one :class:`GraphDefinition`, optionally persisting sessions through a :class:`Checkpointer`."""

    def __init__(
        self,
        graph: GraphDefinition[StateT],
        checkpointer: Checkpointer | None = None,
        *,
        max_steps: int | None = None,
        durability: Durability = "sync",
    ):
        if durability not in ("sync", "async", "exit"):
            raise GraphSetupError(f"unknown durability {durability!r}", param="durability")
        self.graph = graph
        self.codec: StateCodec[StateT] = graph.codec
        self.checkpointer = checkpointer
        self.max_steps = max_steps if max_steps is not None else graph.max_steps
        self.durability: Durability = durability
        #: session id -> (the last record this engine stored, the state at it): a resume whose
        #: checkpointer hands back that very record object (a cache hit) skips decoding and
        #: folding. States are never changed once produced, so sharing them is safe.
        self._states: OrderedDict[str, tuple[VersionRecord, StateT]] = OrderedDict()

    # ------------------------------------------------------------------ public API

    async def run(
        self,
        initial_state: Mapping[str, object] | StateT | None = None,
        *,
        session_id: str | None = None,
        on_commit: OnCommit[StateT] | None = None,
        deps: object = None,
    ) -> GraphResult[StateT]:
        """Start a new run at the entry node (a new session when a checkpointer is set).

        ``initial_state`` is a mapping, or with a state schema also an instance of it.
        ``on_commit`` (also on :meth:`resume`, an :class:`OnCommit`) is called with the result
        about to be stored when the run pauses or completes; the writes it returns are committed
        in the same transaction as the session (so an application's record of the turn and the
        graph's pause land together or not at all). With ``durability="exit"`` a new session is
        only stored then. ``deps`` (also on :meth:`resume`) is handed to every node that takes a
        second parameter, for this call only (see :data:`~graph.definition.NodeFn`).
        """
        sid = session_id or generate_session_id()
        state = self.codec.initial(initial_state)
        entry = [self.graph.entry]
        writer = None
        if self.checkpointer is not None:
            writer = await self._open_session(
                self.checkpointer, sid, state, Frontier(tuple(entry)), on_commit
            )
        cursor = _Cursor(
            session_id=sid, state=state, version=0, next_nodes=entry, joins={}, writer=writer, deps=deps
        )
        return await self._drive(cursor, answer=None)

    async def resume(
        self,
        session_id: str,
        new_input: Mapping[str, object] | StateUpdate | None = None,
        *,
        on_commit: OnCommit[StateT] | None = None,
        deps: object = None,
    ) -> GraphResult[StateT]:
        """Load a session, fold ``new_input`` (through the reducers) and continue where it stopped.

        ``new_input`` is a mapping of state keys, or a :class:`~graph.update.StateUpdate`.

        A session waiting on an interrupt gets ``new_input`` as that interrupt's delta and follows
        its edges (a router after the interrupt can tell an answer from a fresh request). A
        forked / interrupted-by-crash session just continues its stored frontier.
        """
        ck = self._require_checkpointer("resume")
        if isinstance(new_input, StateUpdate):
            new_input = new_input.delta()
        session, records, row_version = await self._load(ck, session_id)
        _check_resumable(session)
        cursor = _Cursor(
            session_id=session_id,
            state=self._current_state(session_id, records),
            version=session.version,
            next_nodes=list(session.frontier.next),
            joins={k: set(v) for k, v in session.frontier.joins.items()},
            writer=_Writer(ck, self.durability, on_commit=on_commit, stored=self._remember),
            deps=deps,
            row_version=row_version,
            written=session.version,
            created_at=session.created_at,
        )
        waiting = session.status == RunStatus.WAITING_INPUT
        if not waiting and new_input:
            await self._fold_input(ck, cursor, new_input)
        return await self._drive(cursor, answer=dict(new_input or {}) if waiting else None)

    async def get_session(self, session_id: str) -> SessionState[StateT]:
        """The session row and its current state."""
        session, records, _ = await self._load(self._require_checkpointer("get_session"), session_id)
        return SessionState(session, self._current_state(session_id, records))

    async def history(self, session_id: str) -> list[VersionInfo]:
        """Every version of the session: number, node, timestamp, delta size."""
        versions = await self._require_checkpointer("history").history(session_id)
        if not versions:
            raise SessionNotFoundError(f"no graph session {session_id!r}", param="session_id")
        return versions

    async def get_version(self, session_id: str, version: int) -> StateT:
        """The full state as it was right after ``version`` was folded."""
        records = await self._require_checkpointer("get_version").replay(session_id, version)
        _check_version(session_id, version, records)
        return self._fold(records)

    async def fork(self, session_id: str, version: int, new_session_id: str | None = None) -> SessionRecord:
        """Time travel: a new session whose history is ``session_id``'s up to ``version``.

        The fork continues from that version's frontier: ``waiting_input`` if it stood before an
        interrupt (answer it with :meth:`resume`), ``pending`` otherwise (``resume`` runs it).
        Versions inside a parallel step are not resume points; fork from the step's last version.
        """
        ck = self._require_checkpointer("fork")
        records = await ck.records(session_id, version)
        _check_version(session_id, version, records)
        last = records[-1]
        if last.frontier is None:
            raise GraphRuntimeError(
                f"version {version} of {session_id!r} is inside a parallel step; "
                "fork from the step's last version",
                param="version",
            )
        start = max(i for i, r in enumerate(records) if r.snapshot is not None)
        interrupt = self._pending_interrupt(last.frontier.next, self._fold(records[start:]))
        if interrupt is not None:
            status = RunStatus.WAITING_INPUT
        elif last.frontier.next:
            status = RunStatus.PENDING
        else:
            status = RunStatus.COMPLETED
        now = utcnow()
        session = SessionRecord(
            new_session_id or generate_session_id(),
            self.graph.name,
            status,
            version,
            last.frontier,
            last.node,
            None if interrupt is None else self._interrupt_record(interrupt),
            now,
            now,
        )
        await ck.save(session, records, create=True)
        return session

    async def delete(self, session_id: str) -> bool:
        self._states.pop(session_id, None)
        return await self._require_checkpointer("delete").delete(session_id)

    # ------------------------------------------------------------------ starting a call

    async def _open_session(
        self,
        ck: Checkpointer,
        sid: str,
        state: StateT,
        frontier: Frontier,
        on_commit: OnCommit[StateT] | None,
    ) -> _Writer:
        """Store version 0, or keep it for the final write when ``durability="exit"``."""
        text = self.codec.encode_state(state, what="initial state")
        now = utcnow()
        record = VersionRecord(0, START, text, text, frontier, now)
        deferred = self.durability == "exit"
        writer = _Writer(ck, self.durability, on_commit=on_commit, create=deferred, stored=self._remember)
        if deferred:
            writer.backlog.append(record)
        else:
            session = SessionRecord(
                sid, self.graph.name, RunStatus.EXECUTING, 0, frontier, None, None, now, now
            )
            await ck.save(session, [record], create=True)
        return writer

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

    async def _fold_input(
        self, ck: Checkpointer, cursor: _Cursor[StateT], new_input: Mapping[str, object]
    ) -> None:
        """Input for a session not waiting on a question: its own version, before the frontier runs
        (with ``durability="exit"``, part of the call's one version)."""
        if cursor.writer is not None and cursor.writer.mode == "exit":
            self._fold_into_call(cursor, INPUT, new_input, what="resume input")
            return
        text, delta = self.codec.encode_delta(new_input, what="resume input")
        cursor.state = self.codec.fold(cursor.state, delta, what="resume input", plain=True)
        cursor.version += 1
        record = VersionRecord(
            cursor.version,
            INPUT,
            text,
            self._snapshot(cursor.version, cursor.state),
            cursor.frontier(),
            utcnow(),
        )
        row = self._row(cursor, RunStatus.EXECUTING, current=INPUT)
        await ck.save(row, [record], expected_version=cursor.row_version)
        cursor.row_version = cursor.written = cursor.version

    # ------------------------------------------------------------------ the loop

    async def _drive(self, cursor: _Cursor[StateT], answer: dict[str, Any] | None) -> GraphResult[StateT]:
        """Run steps until the frontier is empty or reaches an interrupt; ``answer`` feeds the first step."""
        if answer is None and self._reaches_interrupt(cursor.next_nodes):
            # The entry is an interrupt, or a resumed fork stands before one.
            return await self._pause(cursor, [])
        while cursor.next_nodes:
            step = await self._begin_step(cursor)
            deltas = await self._execute(cursor, step, answer)
            answer = None
            pending = await self._fold_and_route(cursor, step, deltas)
            result = await self._end_step(cursor, step, pending)
            if result is not None:
                return result
        return cursor.result(RunStatus.COMPLETED)

    async def _begin_step(self, cursor: _Cursor[StateT]) -> list[str]:
        """The nodes of the next step, once the step limit allows it."""
        cursor.step_start = len(cursor.folded)
        if cursor.steps >= self.max_steps:
            error = GraphRecursionError(self.max_steps, cursor.path[-8:])
            await self._fail(cursor, cursor.written, cursor.next_nodes, [])
            raise error
        cursor.steps += 1
        return cursor.next_nodes

    async def _execute(
        self, cursor: _Cursor[StateT], step: list[str], answer: dict[str, Any] | None
    ) -> list[Any]:
        """Every node's delta (a node's own exception propagates after the session is marked failed)."""
        try:
            return await self._run_step(step, self.codec.view(cursor.state), answer, cursor.deps)
        except BaseException:
            await self._fail(cursor, cursor.written, step, [])
            raise

    async def _fold_and_route(
        self, cursor: _Cursor[StateT], step: list[str], deltas: list[Any]
    ) -> list[_Pending]:
        """Fold the step's deltas in frontier order, then ask the edges for the next frontier."""
        pending: list[_Pending] = []
        #: node -> the next node its typed update named (``goes_to=``)
        named: dict[str, str] = {}
        try:
            for node, delta in zip(step, deltas, strict=True):
                if isinstance(delta, StateUpdate):
                    if delta.next_node is not None:
                        named[node] = delta.next_node
                    delta = delta.delta()
                folded = self._fold_delta(cursor, node, delta)
                if folded is not None:
                    pending.append(folded)
            view = self.codec.view(cursor.state)
            next_nodes: list[str] = []
            for node in step:
                await self._route(node, view, next_nodes, cursor.joins, named.get(node))
            cursor.next_nodes = next_nodes
        except BaseException:
            await self._fail(cursor, cursor.written + len(pending), step, self._records(pending, None))
            raise
        return pending

    def _fold_delta(self, cursor: _Cursor[StateT], node: str, delta: Any) -> _Pending | None:
        """Fold one node's delta; with a checkpointer also encode it (and a snapshot when due)."""
        what = f"delta of node {node!r}"
        codec = self.codec
        if cursor.writer is not None and cursor.writer.mode == "exit":
            self._fold_into_call(cursor, node, delta, what=what)
            return None
        if cursor.writer is None:
            cursor.state = codec.fold(cursor.state, delta, what=what)
        else:
            text, delta = codec.encode_delta(delta or {}, what=what)
            cursor.state = codec.fold(cursor.state, delta, what=what, plain=True)
        cursor.version += 1
        cursor.path.append(node)
        if cursor.writer is None:
            return None
        return _Pending(cursor.version, node, text, self._snapshot(cursor.version, cursor.state))

    async def _end_step(
        self, cursor: _Cursor[StateT], step: list[str], pending: list[_Pending]
    ) -> GraphResult[StateT] | None:
        """Pause, complete, or store the step and go on (``None``)."""
        if self._reaches_interrupt(cursor.next_nodes):
            return await self._pause(cursor, self._records(pending, cursor.frontier()))
        writer = cursor.writer
        if writer is None:
            return None
        if not cursor.next_nodes:
            records = await self._ending_records(cursor, pending, step)
            result = cursor.result(RunStatus.COMPLETED)
            row = self._row(cursor, RunStatus.COMPLETED, current=step[-1])
            await writer.final(row, records, cursor.row_version, result)
            return result
        if writer.mode == "exit":
            return None  # the call's deltas wait in the cursor for its one version
        row = self._row(cursor, RunStatus.EXECUTING, current=step[-1])
        await writer.step(row, self._records(pending, cursor.frontier()))
        cursor.written = cursor.version
        return None

    async def _run_step(
        self, step: Sequence[str], view: Any, answer: dict[str, Any] | None, deps: object
    ) -> list[Any]:
        node_fns = self.graph.node_fns
        if len(step) == 1:
            node = step[0]
            if node in self.graph.interrupt_names:
                return [answer]
            fn, is_async, with_deps = node_fns[node]
            out = fn(view, deps) if with_deps else fn(view)
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
                fn, is_async, with_deps = node_fns[node]
                called = fn(view, deps) if with_deps else fn(view)
                if is_async:
                    tasks.append((i, asyncio.ensure_future(called)))
                else:
                    out = called
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
        if out is None or type(out) is dict or isinstance(out, Mapping | StateUpdate):
            return out
        raise GraphRuntimeError(
            f"node {node!r} returned {type(out).__name__}; "
            "a node returns a dict delta, a StateUpdate or None",
            param=f"nodes.{node}",
        )

    async def _route(
        self, node: str, view: Any, out: list[str], joins: dict[str, set[str]], named: str | None
    ) -> None:
        """Add ``node``'s next nodes to ``out``: its edge, its router's choice, or the node its
        typed update ``named``; a join's target once its last source arrived."""
        graph = self.graph
        targets = graph.edges.get(node)
        if targets is None and node in graph.routers:
            targets = await self._ask_router(node, view)
        elif targets is None and node in graph.conditional_edges:
            targets = (_named_target(node, graph.conditional_edges[node], named),)
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

    async def _ask_router(self, node: str, view: Any) -> tuple[str, ...]:
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

    # ------------------------------------------------------------------ ending a call

    async def _pause(self, cursor: _Cursor[StateT], records: list[VersionRecord]) -> GraphResult[StateT]:
        interrupt = self._pending_interrupt(cursor.next_nodes, cursor.state)
        assert interrupt is not None
        if cursor.writer is not None and cursor.writer.mode == "exit":
            records = await self._ending_records(cursor, [], list(cursor.next_nodes))
        result = cursor.result(RunStatus.WAITING_INPUT, interrupt)
        if cursor.writer is not None:
            row = self._row(
                cursor,
                RunStatus.WAITING_INPUT,
                current=cursor.current_node,
                interrupt=self._interrupt_record(interrupt),
            )
            await cursor.writer.final(row, records, cursor.row_version, result)
        return result

    async def _fail(
        self, cursor: _Cursor[StateT], version: int, next_nodes: Sequence[str], records: list[VersionRecord]
    ) -> None:
        if cursor.writer is None:
            return
        if cursor.writer.mode == "exit":
            # what the steps before the failing one folded, resumable (forkable) at that step
            try:
                records = self._call_records(cursor, cursor.folded[: cursor.step_start], next_nodes, False)
            except Exception:
                records = []
            version = cursor.written + len(records)
        row = self._row(
            cursor,
            RunStatus.FAILED,
            version=version,
            frontier=cursor.frontier(next_nodes),
            current=cursor.current_node,
        )
        # Never hide the original error behind a storage one.
        with contextlib.suppress(Exception):
            await cursor.writer.final(row, records, cursor.row_version)

    def _row(
        self,
        cursor: _Cursor[StateT],
        status: RunStatus,
        *,
        current: str | None,
        version: int | None = None,
        frontier: Frontier | None = None,
        interrupt: Mapping[str, Any] | None = None,
    ) -> SessionRecord:
        """The session row for ``cursor`` (its version and frontier unless told otherwise)."""
        now = utcnow()
        return SessionRecord(
            cursor.session_id,
            self.graph.name,
            status,
            cursor.version if version is None else version,
            cursor.frontier() if frontier is None else frontier,
            current,
            interrupt,
            cursor.created_at or now,
            now,
        )

    @staticmethod
    def _records(pending: list[_Pending], front: Frontier | None) -> list[VersionRecord]:
        """Version records of a step; only the last one carries the frontier (a resume point)."""
        now = utcnow()
        last = len(pending) - 1
        return [
            VersionRecord(p.version, p.node, p.delta, p.snapshot, front if i == last else None, now)
            for i, p in enumerate(pending)
        ]

    def _fold_into_call(self, cursor: _Cursor[StateT], node: str, delta: Any, *, what: str) -> None:
        """``durability="exit"``: fold a delta now, keep it for the call's one version."""
        plain = self.codec.plain_delta(delta or {}, what=what)
        cursor.state = self.codec.fold(cursor.state, plain, what=what, plain=True)
        if not cursor.folded:
            cursor.version = cursor.written + 1
        cursor.folded.append((node, plain))
        cursor.path.append(node)

    def _call_records(
        self,
        cursor: _Cursor[StateT],
        folded: Sequence[tuple[str, Mapping[str, Any]]],
        next_nodes: Sequence[str],
        snapshot: bool,
    ) -> list[VersionRecord]:
        """The one version of a call (none if it folded nothing): its deltas squashed and encoded
        once, a snapshot of the state when due, the frontier it stops at."""
        if not folded:
            return []
        nodes = [node for node, _ in folded]
        label = node_label(nodes)
        deltas = squash(self.codec.reducers, [delta for _, delta in folded])
        text = self.codec.encode_deltas(deltas, what=f"deltas of {label!r}")
        version = cursor.written + 1
        state_text = self._snapshot(version, cursor.state) if snapshot else None
        frontier = cursor.frontier(next_nodes)
        return [VersionRecord(version, label, text, state_text, frontier, utcnow())]

    async def _ending_records(
        self, cursor: _Cursor[StateT], pending: list[_Pending], next_nodes: list[str]
    ) -> list[VersionRecord]:
        """The records a pause or the end stores; a call whose deltas cannot be stored fails."""
        if cursor.writer is None or cursor.writer.mode != "exit":
            return self._records(pending, cursor.frontier())
        try:
            return self._call_records(cursor, cursor.folded, cursor.next_nodes, True)
        except BaseException:
            cursor.step_start = len(cursor.folded)
            await self._fail(cursor, cursor.written, next_nodes, [])
            raise

    # ------------------------------------------------------------------ state helpers

    def _reaches_interrupt(self, next_nodes: Sequence[str]) -> bool:
        interrupts = self.graph.interrupt_names
        return any(n in interrupts for n in next_nodes)

    def _pending_interrupt(self, next_nodes: Sequence[str], state: StateT) -> Interrupt | None:
        for name in next_nodes:
            spec = self.graph.nodes.get(name)
            if spec is not None and spec.kind == "interrupt":
                payload = self.codec.read(state, spec.payload_key) if spec.payload_key else None
                return Interrupt(name, spec.question, payload)
        return None

    def _interrupt_record(self, interrupt: Interrupt) -> dict[str, Any]:
        """The interrupt as stored on the session row (its payload as JSON data)."""
        payload = self.codec.jsonable(interrupt.payload, what=f"payload of interrupt {interrupt.name!r}")
        return {"name": interrupt.name, "question": interrupt.question, "payload": payload}

    def _snapshot(self, version: int, state: StateT) -> str | None:
        ck = self.checkpointer
        if ck is None or version % ck.snapshot_every != 0:
            return None
        return self.codec.encode_state(state, what="state")

    def _remember(self, session_id: str, last: VersionRecord, state: StateT) -> None:
        self._states[session_id] = (last, state)
        self._states.move_to_end(session_id)
        while len(self._states) > _STATES_KEPT:
            self._states.popitem(last=False)

    def _current_state(self, session_id: str, records: Sequence[VersionRecord]) -> StateT:
        kept = self._states.get(session_id)
        if kept is not None and records and kept[0] is records[-1]:
            return kept[1]
        return self._fold(records)

    def _fold(self, records: Sequence[VersionRecord]) -> StateT:
        """The state at the last record: stored JSON folded as plain data, built into a state once."""
        if not records or records[0].snapshot is None:
            raise GraphRuntimeError("stored session has no snapshot to start from; the store is corrupt")
        return self.codec.load(records[0].snapshot, [r.delta for r in records[1:]])

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


def _named_target(node: str, edge: ConditionalEdge, named: str | None) -> str:
    """The next node a typed update named, one of those its node's return type declares."""
    if named is None or named not in edge.targets:
        raise GraphRuntimeError(
            f"node {node!r} returned no update naming one of its next nodes "
            f"({', '.join(edge.path_map)} lead to {', '.join(edge.targets)}); it named {named!r}",
            param=f"conditional_edges.{node}",
            details={"named": named, "targets": list(edge.targets)},
        )
    return named


def _check_resumable(session: SessionRecord) -> None:
    try:
        transition(session.status, RunStatus.EXECUTING)
    except InvalidTransition as exc:
        raise GraphRuntimeError(
            f"session {session.session_id!r} is {session.status.value} and cannot be resumed; "
            "fork it from a version to continue",
            param="session_id",
        ) from exc


def _check_version(session_id: str, version: int, records: Sequence[VersionRecord]) -> None:
    if not records or records[-1].version != version:
        raise SessionNotFoundError(
            f"session {session_id!r} has no version {version}",
            param="version",
            details={"version": version},
        )


# ---------------------------------------------------------------------- module-level API


async def run(
    graph: GraphDefinition[StateT],
    initial_state: Mapping[str, object] | StateT | None = None,
    *,
    session_id: str | None = None,
    checkpointer: Checkpointer | None = None,
    max_steps: int | None = None,
    durability: Durability = "sync",
) -> GraphResult[StateT]:
    """``GraphEngine(graph, checkpointer).run(initial_state)`` in one call."""
    return await GraphEngine(graph, checkpointer, max_steps=max_steps, durability=durability).run(
        initial_state, session_id=session_id
    )


async def resume(
    graph: GraphDefinition[StateT],
    session_id: str,
    new_input: Mapping[str, object] | StateUpdate | None = None,
    *,
    checkpointer: Checkpointer,
    max_steps: int | None = None,
    durability: Durability = "sync",
) -> GraphResult[StateT]:
    """``GraphEngine(graph, checkpointer).resume(session_id, new_input)`` in one call."""
    return await GraphEngine(graph, checkpointer, max_steps=max_steps, durability=durability).resume(
        session_id, new_input
    )
