"""Graph engine benchmark: ``graph`` vs LangGraph, side by side in one run.

Run (from the repository root; LangGraph is a bench-only dependency, its columns are left
empty when it is not installed)::

    .venv/bin/pip install langgraph langgraph-checkpoint-sqlite   # once
    .venv/bin/python bench/graph_bench.py [--output PATH]         # writes bench/results/graph.md

Measures, with trivial sync nodes so that what is timed is the engine itself:

(a) per-node overhead on a 100-node chain, in process, no checkpointer;
(b) per-node overhead on a 50-wide fan-out/join (start -> 50 branches -> join), no checkpointer;
(c) the same two graphs with SQLite checkpointing on both sides (ours: ``SqlCheckpointer`` on
    ``sqlite+aiosqlite``; LangGraph: ``AsyncSqliteSaver``), one new session/thread per run;
(d) pause -> resume round trip on SQLite for our engine (interrupt -> node -> interrupt);
(e) bytes per stored version after 100 turns of a growing message history;
(f) the cost of the read-only state view vs a deep copy per node;
(g) the 100-node chain with a typed state (a frozen pydantic model) vs the dict state.

Medians over repeated runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import importlib.metadata
import importlib.util
import itertools
import json
import operator
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypedDict

from pydantic import BaseModel, ConfigDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph import (  # noqa: E402
    END,
    GraphBuilder,
    GraphDefinition,
    GraphEngine,
    SqlCheckpointer,
    StateView,
    append,
)

CHAIN = 100
WIDTH = 50
RESULTS = ROOT / "bench" / "results" / "graph.md"
HAS_LANGGRAPH = importlib.util.find_spec("langgraph") is not None
#: LangGraph thread ids: every run is a new thread, across graphs and modes sharing one saver.
_THREAD_IDS = itertools.count()


# --------------------------------------------------------------------------- our graphs


def _chain_node(i: int) -> Callable[[Any], dict[str, Any]]:
    def node(state: Any) -> dict[str, Any]:
        return {"count": state["count"] + 1}

    node.__qualname__ = f"chain_{i}"
    return node


def _branch_node(i: int) -> Callable[[Any], dict[str, Any]]:
    def node(state: Any) -> dict[str, Any]:
        return {"hits": [i]}

    node.__qualname__ = f"branch_{i}"
    return node


def noop_start(state: Any) -> dict[str, Any]:
    return {"count": 1}


def noop_join(state: Any) -> dict[str, Any]:
    return {"count": state["count"] + 1}


def ours_chain() -> GraphDefinition:
    b = GraphBuilder("chain", max_steps=CHAIN + 10)
    for i in range(CHAIN):
        b.add_node(f"n{i}", _chain_node(i))
        b.add_edge(f"n{i}", f"n{i + 1}" if i + 1 < CHAIN else END)
    return b.set_entry("n0").compile()


class ChainState(BaseModel):
    model_config = ConfigDict(frozen=True)
    count: int = 0


def _typed_chain_node(i: int) -> Callable[[ChainState], dict[str, Any]]:
    def node(state: ChainState) -> dict[str, Any]:
        return {"count": state.count + 1}

    node.__qualname__ = f"typed_chain_{i}"
    return node


def ours_typed_chain() -> GraphDefinition[ChainState]:
    b = GraphBuilder("typed-chain", state_schema=ChainState, max_steps=CHAIN + 10)
    for i in range(CHAIN):
        b.add_node(f"n{i}", _typed_chain_node(i))
        b.add_edge(f"n{i}", f"n{i + 1}" if i + 1 < CHAIN else END)
    return b.set_entry("n0").compile()


def ours_fanout() -> GraphDefinition:
    b = GraphBuilder("fanout", reducers={"hits": append})
    b.add_node("start", noop_start).add_node("join", noop_join).add_edge("join", END)
    branches = [f"b{i}" for i in range(WIDTH)]
    for i, name in enumerate(branches):
        b.add_node(name, _branch_node(i)).add_edge(name, "join")
    return b.add_edge("start", branches).set_entry("start").compile()


# --------------------------------------------------------------------------- LangGraph graphs


class LGState(TypedDict, total=False):
    count: int
    hits: Annotated[list[int], operator.add]


def lg_chain() -> Any:
    from langgraph.graph import END as LG_END
    from langgraph.graph import START, StateGraph

    g = StateGraph(LGState)
    for i in range(CHAIN):
        g.add_node(f"n{i}", _chain_node(i))
        g.add_edge(f"n{i}", f"n{i + 1}" if i + 1 < CHAIN else LG_END)
    g.add_edge(START, "n0")
    return g


def lg_fanout() -> Any:
    from langgraph.graph import END as LG_END
    from langgraph.graph import START, StateGraph

    g = StateGraph(LGState)
    g.add_node("start", noop_start)
    g.add_node("join", noop_join)
    g.add_edge(START, "start")
    g.add_edge("join", LG_END)
    for i in range(WIDTH):
        g.add_node(f"b{i}", _branch_node(i))
        g.add_edge("start", f"b{i}")
        g.add_edge(f"b{i}", "join")
    return g


# --------------------------------------------------------------------------- timing


async def amedian(fn: Callable[[], Awaitable[Any]], repeats: int, warmup: int = 2) -> float:
    for _ in range(warmup):
        await fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def smedian(fn: Callable[[], Any], repeats: int, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f} µs"


async def in_memory(rows: list[list[str]]) -> dict[str, float]:
    out: dict[str, float] = {}
    config = {"recursion_limit": CHAIN + 10}
    for label, ours_graph, lg_builder, n_nodes, init in (
        ("100-node chain", ours_chain(), lg_chain, CHAIN, {"count": 0}),
        (f"{WIDTH}-wide fan-out/join", ours_fanout(), lg_fanout, WIDTH + 2, {"count": 0, "hits": []}),
    ):
        engine = GraphEngine(ours_graph)
        result = await engine.run(init)
        ours = await amedian(partial(engine.run, init), repeats=200) / n_nodes
        if not HAS_LANGGRAPH:
            rows.append([label, "none", us(ours), "—", "—", "—"])
            continue
        lg_graph = lg_builder().compile()
        check = await lg_graph.ainvoke(init, config)
        assert result.state["count"] == check["count"], (result.state, check)
        lg_async = await amedian(partial(lg_graph.ainvoke, init, config), repeats=30) / n_nodes
        lg_sync = smedian(partial(lg_graph.invoke, init, config), repeats=30) / n_nodes
        best_lg = min(lg_async, lg_sync)
        out[label] = best_lg / ours
        rows.append([label, "none", us(ours), us(lg_async), us(lg_sync), f"{best_lg / ours:,.1f}×"])
    return out


async def typed_vs_dict() -> tuple[float, float]:
    """Per-node time of the 100-node chain, dict state vs typed state, interleaved."""
    dict_engine = GraphEngine(ours_chain())
    typed_engine = GraphEngine(ours_typed_chain())
    assert (await typed_engine.run(ChainState())).state.count == CHAIN
    dict_samples: list[float] = []
    typed_samples: list[float] = []
    for _ in range(5):
        dict_samples.append(await amedian(partial(dict_engine.run, {"count": 0}), repeats=40))
        typed_samples.append(await amedian(partial(typed_engine.run, ChainState()), repeats=40))
    return statistics.median(dict_samples) / CHAIN, statistics.median(typed_samples) / CHAIN


async def with_sqlite(rows: list[list[str]], work: Path, *, langgraph: bool) -> dict[str, float]:
    out: dict[str, float] = {}
    ck = SqlCheckpointer.from_url(f"sqlite+aiosqlite:///{work / 'ours.sqlite3'}")
    await ck.create_tables()
    try:
        async with contextlib.AsyncExitStack() as stack:
            saver = None
            if langgraph:
                from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

                saver = await stack.enter_async_context(
                    AsyncSqliteSaver.from_conn_string(str(work / "langgraph.sqlite3"))
                )
            for label, ours_graph, lg_builder, n_nodes, init in (
                ("100-node chain", ours_chain(), lg_chain, CHAIN, {"count": 0}),
                (f"{WIDTH}-wide fan-out/join", ours_fanout(), lg_fanout, WIDTH + 2, {"count": 0, "hits": []}),
            ):
                for mode in ("sync", "async"):
                    engine = GraphEngine(ours_graph, ck, durability=mode)

                    async def ours_run(e: GraphEngine = engine, i: dict[str, Any] = init) -> None:
                        await e.run(i)

                    ours = await amedian(ours_run, repeats=21, warmup=2) / n_nodes
                    if saver is None:
                        rows.append([label, f"SQLite, durability={mode}", us(ours), "—", "—", "—"])
                        continue
                    lg = await _langgraph_sqlite_run(lg_builder().compile(checkpointer=saver), init, mode)
                    lg /= n_nodes
                    out[f"{label} ({mode})"] = lg / ours
                    rows.append(
                        [label, f"SQLite, durability={mode}", us(ours), us(lg), "—", f"{lg / ours:,.1f}×"]
                    )
    finally:
        await ck.close()
    return out


async def _langgraph_sqlite_run(lg_graph: Any, init: dict[str, Any], mode: str) -> float:
    """Median seconds of one LangGraph run with its SQLite saver, one new thread per run."""

    async def lg_run() -> None:
        cfg = {"recursion_limit": CHAIN + 10, "configurable": {"thread_id": f"t{next(_THREAD_IDS)}"}}
        await lg_graph.ainvoke(init, cfg, durability=mode)

    return await amedian(lg_run, repeats=21, warmup=2)


def _reply(state: Any) -> dict[str, Any]:
    n = len(state["messages"])
    return {"messages": [{"role": "assistant", "content": f"answer {n}: " + "lorem ipsum " * 8}]}


def chat_graph() -> GraphDefinition:
    return (
        GraphBuilder("chat", reducers={"messages": append})
        .add_interrupt("wait", question="your turn")
        .add_node("reply", _reply)
        .add_edge("wait", "reply")
        .add_edge("reply", "wait")
        .set_entry("wait")
        .compile()
    )


async def pause_resume(work: Path) -> dict[str, Any]:
    db = work / "chat.sqlite3"
    ck = SqlCheckpointer.from_url(f"sqlite+aiosqlite:///{db}")
    await ck.create_tables()
    engine = GraphEngine(chat_graph(), ck)
    samples = []
    try:
        await engine.run({"messages": []}, session_id="chat")
        for turn in range(100):
            user = {"role": "user", "content": f"question {turn}: " + "dolor sit amet " * 6}
            t0 = time.perf_counter()
            await engine.resume("chat", {"messages": [user]})
            samples.append(time.perf_counter() - t0)
        history = await engine.history("chat")
        final = await engine.get_session("chat")
        full_state_bytes = len(json.dumps(final.state, separators=(",", ":")).encode())
        deltas = [v.delta_bytes for v in history[1:]]
        # all bytes written for the session: deltas + periodic snapshots + frontiers
        records = await ck.records("chat", history[-1].version)
        stored = sum(
            len(r.delta.encode())
            + len((r.snapshot or "").encode())
            + (len(r.frontier.to_json()) if r.frontier else 0)
            for r in records
        )
    finally:
        await ck.close()
    return {
        "resume_median": statistics.median(samples),
        "resume_p90": statistics.quantiles(samples, n=10)[-1],
        "versions": len(history),
        "delta_first10": statistics.mean(deltas[:10]),
        "delta_last10": statistics.mean(deltas[-10:]),
        "stored_per_version": stored / len(records),
        "full_state_bytes": full_state_bytes,
        "messages": len(final.state["messages"]),
    }


def view_vs_copy() -> tuple[float, float]:
    state: dict[str, Any] = {
        "messages": [{"role": "user", "content": "x" * 100} for _ in range(200)],
        "count": 3,
    }

    def with_view() -> None:
        view = StateView(state)
        view["messages"][-1]["content"]  # a typical read

    def with_copy() -> None:
        snapshot = copy.deepcopy(state)
        snapshot["messages"][-1]["content"]

    loops = 2000
    copies = 20

    def views() -> None:
        for _ in range(loops):
            with_view()

    def deep_copies() -> None:
        for _ in range(copies):
            with_copy()

    view_t = smedian(views, repeats=5) / loops
    copy_t = smedian(deep_copies, repeats=5) / copies
    return view_t, copy_t


async def main(output: Path) -> None:
    started = time.perf_counter()
    lg_version = importlib.metadata.version("langgraph") if HAS_LANGGRAPH else None
    try:
        lg_sqlite_version = importlib.metadata.version("langgraph-checkpoint-sqlite")
    except importlib.metadata.PackageNotFoundError:
        lg_sqlite_version = None
    rows: list[list[str]] = []
    mem = await in_memory(rows)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sql = await with_sqlite(rows, work, langgraph=lg_sqlite_version is not None)
        pr = await pause_resume(work)
    view_t, copy_t = view_vs_copy()
    dict_t, typed_t = await typed_vs_dict()
    elapsed = time.perf_counter() - started

    header = [
        "graph",
        "checkpointer",
        "ours / node",
        "LangGraph ainvoke / node",
        "LangGraph invoke / node",
        "ratio",
    ]
    table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    ratios = [*mem.values(), *sql.values()]
    worst = min(ratios, default=0.0)
    verdict = (
        f"Worst ratio measured: **{worst:,.1f}×** — {'meets' if worst >= 3 else 'MISSES'} the target."
        if ratios
        else "No ratio: LangGraph is not installed."
    )
    lines = [
        "# Graph engine benchmark",
        "",
        "Command: `.venv/bin/python bench/graph_bench.py` (needs `pip install langgraph "
        "langgraph-checkpoint-sqlite` in the venv; bench-only).",
        "",
        f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs. "
        f"LangGraph {lg_version or 'not installed'}, "
        f"langgraph-checkpoint-sqlite {lg_sqlite_version or 'not installed'}. "
        f"Total bench time {elapsed:.0f} s.",
        "",
        "## Per-node overhead (median wall time of a run ÷ nodes in the graph; trivial sync nodes)",
        "",
        *table,
        "",
        "Ratio = the faster LangGraph entry point ÷ ours (higher is better for us); target ≥ 3×. " + verdict,
        "In-memory medians: ours over 200 runs, LangGraph over 30; SQLite medians over 21 runs, "
        "one new session/thread per run, same `durability` on both sides: `sync` = every step is stored "
        "before the next starts (ours: one transaction per step with its version rows; the session row "
        "only on pause/complete/fail); `async` = LangGraph's default, writes overlap the run "
        "(ours: group commit). "
        "Ours stores through `SqlCheckpointer` on `sqlite+aiosqlite`; LangGraph's saver uses "
        "aiosqlite too. The machine is shared and its speed varies from day to day: compare the "
        "columns of one run, not runs of different days.",
        "",
        "## Pause → resume on SQLite (ours)",
        "",
        "Interrupt `wait` → node `reply` → interrupt `wait`; one `resume()` = load session + fold deltas "
        "since the last snapshot + merge input + run one node + one commit.",
        "",
        f"- median: **{pr['resume_median'] * 1e3:.2f} ms** (p90 {pr['resume_p90'] * 1e3:.2f} ms) "
        "over 100 turns "
        f"— target ≤ 10 ms: {'met' if pr['resume_median'] <= 0.010 else 'MISSED'}",
        "",
        "## Storage: bytes per version after 100 turns of a growing message history",
        "",
        f"- {pr['versions']} versions, {pr['messages']} messages, "
        f"full state {pr['full_state_bytes']:,} bytes of JSON",
        f"- delta bytes per version: first 10 versions {pr['delta_first10']:.0f} B, "
        f"last 10 versions {pr['delta_last10']:.0f} B (constant: each version stores one message)",
        f"- all bytes written per version incl. a full snapshot every 50 versions and frontiers: "
        f"{pr['stored_per_version']:,.0f} B (a full copy per version would average "
        f"~{pr['full_state_bytes'] / 2:,.0f} B)",
        "",
        "## Immutability cost: read-only view vs deep copy (200-message state)",
        "",
        f"- `StateView` (lazy, read-only at every depth) + one nested read: {us(view_t)} per node",
        f"- `copy.deepcopy` of the state + the same read: {us(copy_t)} per node "
        f"({copy_t / view_t:,.0f}× more) — which is why nodes get a view, not a copy",
        "",
        "## Typed state vs dict state (100-node chain, in memory, interleaved)",
        "",
        f"- dict state (`StateView` per node, `merge_delta`): {us(dict_t)} per node",
        f"- typed state (frozen pydantic model, `model_copy(update=...)`): {us(typed_t)} per node "
        f"({typed_t / dict_t:,.2f}× the dict state)",
        "",
    ]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the Markdown report")
    asyncio.run(main(parser.parse_args().output))
