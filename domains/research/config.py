"""Agent configuration: one ``agents/<role>.yaml`` per agent, validated once at start.

A bad file must stop the service before it serves anything, with a message in Portuguese that
names the file and the field, so the person editing the YAML knows exactly what to fix:

>>> from pathlib import Path
>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> _ = (d / "methodologist.yaml").write_text("name: M\\nrole: methodologist\\nmodel: m\\nprompt: p\\n"
...     "tags: []\\ncontext_limit: 1000\\nmemory_window: 0\\ntools: []\\n")
>>> try:
...     load_agent(d / "methodologist.yaml")
... except AgentConfigError as exc:
...     print(exc.problems[0])  # doctest: +ELLIPSIS
/...methodologist.yaml: campo 'memory_window' deve ser >= 1
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

#: The roles the graph needs; each must have its own file.
ROLES: tuple[str, ...] = ("orchestrator", "structurer", "methodologist")
DEFAULT_AGENTS_DIR = Path(__file__).parent / "agents"
DEFAULT_TEMPERATURE = 0.2
DEFAULT_TOP_P = 1.0


class AgentConfig(BaseModel):
    """Required name/role/model/prompt/tags/context_limit/memory_window/tools, optional sampling."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    role: str = Field(min_length=1)
    model: str = Field(min_length=1)
    prompt: str = Field(min_length=1)
    tags: list[str]
    context_limit: int = Field(ge=256)
    memory_window: int = Field(ge=1)
    tools: list[str]
    temperature: float = Field(default=DEFAULT_TEMPERATURE, ge=0.0, le=2.0)
    top_p: float = Field(default=DEFAULT_TOP_P, gt=0.0, le=1.0)
    summary_template: str | None = None

    @field_validator("prompt", "name", "model")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("blank")
        return value


class AgentConfigError(ValueError):
    """Every problem found in the agent files, one Portuguese line each (file: field: reason)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("configuração de agentes inválida:\n" + "\n".join(f"- {p}" for p in problems))


def _pt_reason(err: dict[str, Any]) -> str:
    """pydantic's error types, said in Portuguese."""
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return "é obrigatório e está ausente"
    if kind == "extra_forbidden":
        return "não é um campo conhecido (campos válidos: " + ", ".join(AgentConfig.model_fields) + ")"
    if kind in {"greater_than_equal", "greater_than"}:
        op = ">=" if kind == "greater_than_equal" else ">"
        bound = ctx.get("ge", ctx.get("gt"))
        return f"deve ser {op} {bound}"
    if kind in {"less_than_equal", "less_than"}:
        op = "<=" if kind == "less_than_equal" else "<"
        return f"deve ser {op} {ctx.get('le', ctx.get('lt'))}"
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        return "deve ser um número inteiro"
    if kind in {"float_type", "float_parsing"}:
        return "deve ser um número"
    if kind in {"string_type"}:
        return "deve ser um texto"
    if kind in {"list_type"}:
        return "deve ser uma lista"
    if kind in {"string_too_short", "value_error"}:
        return "não pode ser vazio"
    return str(err.get("msg", "valor inválido"))


def _field_path(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "$"


def _shown(path: Path) -> str:
    """The path as the person would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_agent(path: Path, *, expected_role: str | None = None) -> AgentConfig:
    """Read and validate one YAML file; :class:`AgentConfigError` lists every problem in it."""
    shown = _shown(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AgentConfigError([f"{shown}: arquivo não encontrado"]) from None
    except yaml.YAMLError as exc:
        raise AgentConfigError([f"{shown}: YAML inválido ({exc})"]) from None
    if not isinstance(raw, dict):
        raise AgentConfigError([f"{shown}: o conteúdo deve ser um mapa de campos (chave: valor)"])
    try:
        config = AgentConfig.model_validate(raw)
    except ValidationError as exc:
        raise AgentConfigError(
            [f"{shown}: campo '{_field_path(e['loc'])}' {_pt_reason(dict(e))}" for e in exc.errors()]
        ) from None
    if expected_role is not None and config.role != expected_role:
        raise AgentConfigError(
            [
                f"{shown}: campo 'role' deve ser '{expected_role}' (o nome do arquivo), "
                f"recebido '{config.role}'"
            ]
        )
    return config


def load_agents(directory: Path | None = None) -> dict[str, AgentConfig]:
    """Every role's file in ``directory``; all problems of all files are reported together."""
    base = directory or DEFAULT_AGENTS_DIR
    configs: dict[str, AgentConfig] = {}
    problems: list[str] = []
    for role in ROLES:
        try:
            configs[role] = load_agent(base / f"{role}.yaml", expected_role=role)
        except AgentConfigError as exc:
            problems.extend(exc.problems)
    if problems:
        raise AgentConfigError(problems)
    return configs
