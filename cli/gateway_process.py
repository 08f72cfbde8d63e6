"""The gateway as the launcher starts it: ``python -m cli.gateway_process``.

The launcher starts it before anything else (its imports are the slowest part of a start, and
they overlap the domains' start); it waits for each domain the launcher starts (the bootstrap
file's entries with a local command) to answer ``/health`` before the gateway learns the catalog
(a domain still starting would be missing from it). Without ``ADMIN_TOKEN`` it gives the gateway
the local admin key of ``var/admin.key`` (:mod:`cli.admin_key`). What the gateway does meanwhile
(migrations, loading or training the intent model) is written as JSON lines to the file
descriptor named by ``LAUNCHER_PROGRESS_FD``, for the launcher's progress display; the gateway's
own log is unchanged.
"""

from __future__ import annotations

import argparse
import faulthandler
import logging
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO
from urllib.request import urlopen

from cli.admin_key import DEFAULT_PATH as ADMIN_KEY_PATH
from cli.admin_key import ensure_admin_key
from cli.bootstrap import Bootstrap
from cli.progress_events import PROGRESS_FD_ENV, ProgressEvent
from gateway.settings import GatewaySettings

#: How long the gateway waits for a domain before it starts without it (the registry retries).
DOMAIN_WAIT_S = 30.0

#: (logger, message template) of the log records that mark a start-up phase -> the phase's name.
PHASES: dict[tuple[str, str], str] = {
    ("alembic.runtime.migration", "Running %s"): "migration",
    ("intent.embedded", "training the intent model of catalog %s: %d goals"): "training",
    ("intent.embedded", "intent model of catalog %s trained in %.1f s"): "trained",
    ("intent.embedded", "intent model of catalog %s loaded from %s"): "loaded",
}


class ProgressHandler(logging.Handler):
    """Writes the records of :data:`PHASES` as ``{"phase": ..., "args": [...]}`` lines."""

    def __init__(self, out: TextIO):
        super().__init__(logging.INFO)
        self.out = out

    def emit(self, record: logging.LogRecord) -> None:
        phase = PHASES.get((record.name, str(record.msg)))
        if phase is None:
            return
        args = record.args if isinstance(record.args, tuple) else ()
        try:
            self.out.write(ProgressEvent(phase, tuple(str(a) for a in args)).to_line())
            self.out.flush()
        except (OSError, ValueError):  # the launcher went away: the gateway goes on without it
            pass


def watch_phases(out: TextIO) -> None:
    """Report the phases' records to ``out``; the handler sits on the loggers themselves, which
    the gateway's logging set-up (it replaces the root's handlers) leaves alone."""
    handler = ProgressHandler(out)
    # levels untouched: with LOG_LEVEL above INFO these records are not made, and the launcher
    # shows only that the gateway is starting
    for name in {logger for logger, _ in PHASES}:
        logging.getLogger(name).addHandler(handler)


def wait_healthy(urls: Sequence[str], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    waiting = list(urls)
    while waiting and time.monotonic() < deadline:
        try:
            with urlopen(f"{waiting[0]}/health", timeout=1.0) as resp:
                if resp.status == 200:
                    waiting.pop(0)
                    continue
        except OSError:
            pass
        time.sleep(0.05)


def _started_by_the_launcher(settings: GatewaySettings) -> list[str]:
    return [domain.url for domain in Bootstrap.read(settings.bootstrap_file).local()]


def main(argv: Sequence[str] | None = None) -> None:
    faulthandler.enable(file=sys.stderr, all_threads=True)
    # as ``python -m gateway``: one OpenBLAS thread, set before numpy loads
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = argparse.ArgumentParser(prog="python -m cli.gateway_process")
    parser.add_argument(
        "--wait-for",
        action="append",
        metavar="URL",
        help="a domain to wait for (default: each one the launcher starts from the bootstrap file)",
    )
    args = parser.parse_args(argv)
    from gateway.app import main as gateway_main  # the slow part, while the domains start

    fd = os.environ.get(PROGRESS_FD_ENV)
    if fd:
        watch_phases(os.fdopen(int(fd), "w", buffering=1, encoding="utf-8"))
    settings = GatewaySettings()
    if settings.admin_token is None:
        os.environ["ADMIN_TOKEN"] = ensure_admin_key(ADMIN_KEY_PATH)
    wait_healthy(args.wait_for or _started_by_the_launcher(settings), DOMAIN_WAIT_S)
    gateway_main()


if __name__ == "__main__":
    main()
