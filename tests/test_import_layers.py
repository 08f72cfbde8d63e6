"""The top-level packages import each other only downwards, and never in a cycle.

Layers (docs/architecture.md), lowest first; a package may import only from lower layers::

    shared  <-  graph, sdk
    shared  <-  intent, planner, execution  <-  dialogue  <-  gateway  <-  cli
    shared  <-  orchestrator  <-  gateway, cli
    shared, sdk, graph  <-  domains

Inside the gateway, the same rule holds between its parts (``GATEWAY_LAYERS``): storage and
coordination below turns, turns below the channels and the admin, inspector and session routes.

Imports are read from the source with ``ast`` (nothing is imported), ``if TYPE_CHECKING:``
blocks included: a cycle in type hints is still a cycle for whoever reads the code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: package -> the packages it may import (besides itself).
MAY_IMPORT: Mapping[str, frozenset[str]] = {
    "shared": frozenset(),
    "graph": frozenset({"shared"}),
    "sdk": frozenset({"shared"}),
    "intent": frozenset({"shared"}),
    "planner": frozenset({"shared"}),
    "execution": frozenset({"shared"}),
    "orchestrator": frozenset({"shared"}),
    # the turn reads the orchestrator's gate through a protocol; its steps reach the orchestrator
    # through the run loop the gateway builds, never through the dialogue
    "dialogue": frozenset({"shared", "graph", "intent", "planner", "execution"}),
    "gateway": frozenset({"shared", "graph", "intent", "planner", "execution", "orchestrator", "dialogue"}),
    "cli": frozenset({"shared", "intent", "orchestrator", "gateway"}),
    "domains": frozenset({"shared", "sdk", "graph"}),
}
#: Not part of the product: they may import anything.
OUTSIDE_THE_LAYERS = frozenset({"tests", "bench"})

#: Known exceptions, each with the reason it is tolerated; a stale entry fails the test too.
TOLERATED: Mapping[tuple[str, str], str] = {}

#: The gateway's parts, lowest first: a part may import only from parts in earlier rows (and from
#: itself). Top-level modules are named by their module, subpackages by their folder.
GATEWAY_LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"settings", "errors", "telemetry", "validation", "hooks", "http_guard"}),
    frozenset({"middleware", "server"}),
    frozenset({"storage"}),
    frozenset({"coordination", "durable"}),
    frozenset({"auth"}),
    frozenset({"turns"}),
    frozenset({"deps"}),
    frozenset({"channels", "admin", "inspector", "routes", "openapi"}),
    frozenset({"app", "settings_table"}),
    frozenset({"__main__"}),
)


@dataclass(frozen=True)
class Import:
    source: Path
    line: int
    module: str

    @property
    def importer(self) -> str:
        return self.source.relative_to(ROOT).parts[0]

    @property
    def imported(self) -> str:
        return self.module.split(".")[0]

    def __str__(self) -> str:
        return f"{self.source.relative_to(ROOT)}:{self.line} imports {self.module}"


def packages() -> list[str]:
    return sorted(
        p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name not in OUTSIDE_THE_LAYERS
    )


def imports_between_packages() -> Iterator[Import]:
    """Every absolute import in a layered package that names another layered package."""
    layered = set(MAY_IMPORT)
    for package in sorted(layered):
        for source in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                else:
                    continue
                for module in modules:
                    found = Import(source, node.lineno, module)
                    if found.imported in layered and found.imported != package:
                        yield found


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Every elementary cycle's nodes, found by a depth-first walk from each node.

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b', 'a']]
    """
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(edges.get(path[-1], set())):
            if nxt == path[0]:
                found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # each cycle once, from its smallest node
                walk([*path, nxt])

    for start in sorted(edges):
        walk([start])
    return found


def test_every_package_has_a_place_in_the_layers() -> None:
    assert packages() == sorted(MAY_IMPORT), "add the new top-level package to MAY_IMPORT (and the docs)"


def test_no_cycle_between_top_level_packages() -> None:
    edges: dict[str, set[str]] = {}
    evidence: dict[tuple[str, str], Import] = {}
    for found in imports_between_packages():
        edges.setdefault(found.importer, set()).add(found.imported)
        evidence.setdefault((found.importer, found.imported), found)
    problems = [
        " -> ".join(cycle) + "\n    " + "\n    ".join(str(evidence[pair]) for pair in pairwise(cycle))
        for cycle in cycles(edges)
    ]
    assert not problems, "import cycles between top-level packages:\n" + "\n".join(problems)


def test_packages_import_only_from_lower_layers() -> None:
    against: list[str] = []
    used: set[tuple[str, str]] = set()
    for found in imports_between_packages():
        pair = (found.importer, found.imported)
        if found.imported in MAY_IMPORT[found.importer]:
            continue
        if pair in TOLERATED:
            used.add(pair)
            continue
        against.append(f"{found} ({found.importer} may import only {sorted(MAY_IMPORT[found.importer])})")
    assert not against, "imports against the layering:\n" + "\n".join(against)
    stale = sorted(set(TOLERATED) - used)
    assert not stale, f"tolerated imports no longer needed, remove them from TOLERATED: {stale}"


def constructions(name: str) -> Iterator[str]:
    """Every call of ``name(...)`` in a layered package, as ``path:line``."""
    for package in sorted(MAY_IMPORT):
        for source in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                    yield f"{source.relative_to(ROOT)}:{node.lineno}"


def test_the_run_loop_and_its_step_runner_are_built_once_by_the_gateway() -> None:
    """One run loop, around the orchestrator's step runner, given to the conversation graph: no
    package but the gateway's app builds one (the dialogue used to, around a step runner of its
    own that every step climbed back through)."""
    built = list(constructions("RunController"))
    assert [where.split(":")[0] for where in built] == ["gateway/app.py"], built


def gateway_part(path: Path) -> str:
    inside = path.relative_to(ROOT / "gateway").parts
    return inside[0] if len(inside) > 1 else path.stem


def test_gateway_parts_import_only_from_lower_parts() -> None:
    layer_of = {part: depth for depth, parts in enumerate(GATEWAY_LAYERS) for part in parts}
    against: list[str] = []
    for source in sorted((ROOT / "gateway").rglob("*.py")):
        if "migrations" in source.parts or source == ROOT / "gateway" / "__init__.py":
            continue
        importer = gateway_part(source)
        assert importer in layer_of, f"{source.relative_to(ROOT)}: add {importer!r} to GATEWAY_LAYERS"
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
                continue
            parts = node.module.split(".")
            if parts[0] != "gateway" or len(parts) < 2:
                continue
            imported = parts[1]
            if imported != importer and layer_of.get(imported, len(GATEWAY_LAYERS)) >= layer_of[importer]:
                against.append(f"{source.relative_to(ROOT)}:{node.lineno} ({importer}) imports {node.module}")
    assert not against, "gateway parts importing sideways or upwards:\n" + "\n".join(against)
