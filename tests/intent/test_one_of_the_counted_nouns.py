"""An article before the noun a goal's examples count ("uma *aula*" beside "8 aulas") is a count
of one; an article before another word counts nothing."""

from __future__ import annotations

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


def test_one_lesson_is_counted(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync("quanto custa uma aula de guitarra?", context=CONTEXT)
    assert out.goal == "MUSIC_PACKAGE_PRICE", out.notes
    assert out.entities == {"lessons": 1, "instrument": "ELECTRIC_GUITAR"}


def test_an_article_before_another_word_counts_nothing(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync("qual o preço de um pacote de aulas de piano?", context=CONTEXT)
    assert out.goal == "MUSIC_PACKAGE_PRICE", out.notes
    assert "lessons" not in out.entities


def test_the_portuguese_article_a_counts_nothing(round16_beside_shipped: EmbeddedIntentAdapter) -> None:
    out = round16_beside_shipped.parse_sync("quanto custa a aula de piano?", context=CONTEXT)
    assert out.goal == "MUSIC_PACKAGE_PRICE", out.notes
    assert "lessons" not in out.entities
