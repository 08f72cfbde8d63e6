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

STATUS_LABEL: dict[Lang, dict[str, str]] = {
    "pt": {"approved": "aprovada", "needs_refinement": "precisa de refinamento", "rejected": "rejeitada"},
    "en": {"approved": "approved", "needs_refinement": "needs refinement", "rejected": "rejected"},
}


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


def render_list(versions: Sequence[Mapping[str, Any]], lang: Lang) -> str:
    labels = STATUS_LABEL[lang]
    if not versions:
        return (
            "Ainda não há versões da hipótese." if lang == "pt" else "There are no hypothesis versions yet."
        )
    head = "Versões da hipótese:" if lang == "pt" else "Hypothesis versions:"
    lines = [head]
    for v in versions:
        status = labels.get(v["feedback"]["status"], v["feedback"]["status"])
        aspects = _aspects(v)
        gaps = (
            (f" — falta: {', '.join(aspects)}" if lang == "pt" else f" — missing: {', '.join(aspects)}")
            if (aspects)
            else ""
        )
        lines.append(f'V{v["version"]} ({status}): "{v["question"]}"{gaps}')
    return "\n".join(lines)


def render_compare(diff: Mapping[str, Any], lang: Lang) -> str:
    labels = STATUS_LABEL[lang]
    q = diff["question"]
    a, b = diff["from"], diff["to"]
    none = "nada" if lang == "pt" else "nothing"
    st = diff["status"]
    if lang == "pt":
        lines = [
            f"Comparação V{a} → V{b}:",
            f'V{a}: "{q["from"]}"',
            f'V{b}: "{q["to"]}"',
            "Acrescentado: " + ("; ".join(q["added"]) or none),
            "Removido: " + ("; ".join(q["removed"]) or none),
            f"Avaliação: {labels.get(st['from'], st['from'])} → {labels.get(st['to'], st['to'])}",
            "Lacunas resolvidas: " + (", ".join(diff["resolved_aspects"]) or "nenhuma"),
            "Lacunas que continuam: " + (", ".join(diff["remaining_aspects"]) or "nenhuma"),
        ]
        if diff["new_aspects"]:
            lines.append("Lacunas novas: " + ", ".join(diff["new_aspects"]))
    else:
        lines = [
            f"Comparison V{a} → V{b}:",
            f'V{a}: "{q["from"]}"',
            f'V{b}: "{q["to"]}"',
            "Added: " + ("; ".join(q["added"]) or none),
            "Removed: " + ("; ".join(q["removed"]) or none),
            f"Assessment: {labels.get(st['from'], st['from'])} → {labels.get(st['to'], st['to'])}",
            "Gaps resolved: " + (", ".join(diff["resolved_aspects"]) or "none"),
            "Gaps remaining: " + (", ".join(diff["remaining_aspects"]) or "none"),
        ]
        if diff["new_aspects"]:
            lines.append("New gaps: " + ", ".join(diff["new_aspects"]))
    return "\n".join(lines)
