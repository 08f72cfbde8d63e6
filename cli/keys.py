"""``orchestrator keys create|list|revoke``: the gateway's API keys, managed in its database.

It talks to the database directly (``DATABASE_URL``, or ``--database-url``), not to a gateway, so
the first admin key can be made before any gateway runs and without ``ADMIN_TOKEN``. The schema is
migrated first, as a gateway does at start. Gateways see a new key at once, a revoked one within
their ``AUTH_CACHE_S``. ``create`` prints the key alone on stdout (``KEY=$(orchestrator keys
create --tenant acme)``) and what it made on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from pydantic import ValidationError

from cli.options import language_from
from cli.texts import KeyTexts, key_texts_for
from gateway.settings import GatewaySettings
from gateway.storage.migrate import upgrade
from gateway.storage.principals import KeyStore, KeyView, NewKey
from shared.db import create_engine
from shared.errors import PlatformError

#: Exit statuses, as the rest of the CLI: 1 refused (bad tenant, unknown key), 2 bad usage.
EXIT_REFUSED = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orchestrator keys",
        description="Create, list and revoke the gateway's API keys (stored hashed in its database).",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="the gateway's database (default: DATABASE_URL, as the gateway reads it)",
    )
    parser.add_argument("--lang", choices=["pt", "en"], default=None, help="the messages' language")
    sub = parser.add_subparsers(dest="action", required=True, metavar="{create,list,revoke}")
    create = sub.add_parser("create", help="make a key (printed once) for a tenant")
    create.add_argument("--tenant", required=True, help="the tenant the key acts as (e.g. acme)")
    create.add_argument("--role", choices=["user", "admin", "approver"], default="user")
    create.add_argument("--label", default="", help="a note for people: who holds the key")
    sub.add_parser("list", help="every stored key, without secrets")
    revoke = sub.add_parser("revoke", help="revoke a key by its id")
    revoke.add_argument("id", help="the key's id (key_...), as listed")
    return parser


def _line(key: KeyView, texts: KeyTexts) -> str:
    state = texts.revoked_on.format(when=key.revoked_at.isoformat()) if key.revoked_at else texts.active
    return "\t".join([key.id, key.tenant, key.role, key.created_at.isoformat(), state, key.label])


async def _act(args: argparse.Namespace, texts: KeyTexts, out: TextIO, err: TextIO) -> int:
    engine = create_engine(args.database_url or GatewaySettings().database_url)
    try:
        await upgrade(engine)
        keys = KeyStore(engine)
        if args.action == "create":
            created = await keys.create(NewKey(tenant=args.tenant, role=args.role, label=args.label))
            out.write(created.key + "\n")
            err.write(texts.created.format(id=created.id, tenant=created.tenant, role=created.role) + "\n")
            return 0
        if args.action == "list":
            listed = await keys.list()
            for key in listed:
                out.write(_line(key, texts) + "\n")
            if not listed:
                err.write(texts.no_keys + "\n")
            return 0
        revoked = await keys.revoke(args.id)
        if revoked is None:
            err.write(texts.no_such_key.format(id=args.id) + "\n")
            return EXIT_REFUSED
        err.write(texts.revoked.format(id=revoked.id) + "\n")
        return 0
    finally:
        await engine.dispose()


def main(argv: Sequence[str], *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    texts = key_texts_for(args.lang or language_from(os.environ))
    err = err or sys.stderr
    try:
        return asyncio.run(_act(args, texts, out or sys.stdout, err))
    except ValidationError as exc:  # the tenant's spelling
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        err.write(texts.refused.format(message=f"{where}: {first['msg']}") + "\n")
        return EXIT_REFUSED
    except PlatformError as exc:
        err.write(texts.refused.format(message=exc.message) + "\n")
        return EXIT_REFUSED
