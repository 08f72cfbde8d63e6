"""The bootstrap file as the launcher and its gateway process read it: which domains are started
here, on which URL, with which command."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from pydantic import BaseModel, Field, ValidationError

from shared.domain_urls import env_override


class BootstrapUnreadable(Exception):
    """The bootstrap file exists but is not a valid ``{"domains": [...]}`` document."""


class BootstrapDomain(BaseModel):
    """A domain entry of the bootstrap file, as far as the launcher reads it."""

    name: str
    #: "mcp": an MCP server, which the gateway itself reaches (or starts, over stdio)
    kind: str = "http"
    base_url: str = ""
    #: how to start it locally; none: it runs elsewhere and is only registered
    command: list[str] | None = None

    @property
    def local_command(self) -> list[str] | None:
        """The command the launcher starts it with: an HTTP domain's; ``None`` for one that runs
        elsewhere, and for an MCP server (the gateway runs its command, over stdio, with no port)."""
        return None if self.kind == "mcp" or not self.command else self.command


class Bootstrap(BaseModel):
    domains: list[BootstrapDomain] = Field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> Bootstrap:
        """The file at ``path``; no domains when there is none (the gateway starts with none too)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            raise BootstrapUnreadable(f"{path}: {exc.strerror}") from None
        try:
            return cls.model_validate_json(text)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or '$'}: {e['msg']}" for e in exc.errors(include_url=False)
            )
            raise BootstrapUnreadable(f"{path}: {problems}") from None

    def local(self) -> list[LocalDomain]:
        """The entries the launcher starts, each with where it listens."""
        return [
            LocalDomain(entry.name, domain_url(entry).rstrip("/"), command)
            for entry in self.domains
            if (command := entry.local_command) is not None
        ]


@dataclass(frozen=True, slots=True)
class LocalDomain:
    """A domain the launcher starts: its name, base URL and command."""

    name: str
    url: str
    command: list[str]

    def argv(self) -> list[str]:
        address = urlparse(self.url)
        return domain_argv(self.command, address.hostname or "127.0.0.1", address.port or 80)


def domain_url(entry: BootstrapDomain) -> str:
    return env_override(entry.name) or entry.base_url


def domain_argv(command: list[str], host: str, port: int) -> list[str]:
    """A bootstrap entry's ``command``, run by this Python, listening on ``host:port``."""
    program = sys.executable if command[0] == "python" else command[0]
    return [program, *command[1:], "--host", host, "--port", str(port)]
