"""The durable-execution engine of the gateway: DBOS Transact, beside the gateway's own database.

DBOS keeps its workflows and their checkpointed steps where :func:`durable_database_url` says:
``DURABLE_DATABASE_URL``, else the gateway's PostgreSQL database (its tables in the ``dbos``
schema), or on SQLite a file of its own beside the gateway's (WAL), or the gateway's own file
while that still holds unfinished workflows from before. One engine per process (DBOS is a process-wide
singleton), launched by :func:`launch_engine` from the event loop that serves the gateway, so the
async workflows run on that loop beside the requests.

- Workflows are plain ``@DBOS.workflow(name=...)`` functions registered at import time (before
  the launch, so a resumed one is found); they reach the gateway's services through
  :meth:`DurableEngine.get` (what the app :meth:`provided <DurableEngine.provide>`).
- Each process is one executor: its id (``DURABLE_EXECUTOR_ID``, or a new one per process) and
  the application version (``DURABLE_APPLICATION_VERSION``) are recorded with every workflow it
  runs; :mod:`gateway.durable.liveness` resumes a dead executor's unfinished workflows.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path, PurePath
from typing import Any, ParamSpec, TypeVar, cast

from dbos import DBOS, DBOSConfig, Queue, SetWorkflowID, WorkflowHandleAsync
from sqlalchemy import Connection, column, func, inspect, make_url, select, table
from sqlalchemy.ext.asyncio import AsyncEngine

from gateway.durable.liveness import Liveness
from gateway.durable.settings import DurableSettings
from shared.db import create_sqlite_engine, is_sqlite_file

log = logging.getLogger(__name__)

#: The DBOS application name: every gateway of one deployment shares it (and its queues).
APP_NAME = "agent-orchestrator"

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def _quiet_stop(record: logging.LogRecord) -> bool:
    """Leave out DBOS's line for each workflow a stopping gateway leaves to another: expected, and
    it prints the step's arguments (a person's words among them)."""
    return not record.getMessage().startswith("Asyncio task cancelled for workflow or step")


class EngineUnavailable(RuntimeError):
    """No durable engine is launched in this process (or another one already is)."""


def system_database_url(database_url: str) -> str:
    """The gateway's ``DATABASE_URL`` as DBOS connects to it (its own synchronous drivers)."""
    url = make_url(database_url)
    backend = url.get_backend_name()
    if backend == "sqlite":
        if not is_sqlite_file(database_url):
            raise ValueError(
                "the durable engine needs a SQLite file or PostgreSQL, not an in-memory database"
            )
        return url.set(drivername="sqlite").render_as_string(hide_password=False)
    if backend == "postgresql":
        return url.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise ValueError(f"the durable engine runs on SQLite or PostgreSQL, not {backend}")


#: DBOS's workflow states that are not final: such a workflow is resumed, dequeued or started later
UNFINISHED = ("PENDING", "ENQUEUED", "DELAYED")


def own_file(database_url: str) -> str:
    """The SQLite file beside the gateway's that the engine keeps its workflows in by default.

    >>> own_file("sqlite+aiosqlite:///var/gateway.sqlite3")
    'sqlite:///var/gateway-dbos.sqlite3'
    """
    url = make_url(database_url)
    path = PurePath(url.database or "")
    return system_database_url(
        url.set(database=str(path.with_name(f"{path.stem}-dbos{path.suffix}"))).render_as_string(
            hide_password=False
        )
    )


def _unfinished_workflows(conn: Connection) -> int:
    """The engine's unfinished workflows stored in the database of ``conn`` (0 without its tables)."""
    if not inspect(conn).has_table("workflow_status"):
        return 0
    status = table("workflow_status", column("status"))
    query = select(func.count()).select_from(status).where(status.c.status.in_(UNFINISHED))
    return int(conn.execute(query).scalar_one())


async def durable_database_url(engine: AsyncEngine, database_url: str, settings: DurableSettings) -> str:
    """Where the engine keeps its workflows (DBOS's system database), as DBOS connects to it.

    ``DURABLE_DATABASE_URL`` if set; else PostgreSQL's is the gateway's database (its own schema,
    row locks: the engine's writes wait for no turn's). A SQLite file has one writer at a time,
    and the engine's polls write (once a second and more, in ``BEGIN IMMEDIATE``), so a turn's
    commit waited for them: the engine gets a file of its own (:func:`own_file`). A gateway file
    that holds unfinished workflows of the engine (a deployment from before) keeps them there,
    so that they resume, until a start finds none left (then the engine moves to its own file,
    for good: once that file exists it is the one).
    """
    if settings.database_url:
        return system_database_url(settings.database_url)
    if not is_sqlite_file(database_url):
        return system_database_url(database_url)
    own = own_file(database_url)
    own_path = Path(make_url(own).database or "")
    if await asyncio.to_thread(own_path.exists):
        return own
    async with engine.connect() as conn:
        unfinished = await conn.run_sync(_unfinished_workflows)
    if unfinished:
        log.warning(
            "the durable engine stays in the gateway's database file while it holds %d unfinished "
            "workflow(s) from before; it moves to %s at a start that finds none left "
            "(docs/operations.md, Background runs)",
            unfinished,
            own_path,
        )
        return system_database_url(database_url)
    await asyncio.to_thread(_start_own_file, own)
    return own


