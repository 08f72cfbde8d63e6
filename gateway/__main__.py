"""``python -m gateway``: the gateway process.

``faulthandler`` is on before anything else loads: a fatal signal (SIGSEGV, SIGBUS from a
SQLite file whose shared memory cannot be written, SIGABRT...) leaves the Python traceback of
every thread on stderr instead of a process that vanished without a line.
"""

import faulthandler
import os
import sys


def run() -> None:
    faulthandler.enable(file=sys.stderr, all_threads=True)
    # before numpy loads: its OpenBLAS would split every small matrix product of intent training
    # over all cores, and on a busy machine those threads mostly wait for each other (a warm
    # start took 2-3 times longer); as the sentence encoder, one thread (an operator may set more)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from gateway.app import main

    main()


run()
