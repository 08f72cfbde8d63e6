"""The LLM planner's prompts, tool schema and answers, one file per language under ``prompts/``
(``pt.yaml``/``en.yaml`` with ``$name`` placeholders, ``plan_tool.<language>.json``), read once."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

import yaml

from shared.i18n import Language, as_language
from shared.i18n.folding import normalise

PROMPTS = Path(__file__).with_name("prompts")
TOOL_NAME = "propose_plan"


@dataclass(frozen=True)
class PlannerTexts:
    language: Language
    system: Template
    correction: Template
    replan: Template
    refused: Template
    cannot_plan: Template
    #: Whole words (folded) that ask for a condition, a comparison, a selection or a chain.
    markers: frozenset[str]
    #: The ``propose_plan`` tool: ``name``, ``description``, ``parameters`` (a JSON Schema).
    tool: dict[str, Any]

    def marker_in(self, text: str, ignored: frozenset[str] = frozenset()) -> str | None:
        """The first marker word ``text`` contains, if any (``ignored`` words do not count)."""
        return next((w for w in words_of(text) if w in self.markers and w not in ignored), None)


def words_of(text: str) -> list[str]:
    """``text``'s words, folded (accent- and case-blind)."""
    return re.findall(r"[a-z0-9]+", normalise(text))


@functools.cache
def texts(language: str) -> PlannerTexts:
    code = as_language(language)
    data = yaml.safe_load((PROMPTS / f"{code}.yaml").read_text(encoding="utf-8"))
    tool = json.loads((PROMPTS / f"plan_tool.{code}.json").read_text(encoding="utf-8"))
    return PlannerTexts(
        language=code,
        system=Template(data["system"]),
        correction=Template(data["correction"]),
        replan=Template(data["replan"]),
        refused=Template(data["answers"]["refused"]),
        cannot_plan=Template(data["answers"]["cannot_plan"]),
        markers=frozenset(normalise(str(w)).strip() for w in data["markers"]),
        tool=tool,
    )
