"""The command line: ``orchestrator [ask TEXT | chat] [--url] [--session] [--api-key] [--lang]``.

Every option is accepted before or after the subcommand, and falls back to the environment
names the gateway itself uses, so ``orchestrator chat`` talks to the gateway this shell starts.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Language = Literal["pt", "en"]
Command = Literal["ask", "chat"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = "8000"
#: Hosts a gateway binds to that a client cannot connect to as such.
_ANY_ADDRESS = {"", "0.0.0.0", "::", "[::]"}

EPILOG = """\
environment:
  ORCHESTRATOR_URL           the gateway's URL (default: http://GATEWAY_HOST:GATEWAY_PORT)
  GATEWAY_HOST, GATEWAY_PORT the gateway's own address settings (default 127.0.0.1, 8000)
  ORCHESTRATOR_API_KEY       the bearer key, one of the gateway's API_KEYS
  ORCHESTRATOR_HISTORY_FILE  where chat keeps its line history (default:
                             $XDG_STATE_HOME/orchestrator/history, XDG_STATE_HOME
                             defaulting to ~/.local/state)
  LC_ALL, LC_MESSAGES, LANG  the prompts' language without --lang (pt* is Portuguese)
  NO_COLOR                   plain text, no colours

chat commands: /new  /history  /help  /quit   (Ctrl-D, or Ctrl-C at the prompt, also quit)

API keys: orchestrator keys create --tenant NAME [--role admin|approver] | list | revoke ID
          (on the gateway's database, DATABASE_URL; orchestrator keys --help)

exit status: 0 done, 1 the gateway refused the request, 2 bad usage,
             3 authentication refused (401/403), 4 the gateway could not be reached
"""


@dataclass(frozen=True)
class CliOptions:
    command: Command
    url: str
    api_key: str | None
    session: str | None
    language: Language
    history_file: Path
    text: str = ""


def default_url(env: Mapping[str, str]) -> str:
    """``ORCHESTRATOR_URL``, else the address the gateway itself listens on.

    >>> default_url({"GATEWAY_PORT": "8123"})
    'http://127.0.0.1:8123'
    >>> default_url({"GATEWAY_HOST": "0.0.0.0", "GATEWAY_PORT": "9000"})
    'http://127.0.0.1:9000'
    >>> default_url({"ORCHESTRATOR_URL": "https://gw.example/", "GATEWAY_PORT": "9000"})
    'https://gw.example'
    """
    explicit = env.get("ORCHESTRATOR_URL", "").strip()
    if explicit:
        return explicit.rstrip("/")
    host = env.get("GATEWAY_HOST", "").strip()
    host = DEFAULT_HOST if host in _ANY_ADDRESS else host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    port = env.get("GATEWAY_PORT", "").strip() or DEFAULT_PORT
    return f"http://{host}:{port}"


def language_from(env: Mapping[str, str]) -> Language:
    """The locale's language, POSIX order (``LC_ALL`` > ``LC_MESSAGES`` > ``LANG``): pt or en.

    >>> language_from({"LANG": "pt_BR.UTF-8"}), language_from({"LANG": "pt_BR.UTF-8", "LC_ALL": "C"})
    ('pt', 'en')
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:
            return "pt" if value.lower().startswith("pt") else "en"
    return "en"


def history_path(env: Mapping[str, str]) -> Path:
    """``ORCHESTRATOR_HISTORY_FILE``, else ``$XDG_STATE_HOME/orchestrator/history`` (XDG's
    default ``~/.local/state``).

    >>> history_path({"XDG_STATE_HOME": "/tmp/state"}).as_posix()
    '/tmp/state/orchestrator/history'
    """
    explicit = env.get("ORCHESTRATOR_HISTORY_FILE", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    state = env.get("XDG_STATE_HOME", "").strip()
    base = Path(state).expanduser() if state else Path.home() / ".local" / "state"
    return base / "orchestrator" / "history"


def _common_options(env: Mapping[str, str]) -> argparse.ArgumentParser:
    # SUPPRESS: an option absent after the subcommand must not overwrite one given before it
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--url",
        default=argparse.SUPPRESS,
        help=f"the gateway's URL (env ORCHESTRATOR_URL; now {default_url(env)})",
    )
    common.add_argument(
        "--session",
        default=argparse.SUPPRESS,
        metavar="ID",
        help="continue this session (default: a new one)",
    )
    common.add_argument(
        "--api-key",
        default=argparse.SUPPRESS,
        metavar="KEY",
        help="bearer key (env ORCHESTRATOR_API_KEY)",
    )
    common.add_argument(
        "--lang",
        default=argparse.SUPPRESS,
        choices=["pt", "en"],
        help=f"the prompts' language (default from LC_ALL/LANG; now {language_from(env)})",
    )
    return common


def build_parser(env: Mapping[str, str]) -> argparse.ArgumentParser:
    common = _common_options(env)
    parser = argparse.ArgumentParser(
        prog="orchestrator",
        description="Talk to a running gateway from the terminal.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", metavar="{chat,ask}")
    sub.add_parser(
        "chat",
        parents=[common],
        help="interactive conversation (the default)",
        description="Interactive conversation with line editing, history and streamed answers.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ask = sub.add_parser(
        "ask",
        parents=[common],
        help="send one message and print the answer",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ask.add_argument("text", help="the message")
    return parser


def parse_options(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> CliOptions:
    """The options, from ``argv`` and then ``env``; argparse exits 2 on bad usage.

    >>> o = parse_options(["chat", "--session", "s1"], {"GATEWAY_PORT": "8123", "LANG": "pt_BR"})
    >>> (o.command, o.session, o.url, o.language)
    ('chat', 's1', 'http://127.0.0.1:8123', 'pt')
    """
    env = os.environ if env is None else env
    args = build_parser(env).parse_args(argv)
    values = vars(args)
    api_key = values.get("api_key") or env.get("ORCHESTRATOR_API_KEY", "").strip() or None
    session = (values.get("session") or "").strip() or None
    return CliOptions(
        command=values.get("command") or "chat",
        url=str(values.get("url") or default_url(env)).rstrip("/"),
        api_key=api_key,
        session=session,
        language=values.get("lang") or language_from(env),
        history_file=history_path(env),
        text=values.get("text", ""),
    )
