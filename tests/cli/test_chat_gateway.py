"""The CLI against a real gateway process and real domains: streamed turns, the pending
question, slash commands, and the exit status of every way it can fail."""

from __future__ import annotations

import io
import subprocess
import sys
import uuid
from collections.abc import Iterable
from pathlib import Path

import httpx
import pytest

from cli.app import run
from cli.options import CliOptions, Language
from tests.cli.conftest import API_KEY
from tests.conftest import ROOT, Process, free_port

pytestmark = pytest.mark.integration


class ScriptedLines:
    """The person at the keyboard: each line in turn, then Ctrl-D (``EOFError``);
    ``KeyboardInterrupt`` in the script stands for Ctrl-C."""

    def __init__(self, lines: Iterable[str | type[BaseException]]):
        self.lines = list(lines)
        self.prompts: list[str] = []

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, type):
            raise line
        return line


def options(
    url: str,
    tmp_path: Path,
    *,
    session: str | None = None,
    language: Language = "pt",
    api_key: str | None = None,
    command: str = "chat",
    text: str = "",
) -> CliOptions:
    return CliOptions(
        command="ask" if command == "ask" else "chat",
        url=url,
        api_key=api_key,
        session=session,
        language=language,
        history_file=tmp_path / "history",
        text=text,
    )


