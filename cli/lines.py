"""Reading the person's lines: GNU readline (arrow keys, Ctrl-R, ↑/↓) with a history file that
outlives the session; plain ``input()`` where readline is missing."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Protocol

#: Lines kept in the history file.
HISTORY_LINES = 1000


class LineReader(Protocol):
    def read(self, prompt: str) -> str:
        """One line; ``EOFError`` on Ctrl-D, ``KeyboardInterrupt`` on Ctrl-C."""
        ...


class ReadlineReader:
    """``input()`` with readline's line editing, and every line appended to ``history_file`` as
    soon as it is read (a crash or a kill loses none)."""

    def __init__(self, history_file: Path):
        self.history_file = history_file
        try:
            import readline
        except ImportError:  # no readline on this platform: plain input, no history
            self._readline = None
            return
        self._readline = readline
        readline.set_history_length(HISTORY_LINES)
        # a history we cannot read or create is no reason not to chat
        with contextlib.suppress(OSError):
            history_file.parent.mkdir(parents=True, exist_ok=True)
            if history_file.exists():
                readline.read_history_file(str(history_file))

    def read(self, prompt: str) -> str:
        line = input(prompt)
        if self._readline is not None and line.strip():
            with contextlib.suppress(OSError):
                if not self.history_file.exists():
                    self.history_file.touch(mode=0o600)
                self._readline.append_history_file(1, str(self.history_file))
                self._readline.set_history_length(HISTORY_LINES)
        return line
