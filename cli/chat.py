"""The interactive loop: a message streams its answer; ``/`` lines are commands."""

from __future__ import annotations

from cli.client import GatewayClient, GatewayRefused, SessionStarted
from cli.lines import LineReader
from cli.render import QuestionView, Renderer, pending_question
from cli.stream import AnswerText, ProgressText, StreamError


class Chat:
    def __init__(self, client: GatewayClient, reader: LineReader, view: Renderer, session: str | None):
        self.client = client
        self.reader = reader
        self.view = view
        self.session = session
        self.pending: QuestionView | None = None

    def run(self) -> int:
        """Until /quit, Ctrl-D or Ctrl-C at the prompt; the CLI's errors propagate to ``main``."""
        texts = self.view.texts
        self.client.check()
        self.view.info(texts.welcome.format(url=self.client.url))
        if self.session:
            self.view.info(texts.session.format(session=self.session))
            self._show_pending(repeat_text=True)
        while True:
            try:
                line = self.reader.read(self.view.prompt(self.pending)).strip()
            except (EOFError, KeyboardInterrupt):
                self.view.end_line()
                self.view.plain("")
                self.view.info(texts.bye)
                return 0
            if not line:
                continue
            if line.startswith("/"):
                if not self.command(line):
                    self.view.info(texts.bye)
                    return 0
                continue
            try:
                self.send(line)
            except KeyboardInterrupt:
                # Ctrl-C while an answer streams stops showing it, not the chat
                self.view.end_line()
                self.view.info(texts.interrupted)

    def command(self, line: str) -> bool:
        """Run a slash command; ``False`` when it ends the chat."""
        texts = self.view.texts
        name = line.split()[0].lower()
        if name in ("/quit", "/exit", "/q"):
            return False
        if name == "/help":
            self.view.plain(texts.help)
        elif name == "/new":
            self.session, self.pending = None, None
            self.view.info(texts.new_session)
        elif name == "/history":
            if self.session is None:
                self.view.info(texts.no_session)
            else:
                self.view.history(self.client.history(self.session))
        else:
            self.view.error(texts.unknown_command.format(command=name))
        return True

    def send(self, text: str) -> None:
        texts = self.view.texts
        try:
            for piece in self.client.turn(text, self.session):
                if isinstance(piece, SessionStarted):
                    if piece.session_id and piece.session_id != self.session:
                        self.session = piece.session_id
                        self.view.info(texts.session.format(session=self.session))
                elif isinstance(piece, ProgressText):
                    self.view.progress(piece.text)
                elif isinstance(piece, AnswerText):
                    self.view.answer(piece.text)
                elif isinstance(piece, StreamError):
                    self.view.error(piece.message)
        except GatewayRefused as exc:
            # a refused message (busy session, bad input) leaves the chat usable
            self.view.error(texts.refused.format(status=exc.status or "-", message=exc.message))
            return
        self.view.end_line()
        self._show_pending(repeat_text=False)

    def _show_pending(self, repeat_text: bool) -> None:
        if self.session is None:
            self.pending = None
            return
        question = pending_question(self.client.session(self.session))
        self.pending = question
        if question is not None:
            self.view.question(question, repeat_text=repeat_text)
