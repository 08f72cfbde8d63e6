"""What the person's answer to the facilitator means (the orchestrator's reply interpretation).

Deterministic on purpose, in both modes: the options offered are commands the person can rely on.
A command is recognised at the start of the answer (after words such as "ok", "quero", "can you"),
and a question about the versions is recognised as such ("quais versões da hipótese temos?"),
so a refinement that happens to contain "terminar" is still a refinement. Anything that is not a
command is a refinement with details.

>>> interpret("aprovar").action, interpret("Pode encerrar, obrigado").action, interpret("approve").action
('finish', 'finish', 'finish')
>>> interpret("aprovar a v1").versions, interpret("I approve version 2").versions
((1, 1), (2, 2))
>>> r = interpret("nova ideia: LLMs aumentam a produtividade")
>>> r.action, r.text
('new_idea', 'LLMs aumentam a produtividade')
>>> interpret("comparar v1 e v2").versions
(1, 2)
>>> [interpret(t).action for t in ("compare as versões", "o que mudou entre as versões?")]
['compare', 'compare']
>>> [interpret(t).action for t in ("quais versões da hipótese temos?", "what versions do we have?")]
['versions', 'versions']
>>> [interpret(t).action for t in ("reiniciar a pesquisa", "restart the research", "começar do zero")]
['restart', 'restart', 'restart']
>>> interpret("refinar").action, interpret("refinar").text
('refine', '')
>>> [interpret(t).action for t in ("em equipes de 2-5 devs, medido por sprints", "comparado a um placebo")]
['refine', 'refine']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from domains.research.text import fold

Action = Literal["finish", "research", "versions", "compare", "restart", "new_idea", "refine", "empty"]

_LEAD = (
    r"^\s*(?:(?:ok|okay|sim|entao|bom|certo|vamos|quero|queria|gostaria de|pode|podemos|poderia|"
    r"voce pode|por favor|agora|please|yes|now|let's|lets|let us|i want to|i'd like to|i would like to|"
    r"can you|could you|can we|eu quero|eu|i|me)[\s,.!]+)*"
)
_FINISH = re.compile(
    _LEAD + r"(?:aprovar|aprovo|aprova|aprove|aprovad[ao]|aceito|aceitar|encerrar|encerra|encerre|"
    r"finalizar|finaliza|finalize|concluir|conclui|terminar|termina|fechar|pronto|accept|approve|"
    r"approved|finish|done|close|end|stop|that's it|thats it)\b",
)
_RESEARCH = re.compile(
    _LEAD + r"(?:pesquisar|pesquise|buscar (?:na )?literatura|buscar artigos|literatura|bibliografia|"
    r"research(?: the)?(?: literature)?$|research literature|search(?: the)? literature|literature|papers)\b",
)
#: Restarting wipes the versions and the agents' memory ("reiniciar a pesquisa", "start from scratch").
_RESTART = re.compile(
    _LEAD + r"(?:reiniciar|reinicia|reinicie|reinicio|resetar|reseta|resete|reset|restart|zerar|zera|"
    r"zere|limpar tudo|apagar tudo|(?:re)?comecar (?:a pesquisa |tudo |a sessao )?do zero|"
    r"start (?:the research |the session |everything )?(?:over |again )?from scratch)\b",
)
_VERSION_WORDS = r"(?:versoes|versions|historico|history)"
#: A request to see the versions: a verb to show them or a question word, then the versions...
_VERSIONS_ASKED = re.compile(
    _LEAD + r"(?:listar|lista|liste|mostrar|mostre|mostra|ver|veja|exibir|exiba|quais|que|qual|quantas|"
    r"list|show|see|display|view|what|which|how many|give me)\b[^0-9]*?\b" + _VERSION_WORDS + r"\b"
)
#: ...or the versions named first ("versões", "as versões, por favor", "the versions please").
_VERSIONS_NAMED = re.compile(
    _LEAD + r"(?:as |os |o |the |my |minhas |todas as |all (?:the )?)?" + _VERSION_WORDS + r"\b"
)
#: "comparar"/"compare" at the start compares versions (unless it compares with something: a
#: refinement such as "compare com placebo")...
_COMPARE_VERB = re.compile(_LEAD + r"(?:comparar|compare|compara|diff)\b(?!\s+(?:com|with|ao|a|to)\b)")
#: ...other ways to ask count when the versions are named ("o que mudou entre as versões?").
_COMPARE_ASKED = re.compile(
    _LEAD + r"(?:(?:qual|quais|what|what's|whats) (?:e |sao |is |are )?(?:a |as |the )?)?"
    r"(?:comparar|compare|compara|comparacao|comparison|diff|diferenca|diferencas|difference|"
    r"differences|o que mudou|what changed|what has changed|what's changed|whats changed)\b"
    r"(?=.*(?:\b" + _VERSION_WORDS + r"\b|\bv(?:ersao|ersion)?\s*\d))"
)
_VERSION_NUMBER = re.compile(r"\bv(?:ersao|ersion)?\s*(\d+)\b|\b(\d+)\b")
_NEW_IDEA = re.compile(
    _LEAD + r"(?:nova ideia|outra ideia|mudar de (?:direcao|ideia)|mudar a direcao|mudar direcao|"
    r"comecar de novo|recomecar|new idea|another idea|change (?:of )?direction|start over)\b[\s:,.\-–—]*",
)
_REFINE = re.compile(_LEAD + r"(?:refinar|refine|refinamento|refina|melhorar)\b[\s:,.\-–—]*")
#: A question about the versions is short; a longer answer that mentions them is a refinement.
_VERSIONS_MAX_WORDS = 10


@dataclass(frozen=True)
class Reply:
    action: Action
    #: The rest of the answer: the details of a refinement, the new idea, or ''.
    text: str = ""
    #: The versions named: a pair to compare, or ``(n, n)`` for "aprovar a V<n>".
    versions: tuple[int, int] | None = None


def _rest(original: str, folded: str, match: re.Match[str]) -> str:
    # fold() keeps one character per character for the Latin text people type, so the
    # match's end maps back onto the original answer.
    rest = original[match.end() :] if len(folded) == len(original) else folded[match.end() :]
    return rest.strip(" :,.-–—")


def _numbers(text: str) -> list[int]:
    return [int(a or b) for a, b in _VERSION_NUMBER.findall(text)]


def _short(folded: str) -> bool:
    return len(folded.split()) <= _VERSIONS_MAX_WORDS


def interpret(answer: str) -> Reply:
    original = " ".join(answer.split())
    folded = fold(original)
    if not folded.strip():
        return Reply("empty")
    if _short(folded) and (m := _COMPARE_VERB.match(folded) or _COMPARE_ASKED.match(folded)):
        numbers = _numbers(folded[m.end() :])
        pair = (numbers[0], numbers[1]) if len(numbers) >= 2 else None
        return Reply("compare", versions=pair)
    if _short(folded) and (_VERSIONS_ASKED.match(folded) or _VERSIONS_NAMED.match(folded)):
        return Reply("versions")
    if _RESTART.match(folded):
        return Reply("restart")
    if m := _NEW_IDEA.match(folded):
        return Reply("new_idea", _rest(original, folded, m))
    if _RESEARCH.match(folded):
        return Reply("research")
    if m := _FINISH.match(folded):
        # "aprovar a V1": finish with that version (only a version number right after the command)
        named = _VERSION_NUMBER.match(re.sub(r"^\s*(?:a|o|the)?\s*", "", folded[m.end() :]))
        number = int(named[1] or named[2]) if named else None
        return Reply("finish", versions=(number, number) if number else None)
    if m := _REFINE.match(folded):
        return Reply("refine", _rest(original, folded, m))
    return Reply("refine", original.strip())
