"""Registration lint: overlapping goals across domains are reported, distinct ones are not."""

from __future__ import annotations

import copy

from intent.lint import goal_overlaps
from shared.catalog import Catalog
from tests.intent.conftest import CHAT, RECIPES, WEATHER, manifest


def test_distinct_domains_do_not_overlap() -> None:
    assert goal_overlaps(Catalog([manifest(WEATHER), manifest(RECIPES)]), threshold=0.3) == []


def test_copycat_goal_is_reported() -> None:
    clone = copy.deepcopy(WEATHER)
    clone["domain"] = "meteo"
    clone["goals"] = [clone["goals"][0]]
    clone["goals"][0]["goal"] = "FORECAST"
    clone["goals"][0]["examples"] = clone["goals"][0]["examples"][:6]
    overlaps = goal_overlaps(Catalog([manifest(WEATHER), manifest(CHAT), manifest(clone)]), threshold=0.3)
    assert overlaps, "a near-duplicate goal in another domain must be reported"
    top = overlaps[0]
    assert {(top.domain_a, top.goal_a), (top.domain_b, top.goal_b)} == {
        ("weather", "GET_FORECAST"),
        ("meteo", "FORECAST"),
    }
    assert 0.3 <= top.similarity <= 1.0
    only_chat = goal_overlaps(Catalog([manifest(WEATHER), manifest(CHAT), manifest(clone)]), domain="chat")
    assert all("chat" in (o.domain_a, o.domain_b) for o in only_chat)
