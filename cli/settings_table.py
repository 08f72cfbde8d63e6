"""The environment table of docs/operations.md, written from the gateway's settings classes.

``python -m cli.settings_table`` rewrites the table between its two markers in the doc;
``--check`` only says whether it is current (exit status 1 when not; the tests run it). A row's
text is the field's docstring (``use_attribute_docstrings``), else the ``#:`` comment above it:
fields under one ``#:`` comment with no blank line between them share one row, as the doc's
other tables group a family of variables.
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

from gateway.settings import GatewaySettings

DOC = Path(__file__).resolve().parent.parent / "docs" / "operations.md"
START = "<!-- settings-table:start (written by python -m cli.settings_table) -->"
END = "<!-- settings-table:end -->"
_FIELD_LINE = re.compile(r"^\s+(\w+)\s*:")


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


def _comment_runs(settings: type[BaseSettings]) -> dict[str, tuple[int, str]]:
    """Field -> (run id, text) from the ``#:`` comments of the classes defining the fields: a
    comment starts a run, the fields after it join the run until a blank line."""
    found: dict[str, tuple[int, str]] = {}
    run_id, text, pending = 0, "", []
    for cls in reversed(settings.__mro__):
        if not (isinstance(cls, type) and issubclass(cls, BaseSettings)) or cls is BaseSettings:
            continue
        try:
            lines = inspect.getsource(cls).splitlines()
        except (OSError, TypeError):
            continue
        in_run = False
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("#:"):
                pending.append(stripped[2:].strip())
            elif not stripped:
                in_run, pending = False, []
            elif (match := _FIELD_LINE.match(line)) and match.group(1) in settings.model_fields:
                if pending:
                    run_id, text, pending, in_run = run_id + 1, " ".join(pending), [], True
                if in_run:
                    found.setdefault(match.group(1), (run_id, text))
                else:
                    run_id, text = run_id + 1, ""
                    found.setdefault(match.group(1), (run_id, ""))
    return found


def rows(settings: type[BaseSettings]) -> list[Row]:
    """One row per documented field (its docstring) or per ``#:`` comment run; a group (a
    settings class composed in) contributes its own rows where it is declared."""
    comments = _comment_runs(settings)
    table: list[Row] = []
    last_run: int | None = None
    for name, info in settings.model_fields.items():
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseSettings):
            table.extend(rows(annotation))
            last_run = None
            continue
        variable, default = env_name(settings, name, info), shown_default(info)
        if info.description:
            table.append(Row([variable], [default], _markdown(info.description)))
            last_run = None
            continue
        run, text = comments.get(name, (None, ""))
        if run is not None and run == last_run and text:
            table[-1].names.append(variable)
            table[-1].defaults.append(default)
        else:
            table.append(Row([variable], [default], _markdown(text)))
        last_run = run
    return table


def table() -> str:
    lines = ["| variable | default | |", "|----------|---------|--|"]
    lines += [row.markdown() for row in rows(GatewaySettings)]
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
