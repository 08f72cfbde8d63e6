"""``python -m cli.settings_table [--check]``: write (or check) the environment table of
docs/operations.md; the generator is :mod:`gateway.settings_table`."""

from __future__ import annotations

from gateway.settings_table import main

if __name__ == "__main__":
    raise SystemExit(main())
