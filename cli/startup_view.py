"""What ``make run`` shows while the platform starts: on a terminal a live status line (a progress
bar with an ETA while the intent model trains), otherwise plain log lines; the services' own
output is passed through above it."""

from __future__ import annotations

import threading
import time
from typing import Protocol, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

PREFIX = "launcher: "
#: A plain (non-terminal) display repeats a long phase's line this often, so a log shows it alive.
PLAIN_REPEAT_S = 5.0


class StartupView(Protocol):
    def say(self, text: str) -> None:
        """One finished step, kept on screen."""

    def phase(self, text: str, estimate_s: float | None = None) -> None:
        """A step that takes a while starts; ``estimate_s`` (when known) gives a bar and an ETA."""

    def tick(self) -> None:
        """Called often while waiting: keeps the display moving."""

    def passthrough(self, line: str) -> None:
        """A line a service printed."""

    def close(self) -> None: ...


class PlainView:
    """Log lines, one per step; a long phase is repeated every :data:`PLAIN_REPEAT_S`."""

    def __init__(self, out: TextIO):
        self.out = out
        self._lock = threading.Lock()
        self._phase: tuple[str, float, float | None] | None = None
        self._last_said = 0.0

    def _write(self, text: str) -> None:
        with self._lock:
            self.out.write(text + "\n")
            self.out.flush()

    def say(self, text: str) -> None:
        self._phase = None
        self._write(PREFIX + text)

    def phase(self, text: str, estimate_s: float | None = None) -> None:
        now = time.monotonic()
        self._phase = (text, now, estimate_s)
        self._last_said = now
        expected = f" (about {estimate_s:.0f} s)" if estimate_s else ""
        self._write(f"{PREFIX}{text}{expected}...")

    def tick(self) -> None:
        if self._phase is None:
            return
        text, started, estimate_s = self._phase
        now = time.monotonic()
        if now - self._last_said >= PLAIN_REPEAT_S:
            self._last_said = now
            expected = f" of about {estimate_s:.0f} s" if estimate_s else ""
            self._write(f"{PREFIX}{text}: {now - started:.0f} s{expected}")

    def passthrough(self, line: str) -> None:
        self._write(line)

    def close(self) -> None:
        self._phase = None


class TerminalView:
    """A live line at the bottom of the terminal (rich): spinner, step, bar, elapsed, ETA."""

    def __init__(self, out: TextIO):
        self.console = Console(file=out, highlight=False)
        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self._task: TaskID | None = None
        self._started = 0.0
        self._estimate: float | None = None
        self.progress.start()

    def say(self, text: str) -> None:
        self._end_phase()
        self.console.print(f"[green]✓[/green] {text}")

    def phase(self, text: str, estimate_s: float | None = None) -> None:
        self._end_phase()
        self._started = time.monotonic()
        self._estimate = estimate_s
        self._task = self.progress.add_task(text, total=estimate_s)

    def tick(self) -> None:
        if self._task is None or self._estimate is None:
            return
        # never a full bar before the step says it is done: the estimate is only last time's
        done = min(time.monotonic() - self._started, self._estimate * 0.97)
        self.progress.update(self._task, completed=done)

    def passthrough(self, line: str) -> None:
        self.console.print(line, markup=False, emoji=False)

    def _end_phase(self) -> None:
        if self._task is not None:
            self.progress.remove_task(self._task)
            self._task = None
            # the live region keeps its last frame until redrawn: a finished step must not linger
            self.progress.refresh()

    def close(self) -> None:
        self._end_phase()
        self.progress.stop()


def view_for(out: TextIO) -> StartupView:
    """A live display on a terminal (not ``TERM=dumb``), log lines otherwise."""
    isatty = getattr(out, "isatty", None)
    console = Console(file=out)
    if isatty is not None and isatty() and not console.is_dumb_terminal:
        return TerminalView(out)
    return PlainView(out)
