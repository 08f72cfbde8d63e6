"""``orchestrator chat`` in a real terminal (tmux): keys typed with send-keys, the screen read
with capture-pane. Arrow keys edit the line, the history outlives the process, Ctrl-C and
Ctrl-D leave without a traceback."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, Process, unavailable

pytestmark = pytest.mark.integration

#: A turn may wait on the intent model and a domain on a busy machine.
SCREEN_TIMEOUT_S = 90.0
POLL_S = 0.1


class Terminal:
    """One tmux server of our own (its own socket), one window running ``command``."""

    def __init__(self, command: str, width: int = 200, height: int = 50):
        self.socket = f"cli-test-{uuid.uuid4().hex[:8]}"
        self._tmux("new-session", "-d", "-s", "chat", "-x", str(width), "-y", str(height), command)
        self.socket_path = Path(self._tmux("display-message", "-p", "#{socket_path}").strip())

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-u", "-f", "/dev/null", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=30,
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {args[0]} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def screen(self, escapes: bool = False) -> str:
        """Everything shown so far, scrollback included, wrapped lines joined; ``escapes`` keeps
        the colour codes."""
        colour = ["-e"] if escapes else []
        return self._tmux("capture-pane", "-p", *colour, "-J", "-S", "-1000", "-t", "chat")

    def last_line(self) -> str:
        lines = [line for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "chat", "-l", text)

    def press(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "chat", *keys)

    def wait_for(self, shown: Callable[[Terminal], bool], what: str) -> None:
        deadline = time.monotonic() + SCREEN_TIMEOUT_S
        while not shown(self):
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {what}:\n{self.screen()}")
            time.sleep(POLL_S)

    def wait_for_text(self, text: str, count: int = 1) -> None:
        self.wait_for(lambda t: t.screen().count(text) >= count, repr(text))

    def wait_for_prompt(self, prompt: str) -> None:
        self.wait_for(lambda t: t.last_line().rstrip() == prompt.rstrip(), f"the prompt {prompt!r}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)
        self.socket_path.unlink(missing_ok=True)


@pytest.fixture
def terminal_for(tmp_path: Path) -> Iterator[Callable[[str], Terminal]]:
    if shutil.which("tmux") is None:
        unavailable("tmux (apt-get install -y tmux)")
    opened: list[Terminal] = []

    def open_terminal(command: str) -> Terminal:
        opened.append(Terminal(command))
        return opened[-1]

    yield open_terminal
    for terminal in opened:
        terminal.close()


def test_a_conversation_in_a_real_terminal(
    platform: Process, tmp_path: Path, terminal_for: Callable[[str], Terminal]
) -> None:
    session = f"tty-{uuid.uuid4().hex[:12]}"
    history_file = tmp_path / "state" / "history"
    cli = shlex.join([sys.executable, "-m", "cli", "chat", "--session", session, "--url", platform.url])
    env = shlex.join(
        [
            "env",
            "-u",
            "LC_ALL",
            "-u",
            "NO_COLOR",
            "LANG=C.UTF-8",
            "LC_MESSAGES=pt_BR.UTF-8",
            f"ORCHESTRATOR_HISTORY_FILE={history_file}",
            f"PYTHONPATH={ROOT}",
        ]
    )
    # two runs one after the other: the second must find the first one's history; the shell
    # itself survives the Ctrl-C sent to the first (a trap, unlike an ignore, is not inherited)
    run_once = f'{env} {cli}; echo "[exited $?]"'
    script = f"trap : INT; cd {shlex.quote(str(ROOT))}; {run_once}; {run_once}"
    term = terminal_for(f"sh -c {shlex.quote(script + '; exec sleep 600')}")

    term.wait_for_text("Conectado a")
    term.wait_for_prompt("você›")
    term.type("qual o preço da Nordea?")
    term.press("Enter")
    term.wait_for_text("? 1–2: Responda com o número ou com suas palavras.")
    term.wait_for_prompt("você ?›")
    assert "2. Nordea Bank Abp (Helsinki) — Nasdaq Helsinki (EUR) — NDA-FI.HE" in term.screen()
    # highlighted: the hint is drawn in the question's colour (bold yellow)
    coloured = term.screen(escapes=True)
    assert "\x1b[1m\x1b[33m? 1–2:" in coloured or "\x1b[1;33m? 1–2:" in coloured

    # "x2", cursor back to the start, delete the "x": the arrows edit the line, they are not text
    term.type("x2")
    term.press("Left", "Left", "DC")
    term.wait_for(lambda t: t.last_line().rstrip() == "você ?› 2", "the edited line 'você ?› 2'")
    term.press("Enter")
    term.wait_for_prompt("você›")
    turns = httpx.get(f"{platform.url}/v1/sessions/{session}/history", timeout=10).json()["turns"]
    assert turns[-1]["status"] == "completed", turns[-1]
    assert "NDA-FI.HE" in turns[-1]["answer"]
    assert "[D" not in term.screen()

    # ↑ brings back the last line; Ctrl-C at the prompt quits, status 0, no traceback
    term.press("Up")
    term.wait_for(lambda t: t.last_line().rstrip() == "você› 2", "the recalled line 'você› 2'")
    term.press("C-c")
    term.wait_for_text("[exited 0]")
    assert "Traceback" not in term.screen()
    assert history_file.read_text().splitlines()[-2:] == ["qual o preço da Nordea?", "2"]

    # the second run: ↑ ↑ walks the first run's history; Ctrl-D on an empty line quits
    term.wait_for_text("Conectado a", count=2)
    term.wait_for_prompt("você›")
    term.press("Up", "Up")
    term.wait_for(
        lambda t: t.last_line().rstrip() == "você› qual o preço da Nordea?", "the first run's first line"
    )
    term.press("C-u", "C-d")
    term.wait_for_text("[exited 0]", count=2)
    screen = term.screen()
    assert "Traceback" not in screen
    assert screen.count("Até mais!") == 2
