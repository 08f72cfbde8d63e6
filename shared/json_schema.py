"""Compiled JSON Schema validators, one pair per distinct schema, shared by every check of a
payload against a manifest's schema (a step's parameters before the call, its result after).

jsonschema-rs answers "valid?" fast on the hot path; jsonschema words the problems when there
are some (its errors carry paths, ``best_match`` and ``anyOf`` contexts). The cache is keyed by
the schema's canonical JSON, so equal schemas share their validators and nothing depends on
object identity.

>>> pair = validators({"type": "object", "required": ["a"]})
>>> pair.check.is_valid({"a": 1}), [e.message for e in pair.explain.iter_errors({})]
(True, ["'a' is a required property"])
>>> validators({"required": ["a"], "type": "object"}) is pair
True
>>> import copy, pickle
>>> copy.deepcopy(pair) is pair, pickle.loads(pickle.dumps(pair)) is pair
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias

import jsonschema
import jsonschema_rs

#: A JSON Schema document (JSON data: a manifest's ``parameters`` or ``output_schema``). Read-only
#: and opaque to the code that passes it on; compiled by :func:`validators`, checked as part of a
#: manifest by ``shared.manifest.validate_manifest``.
JsonSchema: TypeAlias = Mapping[str, object]


@dataclass(frozen=True)
class SchemaValidators:
    check: jsonschema_rs.Draft202012Validator
    explain: jsonschema.Draft202012Validator
    #: the schema's canonical JSON: the cache's key, and how a copy or a pickle is rebuilt
    schema_json: str

    def __reduce__(self) -> tuple[Callable[[str], SchemaValidators], tuple[str]]:
        # jsonschema-rs validators do not pickle; a copy is the same compiled pair, from the cache
        return _compiled, (self.schema_json,)


@lru_cache(maxsize=512)
def _compiled(schema_json: str) -> SchemaValidators:
    schema = json.loads(schema_json)
    fast, worded = jsonschema_rs.Draft202012Validator(schema), jsonschema.Draft202012Validator(schema)
    return SchemaValidators(fast, worded, schema_json)


def validators(schema: JsonSchema) -> SchemaValidators:
    """The validators of ``schema`` (compiled once per distinct schema). It encodes ``schema`` to
    find them: a hot path keeps the answer (``Capability.parameter_validators`` and
    ``output_validators`` do, once per capability)."""
    return _compiled(json.dumps(schema, sort_keys=True))
