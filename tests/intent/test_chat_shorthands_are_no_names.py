"""Chat shorthands are words of the request, never a value: "do u have the hour of the star"
names a title, not an author called "u" (a search with it would be a junk step)."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import library
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    # a library written from the docs by an outside author
    return EmbeddedIntentAdapter(Catalog([library.service.manifest_with_lookups()]), use_embeddings=False)


@pytest.mark.parametrize("text", ["do u have the hour of the star", "do u have the hour of the star pls"])
def test_u_is_no_author(adapter: EmbeddedIntentAdapter, text: str) -> None:
    read = adapter.parse_sync(text)
    assert read.goal == "SEARCH_CATALOG"
    assert read.entities == {"title_text": "the hour of the star"}
