"""CLI channel: talk to a running gateway from the terminal.

``orchestrator chat --session my-session`` (line editing, history, streamed answers) and
``orchestrator ask "qual o preço da Vale?"``; ``orchestrator --help`` lists the options and the
environment they default from. ``orchestrator keys ...`` manages API keys (:mod:`cli.keys`).
"""

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """The ``orchestrator`` command (:func:`cli.app.main`), imported on use: ``python -m
    cli.launcher`` and ``cli.gateway_process`` load this package too and need none of it."""
    from cli.app import main as run

    return run(argv)


__all__ = ["main"]
