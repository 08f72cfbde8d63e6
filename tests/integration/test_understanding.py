"""Understanding that holds up in real conversations, through a real gateway and real domain
processes (finance, notifier, general, and the never-shipped currency domain), in Portuguese and
English: no steps from filler or wrong spans, entities with roles, slot filling."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from shared import i18n
from tests.conftest import Process, gateway_over, start_fixture_domain

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    currency = start_fixture_domain("currency_domain")
    try:
        domains = {**domain_processes, "currency": currency}
        with gateway_over(domains, tmp_path_factory.mktemp("understanding")) as running:
            yield running
    finally:
        currency.stop()


class Session:
    def __init__(self, gateway: Process):
        self.gateway = gateway
        self.id = f"nlu-{uuid.uuid4().hex[:12]}"

    def say(self, text: str) -> dict[str, Any]:
        response = httpx.post(
            f"{self.gateway.url}/v1/runs", json={"input_text": text, "session_id": self.id}, timeout=60
        )
        assert response.status_code == 200, response.text
        return dict(response.json())


def params(run: dict[str, Any]) -> list[dict[str, Any]]:
    return [step["params"] for step in run["steps"]]


def symbols(run: dict[str, Any]) -> list[str]:
    return [p["symbol_text"] for p in params(run) if "symbol_text" in p]


# ------------------------------------------------------------------ no junk steps


def test_pt_filler_and_verbs_make_no_steps(gateway: Process) -> None:
    session = Session(gateway)
    polite = session.say(
        "Olá, bom dia! Desculpe o incômodo, estou pensando em investir e queria saber, "
        "se não for pedir demais, qual é o preço da Petrobras hoje?"
    )
    assert polite["status"] == "completed", polite["answer"]
    assert symbols(polite) == ["Petrobras"]

    greeted = session.say("Oi, tudo bem? Queria muito saber a cotação da Vale agora, obrigado!")
    assert greeted["intent"]["goal"] == "GET_QUOTE" and symbols(greeted) == ["Vale"]

    # a verb no goal does: said, and nothing runs as if the quote had been asked for
    buy = session.say("compre 100 ações da Petrobras")
    assert buy["steps"] == [] and buy["intent"]["goal"] is None, buy
    assert buy["answer"].startswith("Não sei fazer isto (“compre”); o que posso fazer é:")
    assert "PETR4" not in buy["answer"]

    worth = session.say("quanto vale a petrobras")  # "vale" is the verb here, not the company
    assert symbols(worth) == ["petrobras"] and "Não sei fazer" not in worth["answer"], worth["answer"]

    yesterday = session.say("e ontem?")
    assert "ontem" not in symbols(yesterday)

    listed = session.say("preço petrobras vale itau")
    assert sorted(symbols(listed)) == ["itau", "petrobras", "vale"]


def test_en_filler_and_verbs_make_no_steps(gateway: Process) -> None:
    session = Session(gateway)
    polite = session.say("hi, could you please tell me the price of Apple? thanks a lot")
    assert polite["status"] == "completed", polite["answer"]
    assert symbols(polite) == ["Apple"]
    greeted = session.say(
        "Hi there! Sorry to bother you, but could you please tell me the current price of Apple? "
        "Thanks a lot!"
    )
    assert greeted["intent"]["goal"] == "GET_QUOTE" and symbols(greeted) == ["Apple"]
    buy = session.say("buy 10 shares of apple")
    assert buy["steps"] == [] and buy["intent"]["goal"] is None, buy
    assert buy["answer"].startswith("I can't do that (“buy”); what I can do is:")
    assert "AAPL" not in buy["answer"]
    exchanged = session.say("please exchange 50 pounds into euros")
    assert params(exchanged) == [{"amount_text": "50", "from_currency": "GBP", "to_currency": "EUR"}]


# ------------------------------------------------------------------ roles


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "converte 250 dólares para reais",
            {"amount_text": "250", "from_currency": "USD", "to_currency": "BRL"},
        ),
        ("troca 50 libras por euros", {"amount_text": "50", "from_currency": "GBP", "to_currency": "EUR"}),
        (
            "convert 1200 yen to dollars",
            {"amount_text": "1200", "from_currency": "JPY", "to_currency": "USD"},
        ),
        (
            "how many dollars is 1000 yen?",
            {"amount_text": "1000", "from_currency": "JPY", "to_currency": "USD"},
        ),
    ],
)
def test_two_entities_of_one_type_by_role(gateway: Process, text: str, expected: dict[str, str]) -> None:
    run = Session(gateway).say(text)
    assert run["status"] == "completed", run["answer"]
    assert params(run) == [expected]


# ------------------------------------------------------------------ slot filling


def test_pt_a_missing_entity_is_asked_and_the_reply_fills_it(gateway: Process) -> None:
    session = Session(gateway)
    asked = session.say("converte 100 dólares")
    assert asked["status"] == "waiting_input"
    assert asked["steps"] == []  # no domain called with parameters its schema rejects
    assert asked["question"]["kind"] == "slot_filling" and asked["question"]["entity"] == "to_currency"
    assert asked["answer"].startswith("Para continuar, preciso saber: a moeda de destino.")
    answered = session.say("reais")
    assert answered["status"] == "completed", answered["answer"]
    assert params(answered) == [{"amount_text": "100", "from_currency": "USD", "to_currency": "BRL"}]

    quote = session.say("preço")
    assert quote["status"] == "waiting_input" and quote["question"]["entity"] == "symbol_text"
    filled = session.say("Petrobras")
    assert filled["status"] == "completed", filled["answer"]
    assert symbols(filled) == ["Petrobras"] and "PETR4" in filled["answer"]


def test_pt_the_reply_may_change_others_a_new_request_drops_it_two_misses_end_it(gateway: Process) -> None:
    session = Session(gateway)
    assert session.say("converte dólares para reais")["question"]["entity"] == "amount_text"
    changed = session.say("300, não, em euros")
    assert params(changed) == [{"amount_text": "300", "from_currency": "USD", "to_currency": "EUR"}]

    assert session.say("converte 100 dólares")["status"] == "waiting_input"
    fresh = session.say("quais as maiores altas do Brasil?")
    assert fresh["intent"]["goal"] == "TOP_MOVERS" and fresh["status"] == "completed"
    assert fresh["question"] is None

    assert session.say("converte 100 dólares")["status"] == "waiting_input"
    again = session.say("sei lá")
    assert again["status"] == "waiting_input" and again["answer"].startswith("Não entendi.")
    done = session.say("tanto faz")
    assert done["status"] == "completed" and done["steps"] == []
    assert done["answer"].startswith("Sem a moeda de destino não consigo continuar.")


def test_en_a_missing_entity_is_asked_in_english(gateway: Process) -> None:
    session = Session(gateway)
    asked = session.say("can you convert 100 dollars?")
    assert asked["status"] == "waiting_input", asked["answer"]
    assert asked["answer"].startswith("To go on, I need to know: the currency to convert to.")
    answered = session.say("to yen")
    assert params(answered) == [{"amount_text": "100", "from_currency": "USD", "to_currency": "JPY"}]


# ------------------------------------------------------------------ language


@pytest.mark.parametrize("text", ["thanks", "hi", "good morning", "help"])
def test_everyday_english_words_are_answered_in_english(gateway: Process, text: str) -> None:
    answer = Session(gateway).say(text)["answer"]
    assert answer and i18n.detect(answer) == "en", answer


def test_a_message_that_names_no_language_keeps_the_conversations(gateway: Process) -> None:
    session = Session(gateway)
    asked = session.say("can you convert 100 dollars?")
    assert asked["answer"].startswith("To go on")
    # "JPY" votes for no language: the reply goes on in English, not in the default Portuguese
    answered = session.say("JPY")
    assert answered["status"] == "completed" and answered["intent"]["language"] == "en", answered


# ------------------------------------------------------------------ repairing a domain's question


def test_pt_a_reply_that_picks_nothing_asks_again_then_a_description_picks(gateway: Process) -> None:
    session = Session(gateway)
    asked = session.say("qual o preço da Nordea?")
    assert asked["status"] == "waiting_input", asked["answer"]
    for unclear in ("3", "sei lá"):  # two options: "3" is none of them
        again = session.say(unclear)
        assert again["status"] == "waiting_input", again["answer"]
        assert again["answer"].startswith("Não reconheci essa resposta entre as opções.")
        assert "NDA-FI.HE" in again["answer"] and not again["steps"]
    picked = session.say("a de Helsinque")
    assert picked["status"] == "completed" and "NDA-FI.HE" in picked["answer"], picked["answer"]


def test_en_the_finnish_one_is_the_finnish_listing(gateway: Process) -> None:
    session = Session(gateway)
    assert session.say("what is the price of Nordea?")["status"] == "waiting_input"
    picked = session.say("the Finnish one")
    assert picked["status"] == "completed" and "NDA-FI.HE" in picked["answer"], picked["answer"]


def test_a_new_request_still_abandons_the_question(gateway: Process) -> None:
    session = Session(gateway)
    assert session.say("qual o preço da Nordea?")["status"] == "waiting_input"
    moved_on = session.say("qual o preço da Petrobras?")
    assert moved_on["status"] == "completed" and "PETR4" in moved_on["answer"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("qual o preço da magazine luiza e weg?", ["magazine luiza", "weg"]),
        ("cotação magalu weg", ["magalu", "weg"]),
        ("stock price of google alphabet", ["google", "alphabet"]),
    ],
)
def test_companies_of_the_finance_lookup_table_are_names_no_example_shows(
    gateway: Process, text: str, expected: list[str]
) -> None:
    """Finance publishes its companies at ``lookup_path``; the gateway fetched them with the
    manifest, so lower-case names typed without commas are split and kept."""
    run = Session(gateway).say(text)
    assert sorted(symbols(run)) == sorted(expected), run["answer"]
    assert run["status"] == "completed", run["answer"]


# ------------------------------------------------------------------ multi-part requests


def test_pt_a_part_for_another_goal_is_named_not_dropped(gateway: Process) -> None:
    run = Session(gateway).say("qual o preço da Vale? e quais ações mais caíram nos EUA?")
    assert symbols(run) == ["Vale"]  # "EUA" belongs to the other part, not to the quote
    assert "Não fiz esta parte do pedido: “quais ações mais caíram nos EUA?”" in run["answer"]


def test_en_a_part_for_another_goal_is_named_not_dropped(gateway: Process) -> None:
    run = Session(gateway).say("price of MSFT; top gainers in the US")
    # whichever part the turn runs (the classifier picks), the other one is named
    ran = {s["capability"] for s in run["steps"]}
    if ran == {"get_stock_price"}:
        assert "I didn't do this part of your request: “top gainers in the US”" in run["answer"]
    else:
        assert ran == {"get_top_gainers"}, run["answer"]
        assert "I didn't do this part of your request: “price of MSFT”" in run["answer"]


@pytest.mark.parametrize(
    ("text", "quoted", "named"),
    [
        (
            "preço da Vale e reserva um voo para Lisboa",
            ["Vale"],
            "Não sei fazer esta parte do pedido: “reserva um voo para Lisboa”.",
        ),
        (
            "cotação da Vale e depois compra 100 ações dela",
            ["Vale"],
            "Não sei fazer esta parte do pedido: “compra 100 ações dela”.",
        ),
        (
            "price of Tesla and then order a pizza",
            ["Tesla"],
            "I can't do this part of your request: “order a pizza”.",
        ),
    ],
)
def test_a_part_no_goal_does_is_named_and_lends_no_entity(
    gateway: Process, text: str, quoted: list[str], named: str
) -> None:
    run = Session(gateway).say(text)
    assert run["status"] == "completed", run["answer"]
    assert symbols(run) == quoted  # the part's words ("Lisboa", "pizza") are not quoted
    assert named in run["answer"]


def test_narrative_around_a_request_is_not_a_part_to_name(gateway: Process) -> None:
    run = Session(gateway).say(
        "Então, estava conversando com um amigo sobre investimentos e fiquei pensando: quanto está a Suzano?"
    )
    assert symbols(run) == ["Suzano"]
    assert "Não sei fazer esta parte" not in run["answer"] and "Não fiz esta parte" not in run["answer"]


@pytest.mark.parametrize(
    "text",
    ["maiores altas do Brasil hoje e manda no telegram", "send the top losers in the US to my telegram"],
)
def test_a_composition_is_never_dropped(gateway: Process, text: str) -> None:
    run = Session(gateway).say(text)
    assert [s["domain"] for s in run["steps"]] == ["finance", "notifier"], run["answer"]
    assert run["status"] == "completed"
