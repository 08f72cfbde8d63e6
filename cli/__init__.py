"""CLI channel: talk to a running gateway from the terminal.

``orchestrator chat --session my-session`` (line editing, history, streamed answers) and
``orchestrator ask "qual o preço da Vale?"``; ``orchestrator --help`` lists the options and the
environment they default from. ``orchestrator keys ...`` manages API keys (:mod:`cli.keys`).
"""

from cli.app import main

__all__ = ["main"]
