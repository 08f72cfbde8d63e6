"""The everyday verbs of a request, by the action they ask for, in Portuguese and English.

A goal's examples use a few verbs; people use others for the same action: "*tira* eu da aula de
yoga" for a cancellation written "cancela minha aula", "*log* a ticket" for "open a ticket",
"*joga* no telegram" for "manda no telegram". The classifier reads a verb it never learnt as a
learnt verb of the same action (:meth:`intent.model.EmbeddedModel.spelled`), for every domain,
from this table alone. A word that names a thing as often as an action ("reserva", "marca",
"order", "file") is left out: read as another word, it would change what the message is about.
Accent-free, lower case, one word each.
"""

from __future__ import annotations

from collections.abc import Iterable

#: action -> (Portuguese verbs, English verbs)
_ACTIONS: dict[str, tuple[str, str]] = {
    "cancel": (
        "cancela cancelar cancele desmarca desmarcar desmarque anula anular anule tira tirar tire"
        " remove remover desiste desistir",
        "cancel unbook drop scrap",
    ),
    "book": (
        "agenda agendar agende inscreve inscrever inscreva coloca colocar coloque bota botar",
        "book enroll enrol schedule put",
    ),
    "change": ("muda mudar mude altera alterar altere", "change switch"),
    "send": ("manda mandar mande envia enviar envie joga jogar dispara disparar", "send forward"),
    "search": ("procura procurar busca buscar pesquisa pesquisar", "search"),
    "show": ("mostra mostrar lista listar exibe exibir", "show list display"),
    "buy": ("compra comprar adquire adquirir", "buy purchase"),
    "refund": ("reembolsa reembolsar estorna estornar devolve devolver", "refund"),
    "renew": ("renova renovar prorroga prorrogar estende estender", "renew extend"),
    "pay": ("paga pagar quita quitar", "pay settle"),
    "transfer": ("transfere transferir", "transfer wire"),
    "open": ("abre abrir registra registrar", "open log raise"),
    "rent": ("aluga alugar", "rent hire"),
    # "busca" fetches as often as it searches ("me busca no aeroporto", "vem buscar 5 camisas"):
    # listed under both, it is read as neither
    "collect": ("recolhe recolher recolha recolham busca buscar busque buscam", "collect fetch haul"),
    # a price named is its cost asked: "*price* for a banner" of a quote phrased "how much"
    "cost": (
        "custa custam custar cobra cobram cobrar preco precos valor valores",
        "cost costs charge price prices",
    ),
}


def _actions() -> dict[str, str]:
    """Each verb's action; a verb listed under two actions is under neither (no guess)."""
    seen: dict[str, str] = {}
    twice: set[str] = set()
    for action, languages in _ACTIONS.items():
        for verb in " ".join(languages).split():
            if verb in seen and seen[verb] != action:
                twice.add(verb)
            seen[verb] = action
    return {verb: action for verb, action in seen.items() if verb not in twice}


#: Each everyday verb's action.
ACTION_OF: dict[str, str] = _actions()

#: Verbs of one action above that also ask for another: "*put* me on the family plan", "*bota*
#: meu número no pós" change a plan as much as they book. Never a stand-in for the classifier.
_ALSO: dict[str, str] = {
    "change": "coloca colocar coloque bota botar put",
}


#: Each verb's other actions, worked out once: ``actions_of`` runs for every candidate word.
_ALSO_OF: dict[str, frozenset[str]] = {
    verb: frozenset(action for action, verbs in _ALSO.items() if verb in verbs.split())
    for verb in " ".join(_ALSO.values()).split()
}


def actions_of(verb: str) -> frozenset[str]:
    """Every action ``verb`` may ask for: its own (:data:`ACTION_OF`) and any other it also does."""
    own = frozenset({ACTION_OF[verb]}) if verb in ACTION_OF else frozenset()
    return own | _ALSO_OF.get(verb, frozenset())


def learnt_synonyms(learnt: Iterable[str]) -> dict[str, str]:
    """For each verb of the table the classifier did not learn, a learnt verb of the same action:
    the first the table lists in the verb's language, else in the other one."""
    known = frozenset(learnt)
    stand_in: dict[str, str] = {}
    for action, languages in _ACTIONS.items():
        listed = [[verb for verb in verbs.split() if ACTION_OF.get(verb) == action] for verbs in languages]
        for own, other in (listed, listed[::-1]):
            chosen = next((verb for verb in [*own, *other] if verb in known), None)
            if chosen is None:
                continue
            for verb in own:
                if verb not in known:
                    stand_in[verb] = chosen
    return stand_in
