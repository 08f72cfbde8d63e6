"""Progress lines: the capability's own text in the person's language, else a generic line naming
the domain; the manifest refuses progress keys that are not language codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.channels.progress import progress_text
from shared.catalog import Catalog
from shared.manifest import DomainManifest, ManifestInvalid, validate_manifest


def manifest(progress: dict[str, str] | None = None) -> dict:
    capability: dict = {"name": "quote", "description": "q"}
    if progress is not None:
        capability["metadata"] = {"progress": progress}
    return {
        "domain": "finance",
        "version": "1",
        "description": "d",
        "capabilities": [capability],
        "goals": [{"goal": "QUOTE", "description": "q", "capabilities": ["quote"]}],
    }


def catalog(progress: dict[str, str] | None = None) -> Catalog:
    return Catalog([validate_manifest(manifest(progress))])


def test_the_persons_language_is_picked_by_tag_then_base_language() -> None:
    texts = {"pt-BR": "Consultando a cotação…", "en": "Getting the quote…"}
    assert progress_text(catalog(texts), "finance", "quote", "en-GB") == "Getting the quote…"
    assert progress_text(catalog(texts), "finance", "quote", "pt") == "Consultando a cotação…"
    assert progress_text(catalog(texts), "finance", "quote", "pt-BR") == "Consultando a cotação…"


def test_without_a_text_the_line_names_the_domain_not_the_capability() -> None:
    assert progress_text(catalog(), "finance", "quote", "pt") == "Consultando finance…"
    assert progress_text(catalog({"fi": "Haetaan kurssia…"}), "finance", "quote", "en") == "Asking finance…"
    assert progress_text(catalog(), "weather", "forecast", "en") == "Asking weather…"


@pytest.mark.parametrize("key", ["Portuguese", "PT", "p", "pt_BR", ""])
def test_progress_keys_must_be_language_codes(key: str) -> None:
    with pytest.raises(ManifestInvalid):
        validate_manifest(manifest({key: "x"}))


def test_an_empty_progress_text_is_refused() -> None:
    with pytest.raises(ManifestInvalid):
        validate_manifest(manifest({"pt": ""}))


def shipped_manifests(tmp_path: Path) -> list[DomainManifest]:
    from domains.finance.service import build_service as finance
    from domains.general.service import build_service as general
    from domains.notifier.service import build as notifier
    from domains.research.service import build as research
    from tests.domains.conftest import outbox_settings
    from tests.domains.research.conftest import research_settings

    return [
        finance().manifest(),
        general().manifest(),
        notifier(outbox_settings(tmp_path / "outbox.sqlite3")).service.manifest(),
        research(research_settings(tmp_path)).service.manifest(),
    ]


def test_every_shipped_capability_says_what_it_does_in_portuguese_and_english(tmp_path: Path) -> None:
    missing = [
        f"{m.domain}.{c.name}"
        for m in shipped_manifests(tmp_path)
        for c in m.capabilities
        if not {"pt", "en"} <= set(c.metadata.progress)
    ]
    assert missing == []
