from __future__ import annotations

import pytest

from execution.references import UnresolvedReference, resolve
from shared.models import DomainOutput
from shared.references import escape, reference, references

OUTPUTS = {
    1: DomainOutput(
        status="success",
        result={"price": 112.5, "currency": "SEK", "ctx": {"market": "SE"}, "items": [{"n": 1}, {"n": 2}]},
        explanation="Nordea (NDA-SE.ST) está em 112.50 SEK",
        confidence=0.9,
    ),
    2: DomainOutput(status="failure", explanation="no such company"),
}


def test_exact_reference_keeps_the_type() -> None:
    assert resolve("${1.result.price}", OUTPUTS) == 112.5
    assert resolve("${1.result.ctx}", OUTPUTS) == {"market": "SE"}
    assert resolve("${1.confidence}", OUTPUTS) == 0.9
    assert resolve("${1.status}", OUTPUTS) == "success"
    assert resolve("${1.result.items.1.n}", OUTPUTS) == 2


def test_embedded_references_are_stringified() -> None:
    assert resolve("p=${1.result.price} ${1.result.currency}", OUTPUTS) == "p=112.5 SEK"
    assert resolve("ctx: ${1.result.ctx}", OUTPUTS) == 'ctx: {"market": "SE"}'
    assert resolve("${1.explanation}\n${2.explanation}", OUTPUTS) == (
        "Nordea (NDA-SE.ST) está em 112.50 SEK\nno such company"
    )


def test_resolves_inside_dicts_and_lists_and_leaves_other_values_alone() -> None:
    params = {"a": ["${1.result.currency}", 3], "b": {"c": "${1.status}"}, "d": None, "e": True}
    assert resolve(params, OUTPUTS) == {"a": ["SEK", 3], "b": {"c": "success"}, "d": None, "e": True}


def test_substituted_values_are_not_scanned_again() -> None:
    outputs = {1: DomainOutput(status="success", explanation="${2.explanation}")}
    assert resolve("${1.explanation}", outputs) == "${2.explanation}"
    assert resolve("x ${1.explanation}", outputs) == "x ${2.explanation}"


def test_user_text_with_a_reference_is_not_expanded() -> None:
    typed_by_person = "what is ${1.explanation} and $${1.status}"
    assert resolve(escape(typed_by_person), OUTPUTS) == typed_by_person
    assert references(escape({"q": typed_by_person})) == set()


def test_missing_step_is_an_unresolved_reference() -> None:
    with pytest.raises(UnresolvedReference, match="step 7 has no output"):
        resolve("${7.explanation}", OUTPUTS)


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("${1.result.volume}", "result has no 'volume'"),
        ("${1.result.items.5}", "result.items has no '5'"),
        ("${1.secret}", "'secret' is not one of"),
    ],
)
def test_bad_paths_say_which_part_is_missing(ref: str, message: str) -> None:
    with pytest.raises(UnresolvedReference, match=message) as err:
        resolve(ref, OUTPUTS)
    assert err.value.param == ref


def test_references_lists_step_ids() -> None:
    assert references({"m": "${1.explanation}\n${3.result.x}", "l": ["${2.status}"], "n": 4}) == {1, 2, 3}
    assert references("no refs, $5 and {1.x}") == set()


def test_the_planner_writes_references_the_executor_resolves() -> None:
    assert resolve(reference(1, "result.ctx.market"), OUTPUTS) == "SE"