def chat(opts: CliOptions, lines: ScriptedLines) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(opts, reader=lines, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def new_session() -> str:
    return f"cli-{uuid.uuid4().hex[:12]}"


def test_a_clarification_is_shown_with_numbered_options_and_answered_by_number(
    platform: Process, tmp_path: Path
) -> None:
    session = new_session()
    lines = ScriptedLines(["qual o preço da Nordea?", "2", "/quit"])
    status, out, err = chat(options(platform.url, tmp_path, session=session), lines)
    assert (status, err) == (0, ""), out
    # the gateway's text lists the options numbered: the CLI adds how to answer, not a second list
    asked = out.split("Encontrei mais de um ticker para 'Nordea'. Qual deles?\n", 1)[1].splitlines()
    assert asked[:4] == [
        "1. Nordea Bank Abp (Stockholm) — Nasdaq Stockholm (SEK) — NDA-SE.ST",
        "2. Nordea Bank Abp (Helsinki) — Nasdaq Helsinki (EUR) — NDA-FI.HE",
        "Responda com o número ou o nome.",
        "? 1–2: Responda com o número ou com suas palavras.",
    ]
    assert "Opções:" not in out
    # the prompt says a question is pending, then goes back to normal once it is answered
    assert lines.prompts == ["você› ", "você ?› ", "você› "]
    answered = httpx.get(f"{platform.url}/v1/sessions/{session}/history", timeout=10).json()["turns"][-1]
    assert answered["status"] == "completed"
    assert "NDA-FI.HE" in answered["answer"]
    assert out.rstrip().endswith("Até mais!")
    assert answered["answer"].split()[0] in out.split("? 1–2:")[1]


def test_an_english_cli_asked_in_portuguese_answers_about_the_question_in_portuguese(
    platform: Process, tmp_path: Path
) -> None:
    """One language per exchange: the gateway asks in the person's language, and the CLI's hint
    and prompt follow it, whatever --lang says."""
    session = new_session()
    lines = ScriptedLines(["qual o preço da Nordea?", "/quit"])
    status, out, err = chat(options(platform.url, tmp_path, session=session, language="en"), lines)
    assert (status, err) == (0, ""), out
    assert "? 1–2: Responda com o número ou com suas palavras." in out
    assert "Reply with" not in out
    assert lines.prompts == ["you› ", "você ?› "]
    # the inspector names the channel truly: the CLI's, though it speaks the OpenAI API
    listed = httpx.get(f"{platform.url}/v1/sessions", params={"q": session}, timeout=10).json()["data"]
    assert [s["channel"] for s in listed] == ["cli"]


def test_a_new_session_is_reported_and_history_and_new_work(platform: Process, tmp_path: Path) -> None:
    lines = ScriptedLines(
        ["/history", "what is the price of Apple?", "/history", "/new", "/history", "/help"]
    )
    status, out, _ = chat(options(platform.url, tmp_path, language="en"), lines)
    assert status == 0
    assert out.count("No session yet: send a message first.") == 2  # before the first message and after /new
    assert out.count("New session: the next message starts a new conversation.") == 1
    created = [line for line in out.splitlines() if line.startswith("session ")]
    assert len(created) == 1
    session = created[0].removeprefix("session ")
    turns = httpx.get(f"{platform.url}/v1/sessions/{session}/history", timeout=10).json()["turns"]
    assert len(turns) == 1
    assert f"{turns[0]['event_id']} you: what is the price of Apple?" in out
    assert f"orchestrator: {turns[0]['answer']}" in out
    assert "/history   show this session's messages" in out
    assert out.rstrip().endswith("Bye!")


def test_resuming_a_session_with_a_pending_question_shows_it(platform: Process, tmp_path: Path) -> None:
    session = new_session()
    status, _, _ = chat(
        options(platform.url, tmp_path, session=session), ScriptedLines(["qual o preço da Nordea?"])
    )
    assert status == 0
    lines = ScriptedLines([])
    status, out, _ = chat(options(platform.url, tmp_path, session=session), lines)
    assert status == 0
    assert f"sessão {session}" in out
    assert "? Encontrei mais de um ticker para 'Nordea'" in out
    assert "2. Nordea Bank Abp (Helsinki) — Nasdaq Helsinki (EUR) — NDA-FI.HE" in out
    assert "? 1–2: Responda com o número ou com suas palavras." in out
    assert lines.prompts == ["você ?› "]


def test_unknown_commands_and_refused_messages_leave_the_chat_running(
    platform: Process, tmp_path: Path
) -> None:
    lines = ScriptedLines(["/frobnicate", "x" * 20_001, "/quit"])
    status, out, _ = chat(options(platform.url, tmp_path, language="en"), lines)
    assert status == 0
    assert "Unknown command: /frobnicate" in out
    assert len(lines.prompts) == 3
    assert out.rstrip().endswith("Bye!")


def test_ctrl_c_at_the_prompt_quits_cleanly(platform: Process, tmp_path: Path) -> None:
    status, out, err = chat(
        options(platform.url, tmp_path, language="en"), ScriptedLines([KeyboardInterrupt])
    )
    assert (status, err) == (0, "")
    assert out.rstrip().endswith("Bye!")


def test_ask_prints_the_answer_and_the_session(platform: Process, tmp_path: Path) -> None:
    session = new_session()
    out, err = io.StringIO(), io.StringIO()
    status = run(
        options(platform.url, tmp_path, command="ask", text="qual o preço da Nordea?", session=session),
        out=out,
        err=err,
    )
    assert status == 0
    assert out.getvalue().startswith("Encontrei mais de um ticker para 'Nordea'")
    assert err.getvalue() == f"sessão {session}\n"


@pytest.mark.parametrize("key", [None, "wrong-key"])
def test_a_refused_key_exits_3_with_a_clear_message(
    locked_gateway: Process, tmp_path: Path, key: str | None
) -> None:
    for command in ("chat", "ask"):
        lines = ScriptedLines(["never sent"])
        status, _, err = chat(
            options(locked_gateway.url, tmp_path, language="en", api_key=key, command=command, text="hi"),
            lines,
        )
        assert status == 3, command
        assert f"The gateway at {locked_gateway.url} refused the key (401)" in err
        assert "ORCHESTRATOR_API_KEY" in err
        assert lines.lines == ["never sent"]  # chat stops before its first prompt


def test_the_right_key_is_let_in(locked_gateway: Process, tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = run(
        options(locked_gateway.url, tmp_path, api_key=API_KEY, command="ask", text="olá"),
        out=out,
        err=err,
    )
    assert status == 0, err.getvalue()
    assert out.getvalue().strip()


def test_no_gateway_exits_4_without_a_traceback(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    for argv in (["chat"], ["ask", "hi"]):
        done = subprocess.run(
            [sys.executable, "-m", "cli", *argv, "--url", url, "--lang", "en"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 4, done.stderr
        assert done.stderr.startswith(f"Cannot reach the gateway at {url}: ")
        assert "Traceback" not in done.stderr + done.stdout
