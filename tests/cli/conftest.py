"""A gateway that wants an API key, for the CLI's authentication errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import Process, start_gateway, write_bootstrap

API_KEY = "cli-test-key"


@pytest.fixture(scope="module")
def locked_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A real gateway whose ``/v1/*`` needs ``Authorization: Bearer cli-test-key``."""
    work = tmp_path_factory.mktemp("locked-gateway")
    bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in domain_processes.items()})
    gateway = start_gateway(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
            "BOOTSTRAP_FILE": str(bootstrap),
            "API_KEYS": API_KEY,
            "REDIS_URL": "",
        }
    )
    try:
        yield gateway
    finally:
        gateway.stop()
