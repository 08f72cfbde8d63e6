"""How a graph's state is held in memory, handed to nodes, folded and written to the checkpoint.

One :class:`StateCodec` is chosen when a graph is compiled, so the engine has a single code path:

* :class:`DictCodec` — no schema: the state is a plain ``dict``; nodes and routers get a read-only
  :class:`~graph.state.StateView` of it.
* :class:`SchemaCodec` — ``GraphBuilder(..., state_schema=Model)``: the state is an instance of a
  pydantic model (declare it ``frozen``); nodes and routers get that instance and must not mutate
  what it holds (its lists and dicts are shared with older versions). A delta maps field names to
  typed values and is folded with ``model_copy(update=...)``, without re-validation. JSON appears
  only at the checkpoint: deltas and snapshots are written with pydantic's serializer, and a state
  loaded from storage is folded as plain JSON data and validated once into the model.

Reducers are keyed by field name. A typed state's reducer sees typed values in memory and the
stored JSON form when a session is loaded, so it must accept both (the builtins do).

>>> from pydantic import BaseModel, ConfigDict
>>> from graph.state import append
>>> class Chat(BaseModel):
...     model_config = ConfigDict(frozen=True)
...     messages: list[str] = []
...     turn: int = 0
>>> codec = SchemaCodec(Chat, {"messages": append})
>>> state = codec.fold(Chat(messages=["hi"]), {"messages": ["hello"], "turn": 1}, what="delta of node 'n'")
>>> state
Chat(messages=['hi', 'hello'], turn=1)
>>> try:
...     codec.fold(state, {"mood": "happy"}, what="delta of node 'n'")
... except GraphRuntimeError as exc:
...     print(exc.param, "|", exc.message)
mood | delta of node 'n': unknown field 'mood' of Chat (fields: messages, turn)
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic

import pydantic_core
from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar

from graph.errors import GraphRuntimeError, GraphSetupError, StateNotSerializableError
from graph.state import (
    Reducer,
    StateView,
    decode,
    decode_deltas,
    encode,
    encode_delta,
    encode_many,
    merge_delta,
    thaw,
)

#: The in-memory state of a graph: ``dict[str, Any]`` without a schema, else the schema model.
StateT = TypeVar("StateT", default=dict[str, Any])
ModelT = TypeVar("ModelT", bound=BaseModel)


class StateCodec(ABC, Generic[StateT]):
    """Every operation the engine performs on a state; one implementation per kind of state."""

    def __init__(self, reducers: Mapping[str, Reducer]):
        self.reducers: Mapping[str, Reducer] = dict(reducers)

    @abstractmethod
    def initial(self, value: Mapping[str, Any] | StateT | None) -> StateT:
        """The state a run starts from, built from what the caller passed to ``run``."""

    @abstractmethod
    def view(self, state: StateT) -> Any:
        """What nodes and routers receive."""

    @abstractmethod
    def fold(
        self, state: StateT, delta: Mapping[str, Any] | None, *, what: str, plain: bool = False
    ) -> StateT:
        """A new state with ``delta`` folded in. ``plain=True``: the delta came from :meth:`encode_delta`."""

    @abstractmethod
    def encode_delta(self, delta: Mapping[str, Any], *, what: str) -> tuple[str, Mapping[str, Any]]:
        """``(json text to store, the delta to fold)``; :class:`StateNotSerializableError` otherwise."""

    @abstractmethod
    def plain_delta(self, delta: Mapping[str, Any], *, what: str) -> Mapping[str, Any]:
        """``delta`` as it is folded and later encoded (checked, its views thawed), not yet JSON."""

    @abstractmethod
    def encode_deltas(self, deltas: Sequence[Mapping[str, Any]], *, what: str) -> str:
        """Several :meth:`plain_delta` results as one stored delta: the object when there is
        one, else a JSON array folded in order by :meth:`load`."""

    @abstractmethod
    def encode_state(self, state: StateT, *, what: str) -> str:
        """A full snapshot as JSON text."""

    @abstractmethod
    def jsonable(self, value: Any, *, what: str) -> Any:
        """``value`` as JSON-ready data (an interrupt payload stored on the session row)."""

    @abstractmethod
    def read(self, state: StateT, key: str) -> Any:
        """The value of one key/field, ``None`` when absent."""

    @abstractmethod
    def from_plain(self, data: dict[str, Any]) -> StateT:
        """The state from stored JSON data folded by :meth:`load`."""

    def check_key(self, key: str, *, where: str) -> None:
        """Raise :class:`GraphSetupError` when ``key`` cannot name a part of the state."""

    def load(self, snapshot: str, deltas: Sequence[str]) -> StateT:
        """Fold a stored snapshot and the deltas after it (as plain JSON data), then build the state."""
        state = decode(snapshot)
        for delta in deltas:
            for part in decode_deltas(delta):
                state = merge_delta(state, part, self.reducers, plain=True)
        return self.from_plain(state)


class DictCodec(StateCodec[dict[str, Any]]):
    """The state is a plain dict; nodes read it through a lazy, read-only :class:`StateView`."""

    def initial(self, value: Mapping[str, Any] | dict[str, Any] | None) -> dict[str, Any]:
        return dict(value or {})

    def view(self, state: dict[str, Any]) -> StateView:
        return StateView(state)

    def fold(
        self, state: dict[str, Any], delta: Mapping[str, Any] | None, *, what: str, plain: bool = False
    ) -> dict[str, Any]:
        return merge_delta(state, delta, self.reducers, plain=plain)

    def encode_delta(self, delta: Mapping[str, Any], *, what: str) -> tuple[str, Mapping[str, Any]]:
        text, viewed = encode_delta(delta, what=what)
        # A node may hand back views it read; what is folded and kept must be plain data.
        return text, thaw(delta) if viewed else delta

    def plain_delta(self, delta: Mapping[str, Any], *, what: str) -> Mapping[str, Any]:
        plain: Mapping[str, Any] = thaw(delta)
        return plain

    def encode_deltas(self, deltas: Sequence[Mapping[str, Any]], *, what: str) -> str:
        if len(deltas) == 1:
            return encode(deltas[0], what=what)
        return encode_many(deltas, what=what)

    def encode_state(self, state: dict[str, Any], *, what: str) -> str:
        return encode(state, what=what)

    def jsonable(self, value: Any, *, what: str) -> Any:
        encode({"payload": value}, what=what)
        return value

    def read(self, state: dict[str, Any], key: str) -> Any:
        return state.get(key)

    def from_plain(self, data: dict[str, Any]) -> dict[str, Any]:
        return data


class SchemaCodec(StateCodec[ModelT]):
    """The state is an instance of ``schema``, a pydantic model (declared frozen by its author)."""

    def __init__(self, schema: type[ModelT], reducers: Mapping[str, Reducer]):
        if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
            raise GraphSetupError(
                f"state_schema must be a pydantic model class, got {schema!r}", param="state_schema"
            )
        super().__init__(reducers)
        self.schema = schema
        self.fields = frozenset(schema.model_fields)
        for key in self.reducers:
            self.check_key(key, where=f"reducers.{key}")

    def check_key(self, key: str, *, where: str) -> None:
        if key not in self.fields:
            raise GraphSetupError(f"{where}: {self._unknown(key)}", param=where)

    def _unknown(self, key: str) -> str:
        fields = ", ".join(self.schema.model_fields)
        return f"unknown field {key!r} of {self.schema.__name__} (fields: {fields})"

    def _check_fields(self, delta: Mapping[str, Any], what: str) -> None:
        for key in delta:
            if key not in self.fields:
                raise GraphRuntimeError(f"{what}: {self._unknown(key)}", param=str(key))

    def initial(self, value: Mapping[str, Any] | ModelT | None) -> ModelT:
        if isinstance(value, self.schema):
            return value
        if value is not None and not isinstance(value, Mapping):
            raise GraphRuntimeError(
                f"initial state must be a {self.schema.__name__} or a mapping of its fields, "
                f"got {type(value).__name__}",
                param="initial_state",
            )
        try:
            return self.schema.model_validate(dict(value or {}))
        except ValidationError as exc:
            raise GraphRuntimeError(
                f"initial state is not a valid {self.schema.__name__}: {exc}", param="initial_state"
            ) from exc

    def view(self, state: ModelT) -> ModelT:
        return state

    def fold(
        self, state: ModelT, delta: Mapping[str, Any] | None, *, what: str, plain: bool = False
    ) -> ModelT:
        if not delta:
            return state
        self._check_fields(delta, what)
        reducers = self.reducers
        update = {
            key: value if key not in reducers else reducers[key](getattr(state, key), value)
            for key, value in delta.items()
        }
        return state.model_copy(update=update)

    def encode_delta(self, delta: Mapping[str, Any], *, what: str) -> tuple[str, Mapping[str, Any]]:
        self._check_fields(delta, what)
        return self._to_json(dict(delta), what, delta.items()), delta

    def plain_delta(self, delta: Mapping[str, Any], *, what: str) -> Mapping[str, Any]:
        self._check_fields(delta, what)
        return delta

    def encode_deltas(self, deltas: Sequence[Mapping[str, Any]], *, what: str) -> str:
        value: Any = deltas[0] if len(deltas) == 1 else list(deltas)
        return self._to_json(value, what, (item for delta in deltas for item in delta.items()))

    def encode_state(self, state: ModelT, *, what: str) -> str:
        return self._to_json(state, what, ((name, getattr(state, name)) for name in self.schema.model_fields))

    def jsonable(self, value: Any, *, what: str) -> Any:
        try:
            return pydantic_core.to_jsonable_python(value, by_alias=False)
        except pydantic_core.PydanticSerializationError as exc:
            raise StateNotSerializableError(
                f"{what}: key 'payload' is not JSON-serializable ({exc})", param="payload"
            ) from exc

    def read(self, state: ModelT, key: str) -> Any:
        return getattr(state, key, None)

    def from_plain(self, data: dict[str, Any]) -> ModelT:
        # JSON-mode validation: what was written in JSON mode reads back even in strict models.
        return self.schema.model_validate_json(json.dumps(data), by_alias=False, by_name=True)

    @staticmethod
    def _to_json(value: Any, what: str, items: Any) -> str:
        try:
            return pydantic_core.to_json(value, by_alias=False).decode()
        except pydantic_core.PydanticSerializationError as exc:
            bad = _first_bad_key(items)
            raise StateNotSerializableError(
                f"{what}: key {bad!r} is not JSON-serializable ({exc}); "
                "checkpointed state must serialise with pydantic",
                param=bad,
            ) from exc


def _first_bad_key(items: Any) -> str | None:
    for key, value in items:
        try:
            pydantic_core.to_json(value, by_alias=False)
        except pydantic_core.PydanticSerializationError:
            return str(key)
    return None


def codec_for(schema: type[BaseModel] | None, reducers: Mapping[str, Reducer]) -> StateCodec[Any]:
    """The codec of a graph: :class:`SchemaCodec` when it declares a state schema, else :class:`DictCodec`."""
    return DictCodec(reducers) if schema is None else SchemaCodec(schema, reducers)
