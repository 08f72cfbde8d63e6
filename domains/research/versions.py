"""Listing and comparing hypothesis versions (V1 → V2 → V3) with the feedback that produced each.

>>> vs = [
...     {"version": 1, "question": "Como X impacta a velocidade?",
...      "feedback": {"status": "needs_refinement", "improvements": [{"aspect": "população"}]}},
...     {"version": 2, "question": "Como X impacta a velocidade, em equipes de 2-5 devs?",
...      "feedback": {"status": "approved", "improvements": []}},
... ]
>>> d = compare(vs, 1, 2)
>>> d["status"], d["resolved_aspects"]
({'from': 'needs_refinement', 'to': 'approved'}, ['população'])
>>> d["question"]["added"], d["question"]["removed"]
(['em equipes de 2-5 devs'], [])
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from domains.research.text import Lang, fold
from domains.research.wording import MESSAGES

#: A word of a question: letters/digits with inner hyphens, dots or commas ("2-5", "1,5") and a
#: trailing "%". Punctuation between words is not a word, so "velocidade?" → "velocidade,"
#: is no change at all.
_WORD = re.compile(r"\w+(?:[-–.,/]\w+)*%?")


class VersionNotFound(LookupError):
    pass


def _aspects(version: Mapping[str, Any]) -> list[str]:
    return [str(i.get("aspect", "")) for i in version.get("feedback", {}).get("improvements", [])]


def _find(versions: Sequence[Mapping[str, Any]], number: int) -> Mapping[str, Any]:
    for v in versions:
        if v.get("version") == number:
            return v
    raise VersionNotFound(number)


def question_words(question: str) -> list[str]:
    """The words of a question as written, without the punctuation around them."""
    return _WORD.findall(question)


def default_pair(versions: Sequence[Mapping[str, Any]]) -> tuple[int, int] | None:
    """What "compare the versions" compares when no numbers are named: the first with the latest
    (the whole evolution); ``None`` while there are fewer than two versions."""
    numbers = sorted(int(v["version"]) for v in versions)
    return (numbers[0], numbers[-1]) if len(numbers) >= 2 else None


def compare(versions: Sequence[Mapping[str, Any]], a: int, b: int) -> dict[str, Any]:
    """A structured diff of two versions: question words added/removed, status, aspects.

    Words are compared without case, accents or the punctuation around them, so only real
    changes are reported ("memória?" → "memória, em estudantes?" adds "em estudantes" and
    removes nothing).
    """
    va, vb = _find(versions, a), _find(versions, b)
    wa, wb = question_words(str(va["question"])), question_words(str(vb["question"]))
    ka, kb = [fold(w) for w in wa], [fold(w) for w in wb]
    added: list[str] = []
    removed: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ka, b=kb, autojunk=False).get_opcodes():
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
    """The diff as people read it: only the changes that happened are named."""
    q = diff["question"]
    a, b = diff["from"], diff["to"]
    no_aspects = MESSAGES.t("compare.no_aspects", lang)
    st = diff["status"]

    def label(status: str) -> str:
        return status_label(status, lang)

    lines = [MESSAGES.t("compare.header", lang, a=a, b=b), f'V{a}: "{q["from"]}"', f'V{b}: "{q["to"]}"']
    if q["added"]:
        lines.append(MESSAGES.t("compare.added", lang, words="; ".join(q["added"])))
    if q["removed"]:
        lines.append(MESSAGES.t("compare.removed", lang, words="; ".join(q["removed"])))
    if not q["added"] and not q["removed"]:
        lines.append(MESSAGES.t("compare.same_question", lang))
    lines += [
        MESSAGES.t("compare.assessment", lang, before=label(st["from"]), after=label(st["to"])),
        MESSAGES.t("compare.resolved", lang, aspects=", ".join(diff["resolved_aspects"]) or no_aspects),
        MESSAGES.t("compare.remaining", lang, aspects=", ".join(diff["remaining_aspects"]) or no_aspects),
    ]
    if diff["new_aspects"]:
        lines.append(MESSAGES.t("compare.new", lang, aspects=", ".join(diff["new_aspects"])))
    return "\n".join(lines)


def render_default_compare(versions: Sequence[Mapping[str, Any]], lang: Lang) -> str:
    """ "Compare the versions" without numbers: first vs latest, or why there is nothing to compare."""
    pair = default_pair(versions)
    if pair is None:
        if not versions:
            return MESSAGES.t("versions.none", lang)
        return MESSAGES.t("compare.only_one", lang, number=versions[0]["version"])
    return render_compare(compare(versions, *pair), lang)
