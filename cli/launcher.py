"""``make run``: start every domain in the bootstrap file and the gateway as local processes, say
what is happening until the gateway's ``/ready`` passes, then print where it is; Ctrl-C (or
SIGTERM) stops them all.

Each domain entry's ``command`` is started with ``--host``/``--port`` taken from its ``base_url``
(or ``DOMAIN_URL_<NAME>``, read by :func:`shared.domain_urls.env_override` as the registry
reads it), so the same file drives the registry and the launcher (:mod:`cli.bootstrap`).

The gateway (:mod:`cli.gateway_process`) is started first, before this module loads anything
but the standard library: its imports are the longest part of a start, and the launcher's own
(its settings, the progress display) would otherwise delay them by a third of a second. It
waits for the domains before it learns the catalog. The rest is :func:`cli.supervisor.supervise`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import NoReturn

from cli.progress_events import PROGRESS_FD_ENV


def start_gateway() -> tuple[subprocess.Popen[bytes], int]:
    """The gateway process, its output a pipe, and the file descriptor its start-up phases
    arrive on."""
    read_fd, write_fd = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli.gateway_process"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, PROGRESS_FD_ENV: str(write_fd)},
            pass_fds=(write_fd,),
        )
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    return proc, read_fd


def _interrupt(*_: object) -> NoReturn:
    raise KeyboardInterrupt


def main() -> int:
    signal.signal(signal.SIGTERM, _interrupt)
    gateway, progress_fd = start_gateway()
    try:
        from cli.supervisor import supervise  # the launcher's own imports, while the gateway starts

        return supervise(gateway, progress_fd)
    except KeyboardInterrupt:
        return 0
    finally:
        if gateway.poll() is None:  # the supervisor did not start (it stops what it started)
            gateway.terminate()
            try:
                gateway.wait(timeout=10)
            except subprocess.TimeoutExpired:
                gateway.kill()


if __name__ == "__main__":
    raise SystemExit(main())
