"""Registration lint: overlapping goals across domains are reported, distinct ones are not, and
the kept n-gram counts never change what is reported."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from intent.embedded import goal_documents
from intent.features import TfidfFeatures
from intent.lint import GoalOverlap, NgramCounts, goal_overlaps
from shared.catalog import Catalog
from tests.intent.conftest import CHAT, RECIPES, WEATHER, manifest


def test_distinct_domains_do_not_overlap() -> None:
    assert goal_overlaps(Catalog([manifest(WEATHER), manifest(RECIPES)]), threshold=0.3) == []


def copycat() -> dict[str, Any]:
    clone = copy.deepcopy(WEATHER)
    clone["domain"] = "meteo"
    clone["goals"] = [clone["goals"][0]]
    clone["goals"][0]["goal"] = "FORECAST"
    clone["goals"][0]["examples"] = clone["goals"][0]["examples"][:6]
    return clone


def test_copycat_goal_is_reported() -> None:
    overlaps = goal_overlaps(Catalog([manifest(WEATHER), manifest(CHAT), manifest(copycat())]), threshold=0.3)
    assert overlaps, "a near-duplicate goal in another domain must be reported"
    top = overlaps[0]
    assert {(top.domain_a, top.goal_a), (top.domain_b, top.goal_b)} == {
        ("weather", "GET_FORECAST"),
        ("meteo", "FORECAST"),
    }
    assert 0.3 <= top.similarity <= 1.0
    only_chat = goal_overlaps(
        Catalog([manifest(WEATHER), manifest(CHAT), manifest(copycat())]), domain="chat"
    )
    assert all("chat" in (o.domain_a, o.domain_b) for o in only_chat)


def refitted_overlaps(catalog: Catalog, threshold: float, domain: str | None = None) -> list[GoalOverlap]:
    """The lint as a from-scratch TfidfFeatures fit on every goal's text computes it."""
    goals = catalog.goals()
    texts = [
        " . ".join([*fixed, *examples]) for fixed, examples in (goal_documents(g, catalog) for g in goals)
    ]
    features = TfidfFeatures().fit(texts)
    x = features.transform(texts)
    dense = np.zeros((x.n_rows, x.n_cols), dtype=np.float32)
    dense[x.row_ids(), x.indices] = x.data
    dense[:, 0] = 0.0  # bias column
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    sims = dense @ dense.T
    found = [
        GoalOverlap(
            domain_a=a.domain,
            goal_a=a.goal.goal,
            domain_b=b.domain,
            goal_b=b.goal.goal,
            similarity=round(float(sims[i, j]), 3),
        )
        for i, a in enumerate(goals)
        for j, b in enumerate(goals)
        if i < j and a.domain != b.domain and (domain is None or domain in (a.domain, b.domain))
        if sims[i, j] >= threshold
    ]
    return sorted(found, key=lambda o: -o.similarity)


def test_the_kept_counts_give_what_a_refit_on_every_goal_gives() -> None:
    # a low threshold, so that many pairs (and their similarities) are compared
    catalogs = [
        Catalog([manifest(WEATHER), manifest(CHAT), manifest(copycat())]),
        Catalog([manifest(WEATHER), manifest(CHAT), manifest(RECIPES)]),  # meteo gone, recipes new
        Catalog([manifest(WEATHER), manifest(RECIPES)]),  # one removed: every idf weight moves
    ]
    for catalog in [*catalogs, *catalogs]:  # the second pass finds every text counted already
        for domain in [None, *catalog.domains]:
            assert goal_overlaps(catalog, 0.05, domain) == refitted_overlaps(catalog, 0.05, domain)


def test_only_the_last_catalogs_texts_are_kept() -> None:
    counts = NgramCounts()
    first = counts.of(["previsão do tempo", "receita de bolo"])
    assert len(counts) == 2
    again = counts.of(["receita de bolo", "piada"])
    assert again[0] is first[1]  # counted once, not cut into n-grams again
    assert len(counts) == 2  # "previsão do tempo" is gone with the catalog that had it


def test_counts_start_afresh_when_too_many_ngrams_were_numbered() -> None:
    counts = NgramCounts(max_ngrams=50)
    first = counts.of(["previsão do tempo em Recife amanhã"])
    assert counts.n_columns > 50
    again = counts.of(["previsão do tempo em Recife amanhã"])
    assert again[0] is not first[0] and counts.n_columns == len(again[0].columns)
