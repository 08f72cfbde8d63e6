"""The noun a count is said with may open a name of the goal's table ("5 *chaves de casa*" of the
table's "chave de casa"): the count reads it, and the name keeps it, in the plural too."""

from __future__ import annotations

import pytest

from intent.embedded import EmbeddedIntentAdapter

CONTEXT = {"now": "2026-03-10T09:00:00-03:00", "time_zone": "America/Sao_Paulo"}


@pytest.mark.parametrize(
    ("text", "copies", "key"),
    [
        ("quanto fica fazer 2 chaves de casa?", 2, "chaves de casa"),
        ("how much to copy 6 house keys", 6, "house keys"),
    ],
)
def test_the_count_and_the_name_share_the_noun(
    round17_beside_shipped: EmbeddedIntentAdapter, text: str, copies: int, key: str
) -> None:
    out = round17_beside_shipped.parse_sync(text, context=CONTEXT)
    assert out.goal == "KEY_COPY_PRICE", out.notes
    assert out.entities == {"copies": copies, "key_text": key}
