"""A database URL per SQL backend: the same tests run on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file in ``tmp_path``, or a fresh PostgreSQL database (``pg_database_url``)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite3'}"
    return str(request.getfixturevalue("pg_database_url"))
