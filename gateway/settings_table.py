"""The environment table of docs/operations.md, written from the settings classes the gateway
process reads.

It lives in the gateway, beside the app that composes those classes: it is the one place allowed
to import every one of them (the planner's too); ``python -m cli.settings_table`` is its command.
``main`` rewrites the table between its two markers in the doc;
``--check`` only says whether it is current (exit status 1 when not; the tests run it). A row's
text is the field's docstring (``use_attribute_docstrings``), else the ``#:`` comment right above
the field (Sphinx's convention: it documents the next attribute only).
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings

from gateway.durable.settings import BackgroundSettings, DurableSettings
from gateway.hooks import RunHooksSettings
from gateway.settings import GatewaySettings
from gateway.storage.standing import StandingSettings
from gateway.turns.approvals import ApprovalSettings
from intent.settings import IntentSettings
from planner.llm.settings import PlannerLlmSettings
from shared.settings import ServiceSettings

DOC = Path(__file__).resolve().parent.parent / "docs" / "operations.md"
START = "<!-- settings-table:start (written by python -m cli.settings_table) -->"
END = "<!-- settings-table:end -->"
_FIELD_LINE = re.compile(r"^\s+(\w+)\s*:")
#: The gateway process's other settings classes, after GatewaySettings.
OTHER_SETTINGS: tuple[type[BaseSettings], ...] = (
    IntentSettings,
    PlannerLlmSettings,
    DurableSettings,
    BackgroundSettings,
    ApprovalSettings,
    RunHooksSettings,
    StandingSettings,
)


@dataclass
class Row:
    names: list[str] = field(default_factory=list)
    defaults: list[str] = field(default_factory=list)
    text: str = ""

    def markdown(self) -> str:
        names = ", ".join(f"`{n}`" for n in self.names)
        return f"| {names} | {', '.join(self.defaults)} | {self.text or '—'} |"


def env_name(settings: type[BaseSettings], name: str, info: FieldInfo) -> str:
    """The variable a field is read from (pydantic-settings: the alias, else prefix + name)."""
    if isinstance(info.validation_alias, str):
        return info.validation_alias.upper()
    return f"{settings.model_config.get('env_prefix', '')}{name}".upper()


def shown_default(info: FieldInfo) -> str:
    if info.default_factory is not None:
        return "—"
    value = info.get_default()
    if value is None or value == "":
        return "unset"
    if isinstance(value, SecretStr):
        return "unset" if not value.get_secret_value() else "(secret)"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, Enum):
        value = value.value
    return f"`{value}`"


def _markdown(text: str) -> str:
    """A docstring or comment as one table cell: one line, reST's ``code`` as Markdown's."""
    return " ".join(text.split()).replace("``", "`").replace("|", "\\|")


def _comments(settings: type[BaseSettings]) -> dict[str, str]:
    """Field -> the ``#:`` comment block right above it, in the classes that define the fields."""
    found: dict[str, str] = {}
    for cls in reversed(settings.__mro__):
        if not (isinstance(cls, type) and issubclass(cls, BaseSettings)) or cls is BaseSettings:
            continue
        try:
            lines = inspect.getsource(cls).splitlines()
        except (OSError, TypeError):
            continue
        pending: list[str] = []
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("#:"):
                pending.append(stripped[2:].strip())
                continue
            match = _FIELD_LINE.match(line)
            if match and match.group(1) in settings.model_fields and pending:
                found[match.group(1)] = " ".join(pending)
            pending = []
    return found


def rows(settings: type[BaseSettings], *, inherited: bool = True) -> list[Row]:
    """One row per field; a group (a settings class composed in) gives its own rows where it is
    declared. ``inherited=False`` leaves out the fields of :class:`ServiceSettings` (``LOG_LEVEL``
    is the gateway's; a prefixed class would list it again under its prefix)."""
    comments = _comments(settings)
    table: list[Row] = []
    for name, info in settings.model_fields.items():
        if not inherited and name in ServiceSettings.model_fields:
            continue
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseSettings):
            table.extend(rows(annotation))
            continue
        text = info.description or comments.get(name, "")
        table.append(Row([env_name(settings, name, info)], [shown_default(info)], _markdown(text)))
    return table


def table() -> str:
    """Every variable once: a class that shares a base with an earlier one (the planner's
    ``LLM_*``, the intent adapter's too) does not list the shared variables again."""
    lines = ["| variable | default | |", "|----------|---------|--|"]
    shown: set[str] = set()
    every = [*rows(GatewaySettings)]
    for settings in OTHER_SETTINGS:
        every += rows(settings, inherited=False)
    for row in every:
        if shown.isdisjoint(row.names):
            lines.append(row.markdown())
        shown.update(row.names)
    return "\n".join(lines)


def with_table(doc: str) -> str:
    """``doc`` with the text between the markers replaced by the current table."""
    before, found, rest = doc.partition(START)
    if not found or END not in rest:
        raise SystemExit(f"{DOC}: the markers {START!r} and {END!r} are missing")
    _old, _, after = rest.partition(END)
    return f"{before}{START}\n{table()}\n{END}{after}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the environment table of docs/operations.md.")
    parser.add_argument("--check", action="store_true", help="only check that the doc's table is current")
    args = parser.parse_args(argv)
    current = DOC.read_text(encoding="utf-8")
    wanted = with_table(current)
    if args.check:
        if wanted != current:
            print(f"{DOC} is stale: run python -m cli.settings_table", file=sys.stderr)
            return 1
        return 0
    if wanted != current:
        DOC.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
