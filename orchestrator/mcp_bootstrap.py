"""MCP servers the operator declares in the bootstrap file: their goals and, for a local tool, the
command that runs it over stdio.

An entry ``{"name": "files", "kind": "mcp", "command": ["python", "-m", "files_server"],
"env": {...}, "cwd": "...", "description": "...", "goals": [...]}`` is a stdio MCP server: the
gateway starts it at start-up and holds its session (:mod:`orchestrator.mcp_stdio`); the registry
lists it at ``mcp+stdio://files``. An entry with a ``base_url`` and ``kind: "mcp"`` may give
``description`` and ``goals`` too. Only this file starts processes: the admin route
(``POST /v1/domains``) registers MCP servers by URL only.

The registry reads the same file for names and base URLs (:meth:`DomainRegistry.load_bootstrap`);
this reads the MCP part, before it, so the servers are up and their goals known when the registry
lists their tools.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from orchestrator.mcp_domain import McpDomains, McpRegistration
from shared.manifest import Goal

log = logging.getLogger(__name__)


class McpBootstrapEntry(BaseModel):
    """The MCP part of a bootstrap entry (``name`` and ``base_url`` are the registry's)."""

    model_config = ConfigDict(extra="ignore")

    name: str
    kind: Literal["mcp"]
    #: A local MCP server: the program and its arguments, run without a shell.
    command: list[str] | None = Field(default=None, min_length=1)
    #: Environment variables for the command, on top of a minimal safe set (PATH, HOME, ...).
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    description: str | None = Field(default=None, max_length=2000)
    goals: list[Goal] = Field(default_factory=list, max_length=64)


def read_mcp_entries(path: Path) -> list[McpBootstrapEntry]:
    """The valid ``kind: "mcp"`` entries of the bootstrap file at ``path``; an invalid one is
    logged and skipped (the registry lists it unhealthy). A file that cannot be read gives none:
    the registry reports it."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError):
        return []
    domains = data.get("domains") if isinstance(data, dict) else None
    entries: list[McpBootstrapEntry] = []
    for i, item in enumerate(domains if isinstance(domains, list) else []):
        if not isinstance(item, dict) or item.get("kind") != "mcp":
            continue
        try:
            entry = McpBootstrapEntry.model_validate(item)
        except ValidationError as exc:
            fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors())
            log.error("bootstrap file %s: domains.%d (MCP) is invalid at %s: entry skipped", path, i, fields)
            continue
        if entry.command is not None and not all(entry.command):
            log.error("bootstrap file %s: domains.%d.command has an empty part: entry skipped", path, i)
            continue
        entries.append(entry)
    return entries


def declare_bootstrap_mcp(path: Path, mcp: McpDomains) -> list[str]:
    """Give ``mcp`` the goals of the file's MCP entries and start its stdio servers; returns the
    names of the stdio servers started."""
    started: list[str] = []
    for entry in read_mcp_entries(path):
        if entry.goals or entry.description:
            mcp.configure(entry.name, McpRegistration(description=entry.description, goals=entry.goals))
        if entry.command is not None:
            # the SDK only when a stdio server is declared (orchestrator.mcp_domain says why)
            from mcp.client.stdio import StdioServerParameters

            program, *arguments = entry.command
            mcp.add_stdio(
                entry.name,
                StdioServerParameters(command=program, args=arguments, env=entry.env or None, cwd=entry.cwd),
            )
            started.append(entry.name)
    if started:
        log.info("started stdio MCP server(s): %s", ", ".join(started))
    return started
