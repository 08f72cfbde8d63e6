"""A message short of a goal's required value, with more words the goal does not know than
words of its own, more of them than values said and no value only the goal knows, is about
something else: "quanto custa uma máquina de lavar roupa?" is no car wash's price asking which
wash. A value of the goal's own table or enum keeps it: "vaza agua debaixo da pia, preciso de
um bombeiro hidraulico" is a plumber's visit."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T10:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_another_thing_to_wash_is_out_of_scope(round12_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round12_beside_shipped.parse_sync("quanto custa uma máquina de lavar roupa?", context=CONTEXT)
    assert out.goal is None, out.notes
    assert any("is nothing it knows" in note for note in out.notes)


def test_the_goals_own_question_still_asks(round12_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round12_beside_shipped.parse_sync("quanto custa a lavagem completa?", context=CONTEXT)
    assert out.goal == "WASH_PRICE", out.notes


def test_a_clause_of_the_goals_words_alone_keeps_it(round8_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round8_beside_shipped.parse_sync("I left my card at a restaurant, block it", context=CONTEXT)
    assert out.goal == "BLOCK_CARD", out.notes


def test_a_value_of_the_goals_own_keeps_it(round4_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round4_beside_shipped.parse_sync(
        "vaza agua debaixo da pia, preciso de um bombeiro hidraulico", context=CONTEXT
    )
    assert (out.goal, out.entities.get("service")) == ("SCHEDULE_VISIT", "PLUMBING"), out.notes
