"""A gateway that wants an API key, for the CLI's authentication errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import Process, gateway_over

API_KEY = "cli-test-key"


@pytest.fixture(scope="module")
def locked_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    """A real gateway whose ``/v1/*`` needs ``Authorization: Bearer cli-test-key``."""
    with gateway_over(
        domain_processes, tmp_path_factory.mktemp("locked-gateway"), {"API_KEYS": API_KEY}
    ) as gateway:
        yield gateway
