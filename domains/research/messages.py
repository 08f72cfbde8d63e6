"""What the facilitator (orchestrator) says, in Brazilian Portuguese or English.

The words themselves are :data:`domains.research.wording.MESSAGES`; this module puts them
together (the options, the methodologist's feedback, the closing summary).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domains.research.fields import Field
from domains.research.text import Lang
from domains.research.versions import status_label
from domains.research.wording import ACTIONS, MESSAGES


def options(lang: Lang) -> list[dict[str, str]]:
    return [
        {
            "action": action,
            "say": MESSAGES.t(f"option.{action}.say", lang),
            "label": MESSAGES.t(f"option.{action}.label", lang),
        }
        for action in ACTIONS
    ]


def render_options(lang: Lang) -> str:
    head = MESSAGES.t("options.header", lang)
    return head + "\n" + "\n".join(f"• {o['say']} — {o['label']}" for o in options(lang))


def mode_note(mode: str, lang: Lang, *, model: str | None = None, reason: str | None = None) -> str:
    if mode == "llm":
        return MESSAGES.t("mode.llm", lang, model=model or "")
    if mode == "offline_fallback":
        return MESSAGES.t("mode.offline_fallback", lang, reason=reason)
    return MESSAGES.t("mode.offline", lang)


def present_feedback(version: Mapping[str, Any], lang: Lang) -> str:
    """The methodologist's feedback on ``version`` and the options (the facilitator's question)."""
    fb = version["feedback"]
    status = fb["status"]
    n = version["version"]
    lines = [
        MESSAGES.t("feedback.assessed", lang, number=n, label=status_label(status, lang)),
        f'V{n}: "{version["question"]}"',
        MESSAGES.t("feedback.justification", lang, justification=version.get("justification", "")),
    ]
    if fb["improvements"]:
        lines.append(MESSAGES.t("feedback.missing", lang))
    for i, imp in enumerate(fb["improvements"], 1):
        lines.append(f"{i}. {imp['aspect']}: {imp['gap']} {imp['suggestion']}")
    lines.append(
        mode_note(
            version.get("mode", "offline"),
            lang,
            model=version.get("model"),
            reason=version.get("fallback_reason"),
        )
    )
    if status == "approved":
        lines.append(MESSAGES.t("feedback.ready", lang))
    lines.append("")
    lines.append(render_options(lang))
    return "\n".join(lines)


def ask_idea(lang: Lang) -> str:
    return MESSAGES.t("ask.idea", lang)


def ask_details(clarifications: Mapping[str, Any], lang: Lang, field: Field = "general") -> str:
    """The questions still open, and an example refinement from the idea's ``field``."""
    questions = [str(q) for q in clarifications.values()] if clarifications else []
    body = (":\n" + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1))) if questions else "."
    return MESSAGES.t("ask.details", lang) + body + "\n" + MESSAGES.t(f"hint.{field}.details", lang)


def restarted(lang: Lang) -> str:
    return MESSAGES.t("restart.ask_idea", lang)


def research_unavailable(lang: Lang) -> str:
    return MESSAGES.t("research.unavailable", lang) + "\n\n" + render_options(lang)


def ask_new_idea(lang: Lang) -> str:
    return MESSAGES.t("ask.new_idea", lang)


def finished(
    versions: Sequence[Mapping[str, Any]], lang: Lang, final: Mapping[str, Any] | None = None
) -> str:
    """The closing summary: the final version (the latest unless the person named one) and the trail."""
    if not versions:
        return MESSAGES.t("finished.empty", lang)
    last = final or versions[-1]
    trail = " → ".join(f"V{v['version']} ({status_label(v['feedback']['status'], lang)})" for v in versions)
    return MESSAGES.t(
        "finished.final",
        lang,
        number=last["version"],
        label=status_label(last["feedback"]["status"], lang),
        question=last["question"],
        trail=trail,
    )


def no_versions_to_compare(lang: Lang, missing: int) -> str:
    return MESSAGES.t("version.missing", lang, number=missing)
