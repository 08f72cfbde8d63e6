"""Typed node updates: a node of a graph with a state schema returns a :class:`StateUpdate`.

A :class:`StateUpdate` subclass names the fields one kind of node result writes; ``state=`` ties
it to the model those fields belong to (the graph's state schema, or a model held in it). Each
field has the type of the model's own field, and a field the model does not have, or one typed
otherwise, is a :class:`~graph.errors.GraphSetupError` when the class is defined (at import, not
halfway through a conversation). Values are validated when the update is built.

Only the fields given are folded (``model_fields_set``): a field left out keeps the state's value.
A field the model types ``X`` (``None`` is no value of it) may be typed ``X | None`` here, and
``None`` then means "not folded" too, so a node can pass what it may or may not have computed.
A field the model types ``X | None`` is folded when given, ``None`` included (it clears it).
Folded, stored and reloaded, an update is the plain delta of its fields, so checkpoints written
from dict deltas and from updates read the same.

``goes_to=`` names the node a run goes to after a node returned this update (as pydantic_graph's
return types do): a node function annotated to return such classes (one, or a union) gets its
edges from that annotation when it is added to a :class:`~graph.builder.GraphBuilder`, so its
possible next nodes are read from its signature, checked when the graph is compiled, and the run
follows the class the node returned (no router reads the state for it).

>>> from pydantic import BaseModel, ConfigDict
>>> class Chat(BaseModel):
...     model_config = ConfigDict(frozen=True)
...     messages: list[str] = []
...     topic: str | None = None
...     mood: str = "calm"
>>> class Said(StateUpdate, state=Chat):
...     messages: list[str]
...     topic: str | None = None
...     mood: str | None = None
>>> Said(messages=["hi"]).delta()
{'messages': ['hi']}
>>> Said(messages=["bye"], topic=None, mood=None).delta()
{'messages': ['bye'], 'topic': None}
>>> Said(messages=[], mood="glad").apply(Chat(topic="tea"))
Chat(messages=[], topic='tea', mood='glad')
>>> try:
...     class Wrong(StateUpdate, state=Chat):
...         weather: str
... except GraphSetupError as exc:
...     print(exc.message)
Wrong.weather: Chat has no field 'weather' (fields: messages, topic, mood)
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict

from graph.errors import GraphSetupError

ModelT = TypeVar("ModelT", bound=BaseModel)


class StateUpdate(BaseModel):
    """The typed result of a node: the fields of the state it writes (see the module docs)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    #: the model whose fields this update writes (``class X(StateUpdate, state=Model)``)
    state_schema: ClassVar[type[BaseModel] | None] = None
    #: fields typed ``X | None`` for a model field typed ``X``: ``None`` is not folded
    none_is_unchanged: ClassVar[frozenset[str]] = frozenset()
    #: the node a run goes to next after this update (``goes_to=``; ``END`` ends it); None: the
    #: node's edges are declared on the builder instead
    next_node: ClassVar[str | None] = None

    def __init_subclass__(
        cls, *, state: type[BaseModel] | None = None, goes_to: str | None = None, **kwargs: Any
    ) -> None:
        # ``state`` and ``goes_to`` are read once the fields exist, in __pydantic_init_subclass__
        super().__init_subclass__(**kwargs)

    @classmethod
    def __pydantic_init_subclass__(
        cls, *, state: type[BaseModel] | None = None, goes_to: str | None = None, **kwargs: Any
    ) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if state is not None:
            cls.state_schema = state
        if goes_to is not None:
            if not isinstance(goes_to, str) or not goes_to:
                raise GraphSetupError(
                    f"{cls.__name__}: goes_to names a node", param=f"{cls.__name__}.goes_to"
                )
            cls.next_node = goes_to
        schema = cls.state_schema
        if schema is None:
            return
        optional: set[str] = set()
        for name, info in cls.model_fields.items():
            target = schema.model_fields.get(name)
            where = f"{cls.__name__}.{name}"
            if target is None:
                fields = ", ".join(schema.model_fields)
                raise GraphSetupError(
                    f"{where}: {schema.__name__} has no field {name!r} (fields: {fields})", param=where
                )
            if info.annotation == target.annotation:
                continue
            if not _admits_none(target.annotation) and _members(info.annotation) == [
                *_members(target.annotation),
                type(None),
            ]:
                optional.add(name)
                continue
            raise GraphSetupError(
                f"{where}: typed {info.annotation}, but {schema.__name__}.{name} is {target.annotation}",
                param=where,
            )
        cls.none_is_unchanged = frozenset(optional)

    def delta(self) -> dict[str, object]:
        """The fields to fold, in declaration order: what the engine folds and stores."""
        given = self.model_fields_set
        skip = self.none_is_unchanged
        out: dict[str, object] = {}
        for name in type(self).model_fields:
            if name in given:
                value = getattr(self, name)
                if value is not None or name not in skip:
                    out[name] = value
        return out

    def apply(self, model: ModelT) -> ModelT:
        """``model`` with this update's fields set (no reducers: for a model held in the state)."""
        return model.model_copy(update=self.delta())


def updates_returned(fn: Callable[..., Any]) -> list[type[StateUpdate]] | None:
    """The :class:`StateUpdate` classes a node function is annotated to return, when each of them
    names where the run goes next (``goes_to=``); None when its return annotation names no such
    class (its edges are then declared on the builder). ``None`` in the union is ignored (a node
    may return nothing), and a mix of classes with and without ``goes_to`` is a setup error."""
    try:
        annotation = get_type_hints(fn).get("return")
    except Exception:  # annotations that do not resolve here: the builder's edges decide
        return None
    members = [m for m in _members(annotation) if m is not type(None)]
    routed = [m for m in members if isinstance(m, type) and issubclass(m, StateUpdate) and m.next_node]
    if not routed:
        return None
    if len(routed) != len(members):
        others = ", ".join(getattr(m, "__name__", str(m)) for m in members if m not in routed)
        name = getattr(fn, "__qualname__", repr(fn))
        raise GraphSetupError(
            f"{name} returns updates that name their next node and others that do not ({others})",
            param=f"nodes.{name}",
        )
    return routed


def _members(annotation: object) -> list[object]:
    """The members of a union (``X | None`` as ``[X, None]``), else ``[annotation]``."""
    if get_origin(annotation) in (Union, types.UnionType):
        return list(get_args(annotation))
    return [annotation]


def _admits_none(annotation: object) -> bool:
    return annotation is None or type(None) in _members(annotation)
