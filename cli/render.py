"""What the terminal shows: streamed text, progress, the pending question and its numbered
options, the history; colours only on a terminal (and never with ``NO_COLOR``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from cli.texts import Texts, texts_in

_RESET = "\x1b[0m"
_STYLES = {
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
    "prompt": "\x1b[1;32m",
    "question": "\x1b[1;33m",
    "number": "\x1b[1;36m",
    "error": "\x1b[1;31m",
}


def colours_wanted(stream: TextIO, env: Mapping[str, str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in env and env.get("TERM") != "dumb"


@dataclass(frozen=True)
class QuestionView:
    """A pending question, whatever its kind: its text and its options' labels, in order."""

    text: str
    options: list[str] = field(default_factory=list)
    #: The language the question was asked in (its ``resume.language``), when the session says.
    language: str | None = None


def _option_label(option: Any) -> str:
    if isinstance(option, str):
        return option
    if not isinstance(option, dict):
        return str(option)
    # a domain's option (label, value) or a confidence gate's goal (description, goal)
    for key in ("label", "description", "goal", "value"):
        value = option.get(key)
        if value not in (None, ""):
            return str(value)
    return ""


def pending_question(session: Mapping[str, Any] | None) -> QuestionView | None:
    """The question a session waits on, read tolerantly from ``GET /v1/sessions/{id}``.

    >>> pending_question({"pending_question": {"kind": "domain_clarification", "text": "Which?",
    ...     "options": [{"value": "A.ST", "label": "A (Stockholm)"}, {"value": "A.HE"}]}})
    QuestionView(text='Which?', options=['A (Stockholm)', 'A.HE'], language=None)
    >>> pending_question({"question": {"question": "Price?", "options": [{"goal": "GET_QUOTE",
    ...     "description": "a quote"}]}}), pending_question({"pending_question": None})
    (QuestionView(text='Price?', options=['a quote'], language=None), None)
    >>> pending_question({"pending_question": {"text": "Qual?", "resume": {"language": "pt-BR"}}})
    QuestionView(text='Qual?', options=[], language='pt-BR')
    """
    if not session:
        return None
    raw = session.get("pending_question")
    if raw is None:
        raw = session.get("question")
    if isinstance(raw, str):
        return QuestionView(raw) if raw.strip() else None
    if not isinstance(raw, dict):
        return None
    text = raw.get("text") or raw.get("question") or ""
    options = raw.get("options") or []
    labels = [_option_label(o) for o in options if isinstance(options, list)]
    resume = raw.get("resume")
    language = resume.get("language") if isinstance(resume, dict) else None
    return QuestionView(
        str(text), [label for label in labels if label], str(language) if isinstance(language, str) else None
    )


class Renderer:
    def __init__(self, out: TextIO, texts: Texts, colours: bool):
        self.out = out
        self.texts = texts
        self.colours = colours
        self._at_line_start = True

    def style(self, text: str, name: str) -> str:
        return f"{_STYLES[name]}{text}{_RESET}" if self.colours else text

    def prompt(self, pending: QuestionView | None = None) -> str:
        """The input prompt (in the pending question's language, when one is pending); readline
        needs the colour codes bracketed (\\001..\\002) to measure it."""
        you = texts_in(pending.language, self.texts).you if pending else self.texts.you
        label = f"{you}{' ?' if pending else ''}› "
        if not self.colours:
            return label
        colour = _STYLES["question" if pending else "prompt"]
        return f"\001{colour}\002{label}\001{_RESET}\002"

    def _write(self, text: str) -> None:
        if text:
            self.out.write(text)
            self.out.flush()
            self._at_line_start = text.endswith("\n")

    def end_line(self) -> None:
        if not self._at_line_start:
            self._write("\n")

    def answer(self, text: str) -> None:
        self._write(text)

    def progress(self, text: str) -> None:
        self.end_line()
        self._write(self.style(f"  {text}", "dim") + "\n")

    def info(self, text: str) -> None:
        self.end_line()
        self._write(self.style(text, "dim") + "\n")

    def error(self, text: str) -> None:
        self.end_line()
        self._write(self.style(text, "error") + "\n")

    def plain(self, text: str) -> None:
        self.end_line()
        self._write(text + "\n")

    def question(self, question: QuestionView, repeat_text: bool = False) -> None:
        """The pending question, highlighted: its numbered options unless its text (just streamed,
        or repeated here for a resumed session) already lists them, then how to answer."""
        self.end_line()
        # one language per exchange: the question's words, not the terminal's locale
        texts = texts_in(question.language, self.texts)
        if repeat_text and question.text:
            self._write(self.style(f"? {question.text}", "question") + "\n")
        said = question.text.casefold()
        if question.options and not all(label.casefold() in said for label in question.options):
            self._write(self.style(texts.options, "question") + "\n")
            for number, label in enumerate(question.options, 1):
                self._write(f"  {self.style(f'{number})', 'number')} {label}\n")
        choices = f"1–{len(question.options)}" if len(question.options) > 1 else ""
        hint = f"? {choices}: {texts.pick_hint}" if choices else f"? {texts.pick_hint}"
        self._write(self.style(hint, "question") + "\n")

    def history(self, history: Mapping[str, Any] | None) -> None:
        turns = (history or {}).get("turns") or []
        if not turns:
            self.info(self.texts.history_empty)
            return
        for turn in turns:
            typed = turn.get("input_text") or ""
            event = turn.get("event_id") or ""
            self.plain(self.style(f"{event} {self.texts.history_you}: ", "dim") + typed)
            self.plain(self.style(f"{self.texts.history_bot}: ", "dim") + str(turn.get("answer") or ""))
