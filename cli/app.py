"""``main``: options in, an exit status out; no traceback ever reaches the person."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

from cli.chat import Chat
from cli.client import AuthRefused, CliError, GatewayClient, GatewayUnreachable
from cli.lines import LineReader, ReadlineReader
from cli.options import CliOptions, parse_options
from cli.render import Renderer, colours_wanted
from cli.texts import Texts, texts_for

#: The shell's convention for a process stopped by Ctrl-C.
EXIT_INTERRUPTED = 130


def _explain(error: CliError, options: CliOptions, texts: Texts) -> str:
    if isinstance(error, AuthRefused):
        return texts.auth_refused.format(url=options.url, status=error.status, message=error.message)
    if isinstance(error, GatewayUnreachable):
        return texts.unreachable.format(url=options.url, reason=error.message)
    return texts.refused.format(status=error.status or "-", message=error.message)


def run(
    options: CliOptions,
    *,
    reader: LineReader | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    texts = texts_for(options.language)
    view = Renderer(out, texts, colours_wanted(out, os.environ))
    try:
        with GatewayClient(options.url, options.api_key) as client:
            if options.command == "ask":
                answer, session = client.ask(options.text, options.session)
                out.write(answer.rstrip("\n") + "\n")
                err.write(texts.session.format(session=session) + "\n")
                return 0
            chat = Chat(client, reader or ReadlineReader(options.history_file), view, options.session)
            return chat.run()
    except CliError as error:
        view.end_line()
        err.write(_explain(error, options, texts) + "\n")
        return error.exit_status
    except KeyboardInterrupt:
        view.end_line()
        return EXIT_INTERRUPTED


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["keys"]:
        # imported here: chat and ask need no database driver
        from cli import keys

        return keys.main(args[1:])
    try:
        return run(parse_options(args))
    except KeyboardInterrupt:  # Ctrl-C before the client was up
        return EXIT_INTERRUPTED
