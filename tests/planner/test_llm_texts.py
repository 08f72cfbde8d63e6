"""The LLM planner's prompt files: both languages say the same things with the same placeholders,
and both tool schemas have the same shape (only the descriptions differ)."""

from __future__ import annotations

from string import Template
from typing import Any

from planner.llm.texts import PlannerTexts, texts


def _placeholders(template: Template) -> set[str]:
    return {m.group("named") or m.group("braced") for m in template.pattern.finditer(template.template)} - {
        None
    }


def _shape(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def _templates(words: PlannerTexts) -> dict[str, Template]:
    return {
        "system": words.system,
        "correction": words.correction,
        "replan": words.replan,
        "refused": words.refused,
        "cannot_plan": words.cannot_plan,
    }


def test_both_languages_have_the_same_placeholders() -> None:
    pt, en = _templates(texts("pt")), _templates(texts("en"))
    for name in pt:
        assert _placeholders(pt[name]) == _placeholders(en[name]), name
    assert _placeholders(pt["system"]) == {"catalog", "language", "understood"}


def test_both_tool_schemas_have_the_same_shape() -> None:
    pt, en = texts("pt").tool, texts("en").tool
    assert pt["name"] == en["name"] == "propose_plan"
    assert _shape(pt) == _shape(en)
    assert pt["description"] != en["description"]


def test_markers_are_whole_words_without_accents() -> None:
    assert texts("pt").marker_in("pega as 3 MAIORES altas") == "maiores"
    assert texts("pt").marker_in("qual a cotação da Petrobras?") is None
    assert texts("en").marker_in("show the top 3 gainers") == "top"
    assert texts("en").marker_in("topical news") is None
