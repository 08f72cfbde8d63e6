"""Apply the Alembic migrations (``python -m gateway.storage.migrate``); the gateway also runs this at start.

Several gateways may start at once against one PostgreSQL: an advisory lock serialises them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from shared.db import create_engine, normalise_url

MIGRATIONS = Path(__file__).parent / "migrations"
_LOCK_KEY = 746_281_001  # arbitrary, constant: the migration advisory lock


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    return cfg


def _upgrade(connection: Connection, cfg: Config, revision: str) -> None:
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    cfg = alembic_config(str(engine.url.render_as_string(hide_password=False)))
    async with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        await conn.run_sync(_upgrade, cfg, revision)


async def _main(url: str) -> None:
    engine = create_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


def main() -> None:
    from gateway.settings import GatewaySettings

    settings = GatewaySettings()
    asyncio.run(_main(settings.database_url))
    print(f"database migrated: {normalise_url(settings.database_url).split('@')[-1]}")


if __name__ == "__main__":
    main()
