"""State, deltas and reducers of a graph without a state schema (see :mod:`graph.codec`).

A run has exactly one state: a plain ``dict[str, Any]``. A node never receives that dict; it
receives a :class:`StateView`, a read-only *deep* view built lazily (nested dicts and lists are
wrapped on access, nothing is copied), and returns only a **delta**. The engine folds the delta
into a *new* dict with :func:`merge_delta`; keys with a reducer accumulate (``messages``), the
others are replaced.

Reducers must be pure: they build new containers and never mutate ``current``. Because of that
every state the engine ever produced stays valid forever (old versions share structure with new
ones, nothing is deep-copied on the hot path).

>>> state = {"messages": ["hi"], "turn": 1}
>>> new = merge_delta(state, {"messages": ["hello!"], "turn": 2}, {"messages": append})
>>> new
{'messages': ['hi', 'hello!'], 'turn': 2}
>>> state  # untouched: merging builds a new dict
{'messages': ['hi'], 'turn': 1}
>>> view = StateView(new)
>>> view["messages"].append("x")
Traceback (most recent call last):
...
AttributeError: 'FrozenList' object has no attribute 'append'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

from graph.errors import StateNotSerializableError

#: The reserved target that ends a run.
END = "__end__"
#: The pseudo node of version 0 (the initial state) in a session's history.
START = "__start__"
#: The pseudo node of an input merged into a session that was not waiting on an interrupt.
INPUT = "__input__"

State = dict[str, Any]
Delta = Mapping[str, Any]
#: ``reducer(current_value_or_None, update) -> new_value``; must not mutate ``current``.
Reducer = Callable[[Any, Any], Any]


# --------------------------------------------------------------------------- reducers


def append(current: Any, update: Any) -> list[Any]:
    """Accumulate a list: a list/tuple update is concatenated, any other value appended as one item.

    >>> append(None, ["a"]), append(["a"], ["b", "c"]), append(["a"], "b")
    (['a'], ['a', 'b', 'c'], ['a', 'b'])
    """
    base = list(current) if current is not None else []
    if isinstance(update, list | tuple | FrozenList):
        base.extend(update)
    else:
        base.append(update)
    return base


def add(current: Any, update: Any) -> Any:
    """Sum numbers (counters, token totals). ``None`` counts as zero.

    >>> add(None, 2), add(2, 3)
    (2, 5)
    """
    return update if current is None else current + update


def merge(current: Any, update: Any) -> dict[str, Any]:
    """Shallow dict merge (later keys win), e.g. a ``memory`` dict written by several nodes.

    >>> merge({"a": 1}, {"b": 2})
    {'a': 1, 'b': 2}
    """
    return {**(current or {}), **update}


def replace(current: Any, update: Any) -> Any:
    """The default behaviour of a key without a reducer, exposed so it can be named explicitly."""
    return update


# --------------------------------------------------------------------------- read-only views


class FrozenList(Sequence[Any]):
    """Read-only view of a list inside the state (no ``append``, no item assignment)."""

    __slots__ = ("_data",)

    def __init__(self, data: list[Any] | tuple[Any, ...]):
        self._data = data

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [_freeze(v) for v in self._data[index]]
        return _freeze(self._data[index])

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[Any]:
        return (_freeze(v) for v in self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenList):
            other = other._data
        return isinstance(other, list | tuple) and list(self._data) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FrozenList({self._data!r})"


class StateView(Mapping[str, Any]):
    """Read-only, lazily-deep view of a state dict; what nodes and routers receive.

    Nothing is copied: nested dicts/lists are wrapped when read. :func:`thaw` turns a view (or a
    value containing views) back into plain data, which :func:`merge_delta` does for every delta,
    so a node may return values it read from the state.
    """

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]):
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return _freeze(self._data[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StateView):
            other = other._data
        return isinstance(other, Mapping) and dict(self._data) == dict(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StateView({self._data!r})"


def _freeze(value: Any) -> Any:
    cls = type(value)
    if cls is dict:
        return StateView(value)
    if cls is list:
        return FrozenList(value)
    return value


def thaw(value: Any) -> Any:
    """Plain data from a value that may contain views (the views' own data, never a copy of it).

    >>> thaw(StateView({"a": [1]}))
    {'a': [1]}
    >>> thaw([FrozenList([1]), {"k": StateView({})}])
    [[1], {'k': {}}]
    """
    cls = type(value)
    if cls is StateView or cls is FrozenList:
        return value._data
    if cls is list or cls is tuple:
        if any(_has_view(v) for v in value):
            return [thaw(v) for v in value]
        return value
    if cls is dict:
        if any(_has_view(v) for v in value.values()):
            return {k: thaw(v) for k, v in value.items()}
        return value
    return value


def _has_view(value: Any) -> bool:
    cls = type(value)
    if cls is StateView or cls is FrozenList:
        return True
    if cls is list or cls is tuple:
        return any(_has_view(v) for v in value)
    if cls is dict:
        return any(_has_view(v) for v in value.values())
    return False


# --------------------------------------------------------------------------- merge


def merge_delta(
    state: Mapping[str, Any], delta: Delta | None, reducers: Mapping[str, Reducer], *, plain: bool = False
) -> State:
    """Return a new state: ``state`` with ``delta`` folded in (reducers for accumulating keys).

    ``plain=True`` says the delta holds no views (decoded JSON, or already thawed), which saves
    walking it again.

    >>> merge_delta({"n": 1}, {"n": 5}, {"n": add})
    {'n': 6}
    >>> merge_delta({"n": 1}, None, {})
    {'n': 1}
    """
    new = dict(state)
    if not delta:
        return new
    for key, value in delta.items():
        if not plain:
            value = thaw(value)
        reducer = reducers.get(key)
        new[key] = value if reducer is None else reducer(state.get(key), value)
    return new


def squash(reducers: Mapping[str, Reducer], deltas: Sequence[Delta]) -> list[Delta]:
    """The fewest deltas that fold to the same state as ``deltas`` folded one by one.

    A key without a reducer keeps only its last value; a reducer sees only its own key's
    values, so deltas merge until a reducer key would get a second value, which starts the next.

    >>> squash({"log": append}, [{"log": ["a"], "n": 1}, {"n": 2}, {"log": ["b"], "n": 3}])
    [{'log': ['a']}, {'log': ['b'], 'n': 3}]
    >>> squash({}, [{"turn": 1}, {"turn": 2}, {}])
    [{'turn': 2}]
    """
    out: list[dict[str, Any]] = [{}]
    for delta in deltas:
        current = out[-1]
        if any(key in current and key in reducers for key in delta):
            current = {}
            out.append(current)
        current.update(delta)
    later: set[str] = set()  # keys without a reducer that a later part sets again
    for part in reversed(out):
        for key in [k for k in part if k in later]:
            del part[key]
        later.update(k for k in part if k not in reducers)
    return [d for d in out if d] or [{}]


# --------------------------------------------------------------------------- JSON codec


def _reject(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON-serializable")


def encode_delta(delta: Mapping[str, Any], *, what: str) -> tuple[str, bool]:
    """:func:`encode` for a node's delta, which may hold read-only views of the state (a node can
    hand back what it read): ``(json, whether it held views)``. The encoder writes a view's own
    data, so the walk it does anyway tells whether :func:`thaw` is needed, instead of a second
    walk in Python for the usual delta that holds none.

    >>> encode_delta({"a": FrozenList([1])}, what="delta")
    ('{"a":[1]}', True)
    >>> encode_delta({"a": [1]}, what="delta")
    ('{"a":[1]}', False)
    """
    seen: list[bool] = []

    def view_data(value: Any) -> Any:
        if type(value) is StateView or type(value) is FrozenList:
            seen.append(True)
            return value._data
        return _reject(value)

    return _encode(delta, what, view_data), bool(seen)


def encode(value: Mapping[str, Any], *, what: str) -> str:
    """Compact JSON for a delta/snapshot; a clear :class:`StateNotSerializableError` otherwise.

    Checkpointed state must be JSON data (dict/list/str/int/float/bool/None, finite floats);
    the error names the offending key so the node that wrote it is easy to find.

    >>> encode({"a": [1, "x"]}, what="delta")
    '{"a":[1,"x"]}'
    >>> try:
    ...     encode({"ok": 1, "when": object()}, what="delta of node 'n'")
    ... except StateNotSerializableError as exc:
    ...     print(exc.param, "|", exc.message.split(";")[0])
    when | delta of node 'n': key 'when' is not JSON-serializable (object is not JSON-serializable)
    """
    return _encode(value, what, _reject)


def encode_many(deltas: Sequence[Mapping[str, Any]], *, what: str) -> str:
    """Several deltas as one JSON array (a version that folds several nodes), checked as
    :func:`encode` checks one.

    >>> encode_many([{"a": 1}, {"a": 2}], what="deltas")
    '[{"a":1},{"a":2}]'
    """
    try:
        text = json.dumps(
            list(deltas), separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_reject
        )
        return text
    except (TypeError, ValueError):
        for delta in deltas:
            encode(delta, what=what)  # names the key
        raise


def _encode(value: Mapping[str, Any], what: str, default: Callable[[Any], Any]) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=default)
    except (TypeError, ValueError) as exc:
        bad = _first_bad_key(value, default)
        raise StateNotSerializableError(
            f"{what}: key {bad!r} is not JSON-serializable ({exc}); "
            "checkpointed state must be plain JSON data",
            param=bad,
        ) from exc


def _first_bad_key(value: Mapping[str, Any], default: Callable[[Any], Any]) -> str | None:
    for key, item in value.items():
        if not isinstance(key, str):
            return repr(key)
        try:
            json.dumps(item, allow_nan=False, default=default)
        except (TypeError, ValueError):
            return key
    return None


def decode_deltas(text: str) -> list[dict[str, Any]]:
    """A stored delta: one JSON object, or an array of them (a version that folds several)."""
    result = json.loads(text)
    if isinstance(result, dict):
        return [result]
    if not isinstance(result, list) or not all(isinstance(d, dict) for d in result):
        raise ValueError("stored delta is not a JSON object or an array of objects")
    return result


def decode(text: str) -> dict[str, Any]:
    result = json.loads(text)
    if not isinstance(result, dict):  # pragma: no cover - we only ever write objects
        raise ValueError("stored state is not a JSON object")
    return result