def _start_own_file(url: str) -> None:
    """Create the engine's own file in WAL mode (a setting the file keeps): DBOS's readers then
    run beside its writer, as they did in the gateway's file."""
    wal = create_sqlite_engine(url)
    try:
        with wal.connect():
            pass
    finally:
        wal.dispose()


def new_executor_id() -> str:
    """An executor id no other process has: the host's name (for the operator) and a random part."""
    return f"{socket.gethostname()[:40]}-{uuid.uuid4().hex[:12]}"


class DurableEngine:
    """The launched engine of this process: who it is, and what its workflows may use."""

    def __init__(self, executor_id: str, application_version: str, liveness: Liveness):
        self.executor_id = executor_id
        self.application_version = application_version
        self.liveness = liveness
        self._provided: dict[type[Any], object] = {}
        self._ready = asyncio.Event()

    def provide(self, kind: type[T], value: T) -> None:
        """Make ``value`` what :meth:`get` answers for ``kind`` (a service a workflow needs)."""
        self._provided[kind] = value

    def ready(self) -> None:
        """Everything the workflows need is provided: workflows started or resumed since the
        launch (the engine resumes its own at once) go on, and dead gateways' are taken over."""
        self._ready.set()
        self.liveness.recover_now()

    async def get(self, kind: type[T]) -> T:
        """What the app provided for ``kind``, once the app is :meth:`ready`."""
        await self._ready.wait()
        try:
            return cast(T, self._provided[kind])
        except KeyError:
            raise EngineUnavailable(f"nothing provides {kind.__name__} to the durable workflows") from None

    async def queue(
        self, name: str, *, worker_concurrency: int | None = None, polling_interval_s: float = 1.0
    ) -> Queue:
        """The queue ``name``, registered (or updated: every gateway registers it alike) in the
        database; DBOS 3.4 declares queues after the launch and stores their limits."""
        return await DBOS.register_queue_async(
            name,
            worker_concurrency=worker_concurrency,
            polling_interval_sec=polling_interval_s,
            on_conflict="always_update",
        )

    async def start(
        self,
        workflow: Callable[P, Coroutine[Any, Any, R]],
        workflow_id: str,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> WorkflowHandleAsync[R]:
        """Start ``workflow`` now under ``workflow_id`` (a second start under the same id is the
        first one's handle: ids make starts idempotent)."""
        with SetWorkflowID(workflow_id):
            return await DBOS.start_workflow_async(workflow, *args, **kwargs)

    async def enqueue(
        self,
        queue: Queue,
        workflow: Callable[P, Coroutine[Any, Any, R]],
        workflow_id: str,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> WorkflowHandleAsync[R]:
        """Put ``workflow`` on ``queue`` under ``workflow_id``; a gateway with a free worker runs it."""
        with SetWorkflowID(workflow_id):
            return await queue.enqueue_async(workflow, *args, **kwargs)


_current: DurableEngine | None = None


def current_engine() -> DurableEngine:
    """The engine launched in this process (what a workflow uses to reach the gateway)."""
    if _current is None:
        raise EngineUnavailable("the durable engine is not launched in this process")
    return _current


@asynccontextmanager
async def launch_engine(
    engine: AsyncEngine, database_url: str, settings: DurableSettings | None = None
) -> AsyncIterator[DurableEngine]:
    """Launch DBOS beside ``database_url`` (the gateway's, migrated: ``engine`` reaches it; where
    DBOS keeps its workflows: :func:`durable_database_url`) for the block; this process's liveness
    lease (in the gateway's database) is taken first and kept while the block lasts."""
    global _current
    if _current is not None:
        raise EngineUnavailable("a durable engine is already launched in this process")
    settings = settings or DurableSettings()
    executor_id = settings.executor_id or new_executor_id()
    liveness = Liveness(
        engine,
        executor_id,
        settings.application_version,
        lease_s=settings.liveness_lease_s,
        interval_s=settings.recovery_interval_s,
    )
    # the lease before the first workflow: a process that dies from here on is found dead
    await liveness.take()
    config: DBOSConfig = {
        "name": APP_NAME,
        "system_database_url": await durable_database_url(engine, database_url, settings),
        "executor_id": executor_id,
        "application_version": settings.application_version,
        "log_level": "WARNING",
        "run_migrations": True,
    }
    loop = asyncio.get_running_loop()
    engine_log = logging.getLogger("dbos")
    if not engine_log.handlers:
        # DBOS adds a console handler of its own only to a logger without one: with this, its
        # records go up to the gateway's handlers (JSON lines, secrets masked)
        engine_log.addHandler(logging.NullHandler())
        engine_log.addFilter(_quiet_stop)
    DBOS(config=config)
    try:
        # from the serving loop's thread: DBOS then runs async workflows on this loop
        DBOS.launch()
    except BaseException:
        DBOS.destroy()
        await liveness.give_up()
        raise
    durable = _current = DurableEngine(executor_id, settings.application_version, liveness)
    log.info("durable engine launched", extra={"executor_id": executor_id})
    try:
        liveness.start()
        yield durable
    finally:
        await liveness.stop()
        _current = None
        DBOS.destroy()
        # DBOS made its (now shut) thread pool this loop's default executor: give it a live one
        loop.set_default_executor(ThreadPoolExecutor())
        # the lease lapses now rather than at its term: what this process left unfinished is
        # resumed by another gateway (or the next start) without waiting
        await liveness.give_up()
