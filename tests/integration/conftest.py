"""Fixtures of the integration tests that count what the notifier sent."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import Process, start_domain


@pytest.fixture(scope="module")
def notifier(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    """A notifier of the test module's own: its outbox holds only that module's messages."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    outbox = tmp_path_factory.mktemp(f"{module}-notifier") / "outbox.sqlite3"
    started = start_domain("notifier", {"NOTIFIER_OUTBOX_PATH": str(outbox), "TELEGRAM_BOT_TOKEN": ""})
    try:
        yield started
    finally:
        started.stop()


def sent(notifier: Process) -> int:
    """How many messages ``notifier``'s outbox holds."""
    return int(httpx.get(f"{notifier.url}/outbox", timeout=10).json()["count"])
