"""A small explicit graph engine: typed state, pure nodes, explicit edges, interrupts.

Public API::

    GraphBuilder(name, *, state_schema=None, reducers={"messages": append}, max_steps=100)
        .add_node(name, fn) / .add_interrupt(name, question=..., payload_key=...)
        # fn(state) or fn(state, deps); a return type of updates with goes_to= gives its edges
        .add_edge(a, b) / .add_edge(a, [b, c]) / .add_edge([b, c], join)
        .add_conditional_edges(a, router, {label: node})
        .set_entry(name).compile() -> GraphDefinition   # .to_mermaid()
    GraphEngine(graph, checkpointer=None, max_steps=None, durability="sync")
        .run(initial_state, session_id=None, on_commit=None, deps=None)
        .resume(session_id, new_input, on_commit=None, deps=None)
        .get_session / .history / .get_version / .fork / .delete
    run(graph, initial_state, ...) / resume(graph, session_id, new_input, checkpointer=...)
    InMemoryCheckpointer() / SqlCheckpointer.from_url(url) / SqliteCheckpointer(engine)
    checkpointer_for(engine)  # SqliteCheckpointer on a SQLite file, else SqlCheckpointer; GRAPH_TABLES
    CachingCheckpointer(inner)  # a resume reads one small row instead of the versions
    class Said(StateUpdate, state=Model): ...  # a node's typed update (graph.update)
    class Done(Said, goes_to="next_node"): ...  # ... that names the node the run goes to

Without ``state_schema`` the state is a dict and nodes get a read-only ``StateView``; with one
(a frozen pydantic model) nodes get the model instance, return a typed ``StateUpdate`` (or a
mapping of its fields), and ``GraphResult.state`` / ``SessionState.state`` / ``get_version`` are
instances of it.
"""

from graph.builder import GraphBuilder
from graph.checkpoint import (
    GRAPH_TABLES,
    CachingCheckpointer,
    Checkpointer,
    ExtraWrite,
    Frontier,
    InMemoryCheckpointer,
    SessionHead,
    SessionRecord,
    SqlCheckpointer,
    VersionInfo,
    VersionRecord,
)
from graph.codec import DictCodec, SchemaCodec, StateCodec
from graph.definition import ConditionalEdge, GraphDefinition, Join, NodeSpec
from graph.engine import (
    GraphEngine,
    GraphResult,
    Interrupt,
    OnCommit,
    SessionState,
    generate_session_id,
    resume,
    run,
)
from graph.errors import (
    GraphRecursionError,
    GraphRuntimeError,
    GraphSetupError,
    SessionConflictError,
    SessionNotFoundError,
    StateNotSerializableError,
)
from graph.sqlite_checkpoint import SqliteCheckpointer, checkpointer_for
from graph.state import END, INPUT, START, StateView, add, append, merge, merge_delta, replace
from graph.update import StateUpdate

__all__ = [
    "END",
    "GRAPH_TABLES",
    "INPUT",
    "START",
    "CachingCheckpointer",
    "Checkpointer",
    "ConditionalEdge",
    "DictCodec",
    "ExtraWrite",
    "Frontier",
    "GraphBuilder",
    "GraphDefinition",
    "GraphEngine",
    "GraphRecursionError",
    "GraphResult",
    "GraphRuntimeError",
    "GraphSetupError",
    "InMemoryCheckpointer",
    "Interrupt",
    "Join",
    "NodeSpec",
    "OnCommit",
    "SchemaCodec",
    "SessionConflictError",
    "SessionHead",
    "SessionNotFoundError",
    "SessionRecord",
    "SessionState",
    "SqlCheckpointer",
    "SqliteCheckpointer",
    "StateCodec",
    "StateNotSerializableError",
    "StateUpdate",
    "StateView",
    "VersionInfo",
    "VersionRecord",
    "add",
    "append",
    "checkpointer_for",
    "generate_session_id",
    "merge",
    "merge_delta",
    "replace",
    "resume",
    "run",
]
