"""What the terminal shows, with and without colours."""

from __future__ import annotations

import io

from cli.render import QuestionView, Renderer, colours_wanted, pending_question
from cli.texts import EN, PT


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def shown(colours: bool = False) -> tuple[Renderer, io.StringIO]:
    out = io.StringIO()
    return Renderer(out, EN, colours), out


def test_a_domain_clarification_and_a_confidence_gate_are_both_read() -> None:
    clarification = {
        "pending_question": {
            "kind": "domain_clarification",
            "text": "Which Nordea?",
            "options": [
                {"value": "NDA-SE.ST", "label": "Nordea (Stockholm)", "aliases": ["sueca"], "data": {}},
                {"value": "NDA-FI.HE", "label": "", "aliases": [], "data": {}},
            ],
            "resume": {},
        }
    }
    gate = {
        "pending_question": {
            "kind": "confidence_gate",
            "text": "Did you mean (1) a quote or (2) top movers?",
            "options": [
                {"domain": "finance", "goal": "GET_QUOTE", "confidence": 0.5, "description": "a quote"},
                {"domain": "finance", "goal": "TOP_MOVERS", "confidence": 0.3, "description": ""},
            ],
        }
    }
    assert pending_question(clarification) == QuestionView(
        "Which Nordea?", ["Nordea (Stockholm)", "NDA-FI.HE"]
    )
    assert pending_question(gate) == QuestionView(
        "Did you mean (1) a quote or (2) top movers?", ["a quote", "TOP_MOVERS"]
    )


def test_no_question_is_none_whatever_the_shape() -> None:
    for session in (None, {}, {"pending_question": None}, {"question": None}, {"pending_question": 3}):
        assert pending_question(session) is None


def test_options_missing_from_the_text_are_numbered_under_a_highlighted_caption() -> None:
    view, out = shown(colours=True)
    view.answer("Which Nordea?")
    view.question(QuestionView("Which Nordea?", ["Stockholm", "Helsinki"]))
    text = out.getvalue()
    assert text.startswith("Which Nordea?\n")  # the line the answer left open is closed first
    assert "\x1b[1;33mOptions:\x1b[0m" in text
    assert "\x1b[1;36m1)\x1b[0m Stockholm\n" in text
    assert "\x1b[1;36m2)\x1b[0m Helsinki\n" in text
    assert text.endswith(f"\x1b[1;33m? 1–2: {EN.pick_hint}\x1b[0m\n")
    assert text.count("Which Nordea?") == 1


def test_options_the_text_already_lists_are_not_listed_twice() -> None:
    view, out = shown()
    listed = "Which one?\n1. Nordea (Stockholm) — NDA-SE.ST\n2. Nordea (Helsinki) — NDA-FI.HE"
    view.question(QuestionView(listed, ["Nordea (stockholm)", "Nordea (Helsinki)"]))
    assert out.getvalue() == f"? 1–2: {EN.pick_hint}\n"


def test_a_resumed_session_repeats_the_question_itself() -> None:
    view, out = shown()
    view.question(QuestionView("Which Nordea?", ["Stockholm"]), repeat_text=True)
    assert out.getvalue().splitlines() == [
        "? Which Nordea?",
        "Options:",
        "  1) Stockholm",
        f"? {EN.pick_hint}",
    ]


def test_progress_gets_a_line_of_its_own() -> None:
    view, out = shown()
    view.answer("partial")
    view.progress("Checking the price…")
    view.answer("The price is 10.")
    assert out.getvalue() == "partial\n  Checking the price…\nThe price is 10."


def test_a_question_asked_in_portuguese_is_answered_about_in_portuguese_on_an_english_cli() -> None:
    """One language per exchange: the question's language, not the terminal's locale, words the
    options caption, the hint and the prompt while it is pending."""
    view, out = shown()  # the CLI's own language: English
    question = QuestionView("Qual Nordea?", ["Estocolmo", "Helsinque"], language="pt-BR")
    view.question(question)
    shown_lines = out.getvalue().splitlines()
    assert shown_lines == ["Opções:", "  1) Estocolmo", "  2) Helsinque", f"? 1–2: {PT.pick_hint}"]
    assert view.prompt(question) == "você ?› "
    assert view.prompt() == "you› "
    english, out = shown()
    english.question(QuestionView("Which?", ["A", "B"], language="en"))
    assert EN.pick_hint in out.getvalue()


def test_the_prompt_brackets_its_colour_codes_for_readline() -> None:
    plain, _ = shown()
    coloured, _ = shown(colours=True)
    assert plain.prompt() == "you› "
    assert plain.prompt(QuestionView("Which?")) == "you ?› "
    assert coloured.prompt() == "\001\x1b[1;32m\002you› \001\x1b[0m\002"
    assert Renderer(io.StringIO(), PT, False).prompt() == "você› "


def test_colours_only_on_a_terminal_and_never_with_no_color() -> None:
    assert colours_wanted(Tty(), {"TERM": "xterm"})
    assert not colours_wanted(Tty(), {"TERM": "xterm", "NO_COLOR": ""})
    assert not colours_wanted(Tty(), {"TERM": "dumb"})
    assert not colours_wanted(io.StringIO(), {"TERM": "xterm"})


def test_the_history_shows_what_was_typed_and_answered() -> None:
    view, out = shown()
    view.history(
        {
            "turns": [
                {"event_id": "evt-0002", "input_text": "price of Apple", "answer": "AAPL: 10"},
                {"event_id": "evt-0004", "input_text": None, "answer": ""},
            ]
        }
    )
    assert out.getvalue().splitlines() == [
        "evt-0002 you: price of Apple",
        "orchestrator: AAPL: 10",
        "evt-0004 you: ",
        "orchestrator: ",
    ]
    empty, out = shown()
    empty.history({"turns": []})
    assert out.getvalue() == EN.history_empty + "\n"
