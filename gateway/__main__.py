"""``python -m gateway``: the gateway process.

``faulthandler`` is on before anything else loads: a fatal signal (SIGSEGV, SIGBUS from a
SQLite file whose shared memory cannot be written, SIGABRT...) leaves the Python traceback of
every thread on stderr instead of a process that vanished without a line.
"""

import faulthandler
import sys


def run() -> None:
    faulthandler.enable(file=sys.stderr, all_threads=True)
    from gateway.app import main

    main()


run()
