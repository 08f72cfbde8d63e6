"""CLI channel: talk to a running gateway from the terminal.

orchestrator ask "qual o preço da Vale?"
orchestrator chat --session my-session
"""

from __future__ import annotations

import argparse
import os
import sys

import httpx


def _post(client: httpx.Client, text: str, session_id: str | None) -> tuple[str, str]:
    response = client.post("/v1/runs", json={"input_text": text, "session_id": session_id})
    body = response.json()
    if response.status_code != 200:
        return body.get("error", {}).get("message", f"HTTP {response.status_code}"), session_id or ""
    return body["answer"], body["session_id"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="orchestrator", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--url", default=os.environ.get("ORCHESTRATOR_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--session", default=None, help="session id (default: a new one)")
    sub = parser.add_subparsers(dest="command", required=True)
    ask = sub.add_parser("ask", help="send one message and print the answer")
    ask.add_argument("text")
    sub.add_parser("chat", help="interactive conversation (empty line or Ctrl-D quits)")
    args = parser.parse_args(argv)
    headers = (
        {"Authorization": f"Bearer {os.environ['ORCHESTRATOR_API_KEY']}"}
        if os.environ.get("ORCHESTRATOR_API_KEY")
        else {}
    )
    with httpx.Client(base_url=args.url, headers=headers, timeout=60) as client:
        try:
            if args.command == "ask":
                answer, session = _post(client, args.text, args.session)
                print(answer)
                print(f"(session {session})", file=sys.stderr)
                return 0
            session = args.session
            while True:
                try:
                    text = input("você> ").strip()
                except EOFError:
                    return 0
                if not text:
                    return 0
                answer, session = _post(client, text, session)
                print(f"orquestrador> {answer}")
        except httpx.HTTPError as exc:
            print(f"cannot reach the gateway at {args.url}: {exc.__class__.__name__}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    raise SystemExit(main())
