"""The launcher's start-up display and the gateway's phase reports, without processes."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest

from cli import startup_view
from cli.gateway_process import ProgressHandler
from cli.progress_events import ProgressEvent
from cli.startup_view import PlainView, TerminalView, view_for
from cli.supervisor import Startup


def test_plain_view_says_steps_and_repeats_a_long_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(startup_view.time, "monotonic", lambda: now[0])
    out = io.StringIO()
    view = PlainView(out)
    view.phase("training the intent model", 6.0)
    view.tick()
    now[0] += startup_view.PLAIN_REPEAT_S
    view.tick()
    view.say("intent model trained in 6.1 s")
    now[0] += 2 * startup_view.PLAIN_REPEAT_S
    view.tick()  # no phase any more: nothing repeated
    assert out.getvalue().splitlines() == [
        "launcher: training the intent model (about 6 s)...",
        "launcher: training the intent model: 5 s of about 6 s",
        "launcher: intent model trained in 6.1 s",
    ]


def test_the_terminal_view_draws_a_bar_with_an_eta_and_clears_a_finished_step() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    view = TerminalView(out)
    view.phase("training the intent model", 30.0)
    view.tick()
    view.progress.refresh()
    drawn = out.getvalue()
    assert "training the intent model" in drawn and "ETA" in drawn and "━" in drawn
    view.say("intent model trained in 6.1 s")
    after = out.getvalue().split("intent model trained in 6.1 s", 1)[1]
    view.close()
    assert "training the intent model" not in after, "the finished step's bar is gone"


def test_a_terminal_gets_the_live_view_and_a_pipe_plain_lines() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = view_for(Tty())
    try:
        assert isinstance(terminal, TerminalView)
    finally:
        terminal.close()
    assert isinstance(view_for(io.StringIO()), PlainView)


def _record(name: str, msg: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)


def test_the_gateway_reports_its_phases_and_nothing_else() -> None:
    out = io.StringIO()
    handler = ProgressHandler(out)
    handler.emit(_record("intent.embedded", "training the intent model of catalog %s: %d goals", "abc", 8))
    handler.emit(_record("intent.embedded", "intent model of catalog %s trained in %.1f s", "abc", 5.25))
    handler.emit(_record("intent.embedded", "something else %s", "x"))
    handler.emit(_record("alembic.runtime.migration", "Running %s", "upgrade 0001 -> 0002, x"))
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert events == [
        {"phase": "training", "args": ["abc", "8"]},
        {"phase": "trained", "args": ["abc", "5.25"]},
        {"phase": "migration", "args": ["upgrade 0001 -> 0002, x"]},
    ]


def test_startup_turns_phases_into_lines_and_keeps_the_training_time(tmp_path: Path) -> None:
    timings = tmp_path / "times.json"
    timings.write_text(json.dumps({"intent_training_s": 7.0}))
    out = io.StringIO()
    startup = Startup(PlainView(out), {}, timings_path=timings)
    startup.on_event(ProgressEvent("training", ("abc", "8")))
    startup.on_event(ProgressEvent("trained", ("abc", "6.5")))
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "launcher: training the intent model on 8 goals (first start, or the catalog changed) (about 7 s)..."
    )
    assert lines[1] == "launcher: intent model trained in 6.5 s (kept for the next start)"
    assert json.loads(timings.read_text()) == {"intent_training_s": 6.5}


def test_domains_that_never_answered_are_named(tmp_path: Path) -> None:
    from tests.conftest import free_port

    silent = f"http://127.0.0.1:{free_port()}"
    startup = Startup(PlainView(io.StringIO()), {"silent": silent}, timings_path=tmp_path / "t.json")
    startup.check_domains()
    assert startup.not_healthy() == ["silent"]
