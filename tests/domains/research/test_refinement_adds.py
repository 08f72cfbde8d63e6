"""Refining adds to the hypothesis: details that do not restate the idea never replace it."""

from __future__ import annotations

from domains.research.analysis import structure

PREVIOUS = "Como home office impacta a produtividade dos programadores?"


def test_details_that_do_not_name_the_idea_are_added_to_it() -> None:
    # a whole hypothesis of method, but not of the idea: it refines, it does not replace
    details = "tempo de entrega cai 30% em equipes de 5 devs, medido por sprints em 3 meses"
    refined = structure(
        "home office aumenta a produtividade", "pt", previous_question=PREVIOUS, details=details
    )
    question = refined["structured_question"]
    assert question.startswith("Como home office impacta a produtividade dos programadores")
    assert "tempo de entrega cai 30%" in question


def test_a_restated_hypothesis_becomes_the_new_question() -> None:
    details = "home office aumenta a produtividade em 20% em equipes de 5 programadores"
    refined = structure(
        "home office aumenta a produtividade", "pt", previous_question=PREVIOUS, details=details
    )
    assert refined["structured_question"].startswith("Home office aumenta a produtividade em 20%")
