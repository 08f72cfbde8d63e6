"""The trained model is stored on disk and reused while the catalog is unchanged."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from intent import IntentSettings, build_adapter
from intent.classifier import TrainConfig
from intent.embedded import EmbeddedIntentAdapter
from intent.embeddings import load_encoder
from intent.model_store import KEEP_MODELS, ModelStore
from shared.catalog import Catalog
from tests.intent.conftest import CHAT, RECIPES, WEATHER, manifest

MESSAGES = (
    "qual a previsão do tempo em Manaus?",
    "cidades mais frias do Sul",
    "oi, bom dia!",
    "me conta uma piada",
    "what's the weather like in Rome",
)


def stored_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.npz"))


def small_catalog() -> Catalog:
    """One goal: the cheapest catalog to train, for the tests that train more than once."""
    return Catalog([manifest(CHAT)])


@pytest.fixture(scope="module")
def stored_small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the stored model of ``small_catalog()`` (trained once per module)."""
    directory = tmp_path_factory.mktemp("intent-cache")
    adapter = EmbeddedIntentAdapter(small_catalog(), use_embeddings=False, cache_dir=directory)
    assert adapter.training_runs == 1
    return directory


def copy_of(stored: Path, tmp_path: Path) -> Path:
    target = tmp_path / "cache"
    shutil.copytree(stored, target)
    return target


async def test_same_catalog_loads_instead_of_training_and_scores_identically(tmp_path: Path) -> None:
    catalog = Catalog([manifest(WEATHER), manifest(CHAT)])
    trained = EmbeddedIntentAdapter(catalog, cache_dir=tmp_path)
    assert trained.training_runs == 1
    assert len(stored_files(tmp_path)) == 1

    loaded = EmbeddedIntentAdapter(catalog, cache_dir=tmp_path)

    assert loaded.training_runs == 0
    assert loaded.model is not None and trained.model is not None
    # the cascade's second model is stored too when the encoder is installed
    assert (loaded.model.embedding is not None) == (load_encoder() is not None)
    for text in MESSAGES:
        probs_a, conf_a, sim_a = trained.scores(text)
        probs_b, conf_b, sim_b = loaded.scores(text)
        assert np.array_equal(probs_a, probs_b), text
        assert (conf_a, sim_a) == (conf_b, sim_b), text
        assert await loaded.parse(text) == await trained.parse(text)
    assert loaded.calibration == trained.calibration


def test_a_changed_catalog_trains_and_is_stored_next_to_the_old_one(
    stored_small: Path, tmp_path: Path
) -> None:
    directory = copy_of(stored_small, tmp_path)
    adapter = EmbeddedIntentAdapter(
        Catalog([manifest(CHAT), manifest(RECIPES)]), use_embeddings=False, cache_dir=directory
    )
    assert adapter.training_runs == 1
    assert len(stored_files(directory)) == 2
    assert adapter.model is not None
    assert [g.goal.goal for g in adapter.model.goals] == ["GREET", "FIND_RECIPE"]
    assert adapter.parse_sync("receita de bolo de cenoura").alternatives[0].goal == "FIND_RECIPE"


def test_other_training_parameters_train_again(stored_small: Path, tmp_path: Path) -> None:
    directory = copy_of(stored_small, tmp_path)
    same = EmbeddedIntentAdapter(small_catalog(), use_embeddings=False, cache_dir=directory)
    other = EmbeddedIntentAdapter(
        small_catalog(), use_embeddings=False, cache_dir=directory, config=TrainConfig(seed=14)
    )
    assert (same.training_runs, other.training_runs) == (0, 1)


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a model at all")


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _older_format(path: Path) -> None:
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(arrays["meta"].tobytes())
    meta["format"] = 0
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    with path.open("wb") as out:
        np.savez(out, allow_pickle=False, **arrays)


def _wrong_shape(path: Path) -> None:
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["tfidf_weights"] = arrays["tfidf_weights"][:-1]
    with path.open("wb") as out:
        np.savez(out, allow_pickle=False, **arrays)


@pytest.mark.parametrize("damage", [_garbage, _truncated, _older_format, _wrong_shape])
def test_an_unusable_file_is_retrained_and_overwritten(
    stored_small: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: object
) -> None:
    directory = copy_of(stored_small, tmp_path)
    (path,) = stored_files(directory)
    assert callable(damage)
    damage(path)

    with caplog.at_level(logging.WARNING, logger="intent.model_store"):
        retrained = EmbeddedIntentAdapter(small_catalog(), use_embeddings=False, cache_dir=directory)

    assert retrained.training_runs == 1
    assert any("unusable" in r.getMessage() for r in caplog.records)
    assert retrained.model is not None
    # overwritten with a good file: the next start loads it
    again = EmbeddedIntentAdapter(small_catalog(), use_embeddings=False, cache_dir=directory)
    assert again.training_runs == 0
    assert stored_files(directory) == [path]


def test_an_unwritable_directory_only_warns(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    with caplog.at_level(logging.WARNING, logger="intent.model_store"):
        adapter = EmbeddedIntentAdapter(small_catalog(), use_embeddings=False, cache_dir=blocker / "cache")
    assert adapter.model is not None
    assert any("could not store" in r.getMessage() for r in caplog.records)


def test_prune_keeps_the_most_recently_used(stored_small: Path, tmp_path: Path) -> None:
    directory = copy_of(stored_small, tmp_path)
    (original,) = stored_files(directory)
    os.utime(original, (2_000_000_000, 2_000_000_000))  # used last
    for n in range(KEEP_MODELS + 3):
        copy = directory / f"{n:032x}.npz"
        shutil.copy(original, copy)
        os.utime(copy, (1_000_000_000 + n, 1_000_000_000 + n))
    ModelStore(directory).prune()
    kept = stored_files(directory)
    assert len(kept) == KEEP_MODELS
    assert original in kept
    assert directory / f"{0:032x}.npz" not in kept  # the least recently used went first


def test_settings_choose_the_directory_and_empty_disables_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("INTENT_CACHE_DIR", raising=False)
    assert IntentSettings(_env_file=None).intent_cache_dir == Path("var/intent-cache")
    assert IntentSettings.model_validate({"intent_cache_dir": ""}).intent_cache_dir is None
    chosen = build_adapter(
        IntentSettings(_env_file=None, intent_adapter="embedded", intent_cache_dir=tmp_path)
    )
    assert isinstance(chosen, EmbeddedIntentAdapter)
    assert chosen.store is not None and chosen.store.directory == tmp_path
    disabled = build_adapter(
        IntentSettings.model_validate({"intent_adapter": "embedded", "intent_cache_dir": ""})
    )
    assert isinstance(disabled, EmbeddedIntentAdapter) and disabled.store is None
