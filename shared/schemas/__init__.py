"""The JSON Schemas of the domain protocol, published next to this file so a domain written in
any language can check what it receives and sends: the manifest (``GET /manifest``), the
``ExecutionIntent`` (``POST /execute`` body) and the ``DomainOutput`` (its answer).

They are generated from the pydantic models, never edited by hand: ``python -m shared.schemas``
rewrites them, ``python -m shared.schemas --check`` lists the stale ones (the tests run it too).

>>> sorted(PUBLISHED)
['domain_manifest.schema.json', 'domain_output.schema.json', 'execution_intent.schema.json']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from shared.manifest import manifest_json_schema
from shared.models import DomainOutput, ExecutionIntent

SCHEMA_DIR = Path(__file__).parent
SCHEMA_BASE_URI = "https://agent-orchestrator.dev/schemas/"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def model_schema(model: type[BaseModel], file_name: str) -> dict[str, Any]:
    """The model's validation schema with the dialect and the ``$id`` it is published under."""
    schema = model.model_json_schema()
    schema["$schema"] = DIALECT
    schema["$id"] = SCHEMA_BASE_URI + file_name
    return schema


#: Every published file and what generates it.
PUBLISHED: dict[str, Callable[[], dict[str, Any]]] = {
    "domain_manifest.schema.json": manifest_json_schema,
    "domain_output.schema.json": lambda: model_schema(DomainOutput, "domain_output.schema.json"),
    "execution_intent.schema.json": lambda: model_schema(ExecutionIntent, "execution_intent.schema.json"),
}


def render(file_name: str) -> str:
    """The file's expected text (sorted keys, so a diff shows only real changes)."""
    return json.dumps(PUBLISHED[file_name](), indent=2, sort_keys=True) + "\n"


def stale(directory: Path = SCHEMA_DIR) -> list[str]:
    """The published files in ``directory`` that are missing or differ from the models."""
    out: list[str] = []
    for name in PUBLISHED:
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != render(name):
            out.append(name)
    return out


def write(directory: Path = SCHEMA_DIR) -> list[str]:
    """Rewrite the stale files in ``directory``; returns their names."""
    changed = stale(directory)
    for name in changed:
        (directory / name).write_text(render(name), encoding="utf-8")
    return changed
