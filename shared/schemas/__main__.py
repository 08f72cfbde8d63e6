"""``python -m shared.schemas`` rewrites the published JSON Schemas; ``--check`` only lists the
stale ones and exits 1 if there are any."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shared.schemas import SCHEMA_DIR, stale, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the published JSON Schemas from the models")
    parser.add_argument("--check", action="store_true", help="list stale schemas, exit 1 if any")
    parser.add_argument("--dir", type=Path, default=SCHEMA_DIR, help="where the schemas are published")
    args = parser.parse_args(argv)
    if args.check:
        outdated = stale(args.dir)
        for name in outdated:
            print(f"stale: {args.dir / name} (run python -m shared.schemas)", file=sys.stderr)
        return 1 if outdated else 0
    for name in write(args.dir):
        print(f"wrote {args.dir / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
