"""Every domain reads a full language tag: "en-US" answers in English, "pt-BR" in Portuguese.

The domains used to answer in English only for exactly "en", so an OpenAI client sending
"en-US" got Portuguese.
"""

from __future__ import annotations

import pytest

from tests.domains.conftest import Execute


@pytest.mark.parametrize(("tag", "expected"), [("en-US", "Hi! How can I help?"), ("pt-BR", "Olá!")])
async def test_general_answers_in_the_language_of_the_tag(general: Execute, tag: str, expected: str) -> None:
    out = await general("small_talk", {"kind": "GREETING"}, language=tag)
    assert out["explanation"].startswith(expected)


async def test_finance_answers_en_us_in_english(finance: Execute) -> None:
    out = await finance("get_stock_price", {"symbol_text": "Apple"}, language="en-US")
    assert out["status"] == "success"
    assert " is at " in out["explanation"] and "sample data from" in out["explanation"]


async def test_notifier_answers_en_us_in_english(notifier: Execute) -> None:
    out = await notifier("send_telegram_message", {"message": "hello"}, language="en-US")
    assert out["explanation"] == "Telegram is not configured: I kept the message in the outbox."
