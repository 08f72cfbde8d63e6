"""Listing and comparing hypothesis versions (V1 → V2 → V3) with the feedback that produced each.

>>> vs = [
...     {"version": 1, "question": "Como X impacta a velocidade?",
...      "feedback": {"status": "needs_refinement", "improvements": [{"aspect": "população"}]}},
...     {"version": 2, "question": "X reduz tempo em 30% em equipes de 2-5 devs",
...      "feedback": {"status": "approved", "improvements": []}},
... ]
>>> d = compare(vs, 1, 2)
>>> d["status"], d["resolved_aspects"]
({'from': 'needs_refinement', 'to': 'approved'}, ['população'])
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from domains.research.text import Lang
from domains.research.wording import MESSAGES


class VersionNotFound(LookupError):
    pass


def _aspects(version: Mapping[str, Any]) -> list[str]:
    return [str(i.get("aspect", "")) for i in version.get("feedback", {}).get("improvements", [])]


def _find(versions: Sequence[Mapping[str, Any]], number: int) -> Mapping[str, Any]:
    for v in versions:
        if v.get("version") == number:
            return v
    raise VersionNotFound(number)


def compare(versions: Sequence[Mapping[str, Any]], a: int, b: int) -> dict[str, Any]:
    """A structured diff of two versions: question words added/removed, status, aspects."""
    va, vb = _find(versions, a), _find(versions, b)
    wa, wb = str(va["question"]).split(), str(vb["question"]).split()
    added: list[str] = []
    removed: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=wa, b=wb, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            removed.append(" ".join(wa[i1:i2]))
        if op in ("replace", "insert"):
            added.append(" ".join(wb[j1:j2]))
    sa, sb = _aspects(va), _aspects(vb)
    return {
        "from": a,
        "to": b,
        "question": {"from": va["question"], "to": vb["question"], "added": added, "removed": removed},
        "status": {"from": va["feedback"]["status"], "to": vb["feedback"]["status"]},
        "resolved_aspects": [x for x in sa if x not in sb],
        "new_aspects": [x for x in sb if x not in sa],
        "remaining_aspects": [x for x in sb if x in sa],
    }


def status_label(status: str, lang: Lang) -> str:
    """An assessment's status as people read it ("precisa de refinamento"); unknown ones as they are."""
    message_id = f"status.{status}"
    return MESSAGES.t(message_id, lang) if message_id in MESSAGES else status


def render_list(versions: Sequence[Mapping[str, Any]], lang: Lang) -> str:
    if not versions:
        return MESSAGES.t("versions.none", lang)
    lines = [MESSAGES.t("versions.header", lang)]
    for v in versions:
        aspects = _aspects(v)
        gaps = f" {MESSAGES.t('versions.gaps', lang, aspects=', '.join(aspects))}" if aspects else ""
        status = status_label(v["feedback"]["status"], lang)
        lines.append(f'V{v["version"]} ({status}): "{v["question"]}"{gaps}')
    return "\n".join(lines)


def render_compare(diff: Mapping[str, Any], lang: Lang) -> str:
    q = diff["question"]
    a, b = diff["from"], diff["to"]
    no_words = MESSAGES.t("compare.no_words", lang)
    no_aspects = MESSAGES.t("compare.no_aspects", lang)
    st = diff["status"]

    def label(status: str) -> str:
        return status_label(status, lang)

    lines = [
        MESSAGES.t("compare.header", lang, a=a, b=b),
        f'V{a}: "{q["from"]}"',
        f'V{b}: "{q["to"]}"',
        MESSAGES.t("compare.added", lang, words="; ".join(q["added"]) or no_words),
        MESSAGES.t("compare.removed", lang, words="; ".join(q["removed"]) or no_words),
        MESSAGES.t("compare.assessment", lang, before=label(st["from"]), after=label(st["to"])),
        MESSAGES.t("compare.resolved", lang, aspects=", ".join(diff["resolved_aspects"]) or no_aspects),
        MESSAGES.t("compare.remaining", lang, aspects=", ".join(diff["remaining_aspects"]) or no_aspects),
    ]
    if diff["new_aspects"]:
        lines.append(MESSAGES.t("compare.new", lang, aspects=", ".join(diff["new_aspects"])))
    return "\n".join(lines)
