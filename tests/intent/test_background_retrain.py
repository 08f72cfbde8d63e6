"""A catalog change at run time retrains off the event loop, the old model answering meanwhile."""

from __future__ import annotations

import asyncio

import pytest

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from tests.intent.conftest import CHAT, RECIPES, WEATHER, manifest

RECIPE_REQUEST = "me ensina a receita de bolo de fubá"


def with_recipes() -> Catalog:
    return Catalog([manifest(WEATHER), manifest(CHAT), manifest(RECIPES)])


@pytest.fixture
def weather_adapter() -> EmbeddedIntentAdapter:
    return EmbeddedIntentAdapter(
        Catalog([manifest(WEATHER), manifest(CHAT)]), oos_threshold=0.5, use_embeddings=False
    )


async def test_the_loop_keeps_running_and_the_old_model_answers_until_the_swap(
    weather_adapter: EmbeddedIntentAdapter,
) -> None:
    adapter = weather_adapter
    old_model = adapter.model
    retrain = asyncio.create_task(adapter.update_catalog_async(with_recipes()))
    answers_from_the_old_model = []
    while not retrain.done():
        if adapter.model is old_model:
            answers_from_the_old_model.append((await adapter.parse(RECIPE_REQUEST)).goal)
        await asyncio.sleep(0.01)
    await retrain

    # a retrain on the loop would finish inside the first tick: many ticks = the loop was free
    assert len(answers_from_the_old_model) >= 5, answers_from_the_old_model
    assert "FIND_RECIPE" not in answers_from_the_old_model
    assert adapter.model is not old_model
    assert adapter.training_runs == 2
    after = await adapter.parse(RECIPE_REQUEST)
    assert (after.primary_domain, after.goal) == ("recipes", "FIND_RECIPE")
    assert after.entities["dish_text"] == "bolo de fubá"


async def test_changes_during_a_retrain_are_coalesced_to_the_latest(
    weather_adapter: EmbeddedIntentAdapter,
) -> None:
    adapter = weather_adapter
    latest = with_recipes()
    first = asyncio.create_task(adapter.update_catalog_async(Catalog([manifest(CHAT)])))
    await asyncio.sleep(0.05)  # its retrain is under way in the worker thread
    await asyncio.gather(
        adapter.update_catalog_async(Catalog([manifest(CHAT), manifest(RECIPES)])),
        adapter.update_catalog_async(latest),
    )
    await first
    # the first change was already training; the second was replaced by the third before it began
    assert adapter.training_runs == 1 + 2
    assert adapter.catalog is latest
    assert adapter.model is not None
    assert [g.goal.goal for g in adapter.model.goals] == [g.goal.goal for g in latest.goals()]


async def test_simultaneous_changes_train_only_the_last(weather_adapter: EmbeddedIntentAdapter) -> None:
    adapter = weather_adapter
    latest = with_recipes()
    await asyncio.gather(
        adapter.update_catalog_async(Catalog([manifest(CHAT)])),
        adapter.update_catalog_async(latest),
    )
    assert adapter.training_runs == 1 + 1
    assert adapter.catalog is latest


async def test_a_slower_older_retrain_never_replaces_a_newer_model(
    weather_adapter: EmbeddedIntentAdapter,
) -> None:
    adapter = weather_adapter
    older = asyncio.create_task(adapter.update_catalog_async(with_recipes()))
    await asyncio.sleep(0)  # the retrain is now running in its thread
    newer = Catalog([manifest(CHAT)])
    adapter.update_catalog(newer)  # blocking path, e.g. a script: it wins, being later
    await older
    assert adapter.catalog is newer
    assert adapter.model is not None
    assert [g.goal.goal for g in adapter.model.goals] == ["GREET"]


async def test_lexical_and_empty_catalogs_take_the_async_path_too() -> None:
    from intent.lexical import LexicalIntentAdapter

    lexical = LexicalIntentAdapter()
    await lexical.update_catalog_async(with_recipes())
    assert (await lexical.parse("receita de bolo de cenoura")).goal == "FIND_RECIPE"
    embedded = EmbeddedIntentAdapter(use_embeddings=False)
    await embedded.update_catalog_async(Catalog())
    assert embedded.model is None and embedded.training_runs == 0
