"""The catalog summary the caller passes in ``intent.context["catalog"]``.

The general domain must not know other domains statically (a new domain would make it lie),
so it describes only what the caller says is registered right now. Entries that are not
``{domain, goal, description}`` are skipped rather than failing the answer. A description is the
manifest's: by language (``{"pt": …, "en": …}``) or one "texto (English text)" string.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from shared.i18n.bilingual import text_in
from shared.manifest import CatalogEntry


def catalog_from_context(context: dict[str, Any]) -> list[CatalogEntry] | None:
    """The entries, or ``None`` when the caller passed no catalog at all."""
    raw = context.get("catalog")
    if not isinstance(raw, list):
        return None
    entries: list[CatalogEntry] = []
    for item in raw:
        try:
            entries.append(CatalogEntry.model_validate(item))
        except ValidationError:
            continue
    return entries


def render(entries: list[CatalogEntry], language: str, *, exclude_domain: str | None = None) -> list[str]:
    """One bullet per goal, in the caller's order, in the person's words: the description in
    ``language`` (never the goal's id, which people do not know).

    >>> render([CatalogEntry(domain="finance", goal="GET_QUOTE", description="Cotação (stock price)")], "en")
    ['• Stock price']
    """
    lines: list[str] = []
    for entry in entries:
        if entry.domain == exclude_domain:
            continue
        text = text_in(entry.description, language) or entry.goal.replace("_", " ").lower()
        lines.append(f"• {text[:1].upper()}{text[1:]}")
    return lines
