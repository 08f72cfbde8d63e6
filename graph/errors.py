"""The graph engine's errors, split the way pydantic_graph splits them.

* :class:`GraphSetupError` — the *definition* is wrong (unknown node in an edge, unreachable
  node, missing entry, duplicate name, a reducer or payload key that is not a field of the
  state schema, ...). Raised by the builder / ``compile()`` before anything runs, so a bad graph
  never reaches production.
* :class:`GraphRuntimeError` — a *run* went wrong (a router returned an unknown label, a node
  returned something that is not a dict or a field its state schema lacks, the state is not
  JSON-serializable, the step limit was hit, the session is unknown or cannot be resumed).

Exceptions raised *by node functions themselves* are not wrapped: they propagate unchanged
(after the session is marked ``failed``), so a domain error keeps its own type and HTTP status.

>>> issubclass(GraphRecursionError, GraphRuntimeError)
True
>>> issubclass(GraphSetupError, GraphRuntimeError)
False
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.errors import ErrorDetails, PlatformError, SetupError


class GraphSetupError(SetupError):
    """The graph definition is invalid; found before any node runs."""

    code = "graph_setup_error"


class GraphRuntimeError(PlatformError):
    """A graph run failed for a reason owned by the engine (not by a node's own code)."""

    code = "graph_runtime_error"


class GraphRecursionError(GraphRuntimeError):
    """The run exceeded ``max_steps`` — almost always a cycle whose exit condition never holds."""

    code = "graph_recursion_limit"

    def __init__(self, limit: int, last_nodes: Sequence[str]):
        self.limit = limit
        self.last_nodes = list(last_nodes)
        super().__init__(
            f"graph exceeded max_steps={limit}; last nodes run: {' -> '.join(self.last_nodes)}. "
            "A cycle's exit condition probably never holds; fix the router or raise max_steps.",
            details={"limit": limit, "last_nodes": self.last_nodes},
        )


class StateNotSerializableError(GraphRuntimeError):
    """A value written to a checkpointed state is not JSON-serializable."""

    code = "state_not_serializable"

    def __init__(self, message: str, *, param: str | None = None, details: ErrorDetails | None = None):
        super().__init__(message, param=param, details=details)


class SessionNotFoundError(GraphRuntimeError):
    """No session (or no such version) under this id in the checkpointer."""

    status_code = 404
    code = "session_not_found"


class SessionConflictError(GraphRuntimeError):
    """The session changed under us (two writers on one session) or the id is already taken."""

    status_code = 409
    code = "session_conflict"
