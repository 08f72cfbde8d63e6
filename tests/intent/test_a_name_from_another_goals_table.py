"""A name from a lookup table of another goal of the same domain, which the first goal has no
place for, says which goal is meant: "books by gabo?" searches the catalogue for the author, not
the list of the person's loans; "is itau up or down today?" is Itaú's quote, not the market's top
movers. A first goal that names something of its own keeps it."""

from __future__ import annotations

import pytest

from bench.understanding.round4.domains import library
from domains.finance.service import build_service
from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest


@pytest.fixture(scope="module")
def adapter() -> EmbeddedIntentAdapter:
    # a library written from the docs by an outside author, beside the shipped finance domain
    manifests = [library.service.manifest_with_lookups(), build_service().manifest_with_lookups()]
    return EmbeddedIntentAdapter(Catalog(manifests), use_embeddings=False)


@pytest.mark.parametrize(
    ("text", "goal", "entities"),
    [
        ("books by gabo?", "SEARCH_CATALOG", {"author_text": "gabo"}),
        ("livros do garcia marquez", "SEARCH_CATALOG", {"author_text": "garcia marquez"}),
        ("is itau up or down today?", "GET_QUOTE", {"symbol_text": "itau"}),
    ],
)
def test_a_name_only_another_goal_takes_decides(
    adapter: EmbeddedIntentAdapter, text: str, goal: str, entities: dict[str, str]
) -> None:
    read = adapter.parse_sync(text)
    assert (read.goal, read.entities) == (goal, entities), read.notes


@pytest.mark.parametrize(
    ("text", "goal"),
    [
        ("lista meus empréstimos", "LIST_LOANS"),
        ("meus livros atrasados", "LIST_LOANS"),
        ("maiores altas do brasil", "TOP_MOVERS"),
        # the first goal names something of its own
        ("como a Natura é negociada na B3?", "SEARCH_SYMBOL"),
    ],
)
def test_without_such_a_name_the_first_goal_stays(
    adapter: EmbeddedIntentAdapter, text: str, goal: str
) -> None:
    assert adapter.parse_sync(text).goal == goal


def test_a_bare_name_from_the_first_goals_table_is_a_lookup(adapter: EmbeddedIntentAdapter) -> None:
    """ "tem A Hora da Estrela?" says only a title the catalogue's search lists: the unsure first
    goal reads it, since reading costs nothing."""
    read = adapter.parse_sync("tem A Hora da Estrela?")
    assert (read.goal, read.entities) == ("SEARCH_CATALOG", {"title_text": "A Hora da Estrela"}), read.notes


def test_a_bare_name_never_starts_a_goal_that_acts() -> None:
    """A title alone, with only the renewal (a change) and the loans' list to read it, is no
    renewal."""
    manifest = library.service.manifest_with_lookups().model_dump(mode="json", by_alias=True)
    manifest["goals"] = [g for g in manifest["goals"] if g["goal"] != "SEARCH_CATALOG"]
    catalog = Catalog([validate_manifest(manifest), build_service().manifest_with_lookups()])
    only = EmbeddedIntentAdapter(catalog, use_embeddings=False)
    renewal = only.parse_sync("renova o Torto Arado")
    assert renewal.goal == "RENEW_LOAN", renewal.notes  # the table is the renewal's
    assert only.parse_sync("Torto Arado?").goal is None
