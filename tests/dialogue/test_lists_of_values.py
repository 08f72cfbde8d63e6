"""Several values of one lookup string ("paga a luz, a água e a internet") and a gated capability,
as docs/domains.md says: without ``multiple`` one value is kept and the others are dropped
without a word; with ``multiple`` and a ``parameters`` schema that takes one string the list is
refused and asked for again; with ``multiple`` and ``decomposition.array_params`` each value is
its own step, all three approved by one yes."""

from __future__ import annotations

import copy
from typing import Any

from intent.embedded import EmbeddedIntentAdapter
from shared.catalog import Catalog
from shared.manifest import validate_manifest
from shared.models import ApprovalQuestion, DomainOutput, SlotQuestion
from shared.status import RunStatus
from tests.dialogue.conftest import FakeDomains
from tests.dialogue.test_graph import Conversation
from tests.dialogue.test_required_one_of import BILLS

THREE = "paga a luz, a água e a internet"


def bills(*, multiple: bool, fan_out: bool) -> Conversation:
    manifest: dict[str, Any] = copy.deepcopy(BILLS)
    biller = manifest["goals"][0]["entities_schema"]["biller_text"]
    biller["multiple"] = multiple
    biller["lookup"].append({"value": "Vivo Fibra", "aliases": ["internet"]})
    capability = manifest["capabilities"][0]
    capability["parameters"] = {"type": "object", "properties": {"biller_text": {"type": "string"}}}
    if fan_out:
        rule = {"param_name": "biller_text", "single_param_name": "biller_text"}
        capability["metadata"]["decomposition"] = {"array_params": [rule]}
    catalog = Catalog([validate_manifest(manifest)])
    paid = {
        "pay_bill": lambda i: DomainOutput(
            status="success", explanation=f"Paga: {i.parameters['biller_text']}."
        )
    }
    return Conversation(
        EmbeddedIntentAdapter(catalog, use_embeddings=False),
        catalog,
        FakeDomains(threshold=0.0, replies=paid),
    )


async def test_without_multiple_one_value_is_kept() -> None:
    chat = bills(multiple=False, fan_out=False)
    asked = await chat.say(THREE)
    assert asked.state.turn.intent is not None
    assert asked.state.turn.intent.entities == {"biller_text": "internet"}
    assert isinstance(asked.state.question, ApprovalQuestion)


async def test_a_list_the_schema_refuses_is_asked_for_again() -> None:
    chat = bills(multiple=True, fan_out=False)
    asked = await chat.say(THREE)
    assert isinstance(asked.state.question, SlotQuestion), asked.state.turn.answer
    assert asked.state.turn.answer == (
        "Não consegui usar “luz, água, internet”. Para continuar, preciso saber: a conta a pagar."
    )
    assert chat.domains.calls == []


async def test_array_params_make_one_step_per_value_under_one_yes() -> None:
    chat = bills(multiple=True, fan_out=True)
    asked = await chat.say(THREE)
    assert isinstance(asked.state.question, ApprovalQuestion), asked.state.turn.answer
    assert (
        "Próximo passo: paga uma conta (a conta a pagar: “luz”); paga uma conta (a conta a pagar: “água”); "
        "paga uma conta (a conta a pagar: “internet”). Confirma?"
    ) in asked.state.turn.answer
    assert chat.domains.calls == []
    done = await chat.say("sim")
    assert done.state.turn.status == RunStatus.COMPLETED, done.state.turn.answer
    assert [c.parameters["biller_text"] for c in chat.domains.calls] == ["luz", "água", "internet"]
