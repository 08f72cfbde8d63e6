"""Fixtures of the standing-request tests: a price domain whose series the test writes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Process, start_fixture_domain


@pytest.fixture(scope="session")
def price_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("prices") / "price.txt"
    path.write_text("30")
    return path


@pytest.fixture(scope="session")
def tickers(price_file: Path) -> Iterator[Process]:
    mp = pytest.MonkeyPatch()
    mp.setenv("SCRIPTED_PRICE_FILE", str(price_file))
    try:
        process = start_fixture_domain("scripted_price_domain")
    finally:
        mp.undo()
    try:
        yield process
    finally:
        process.stop()
