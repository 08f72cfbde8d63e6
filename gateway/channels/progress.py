"""What a person reads while a step runs: the capability's ``metadata.progress`` text in their
language, else a generic line naming the domain (never a capability id).

>>> from shared.manifest import DomainManifest
>>> m = DomainManifest.model_validate({"domain": "finance", "version": "1", "description": "d",
...     "capabilities": [
...         {"name": "quote", "description": "q", "metadata": {"progress": {"pt": "Consultando a cotação…",
...          "en": "Getting the quote…"}}},
...         {"name": "movers", "description": "m"}],
...     "goals": [{"goal": "QUOTE", "description": "q", "capabilities": ["quote", "movers"]}]})
>>> from shared.catalog import Catalog
>>> cat = Catalog([m])
>>> progress_text(cat, "finance", "quote", "en"), progress_text(cat, "finance", "movers", "pt")
('Getting the quote…', 'Consultando finance…')
"""

from __future__ import annotations

from shared.catalog import Catalog
from shared.i18n import DEFAULT_LANGUAGE, Language, as_language

_GENERIC: dict[Language, str] = {"pt": "Consultando {domain}…", "en": "Asking {domain}…"}


def progress_text(catalog: Catalog, domain: str | None, capability: str | None, language: str) -> str:
    """The line shown while ``capability`` of ``domain`` runs, in ``language`` ("pt", "en-US"…)."""
    ref = catalog.find_capability(capability, domain) if capability else None
    texts = ref.capability.metadata.progress if ref else {}
    tag = language.lower()
    # exact tag first ("pt-BR"), then its base language ("pt"), then any variant of it
    for key in (language, tag.split("-")[0]):
        if key in texts:
            return texts[key]
    base = tag.split("-")[0]
    for key, text in texts.items():
        if key.split("-")[0] == base:
            return text
    name = domain or (ref.domain if ref else "")
    return _GENERIC[as_language(language, DEFAULT_LANGUAGE)].format(domain=name or "…")
