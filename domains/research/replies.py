"""What the person's answer to the facilitator means (the orchestrator's reply interpretation).

Deterministic on purpose, in both modes: the options offered are commands the person can rely on.
A command counts only at the start of the answer, so a refinement that happens to contain
"terminar" is still a refinement. Anything that is not a command is a refinement with details.

>>> interpret("aprovar").action, interpret("Pode encerrar, obrigado").action
('finish', 'finish')
>>> r = interpret("nova ideia: LLMs aumentam a produtividade")
>>> r.action, r.text
('new_idea', 'LLMs aumentam a produtividade')
>>> interpret("comparar v1 e v2").versions
(1, 2)
>>> interpret("refinar").action, interpret("refinar").text
('refine', '')
>>> interpret("em equipes de 2-5 devs, medido por sprints").action
'refine'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from domains.research.text import fold

Action = Literal["finish", "research", "versions", "new_idea", "refine", "empty"]

_LEAD = (
    r"^\s*(?:(?:ok|sim|entao|bom|certo|vamos|quero|pode|please|yes|let's|lets|i want to|eu quero)[\s,.!]+)*"
)
_FINISH = re.compile(
    _LEAD + r"(?:aprovar|aprovo|aprovad[ao]|aceito|aceitar|encerrar|encerra|encerre|finalizar|finaliza|"
    r"finalize|concluir|conclui|terminar|termina|fechar|pronto|accept|approve|approved|finish|done|"
    r"close|end|stop|that's it|thats it)\b",
)
_RESEARCH = re.compile(
    _LEAD + r"(?:pesquisar|pesquise|buscar (?:na )?literatura|buscar artigos|literatura|bibliografia|"
    r"research(?: the)?(?: literature)?$|research literature|search(?: the)? literature|literature|papers)\b",
)
_VERSIONS = re.compile(
    _LEAD + r"(?:listar|lista|liste|mostrar|mostre|ver|list|show)?\s*(?:as\s+|the\s+)?(?:versoes|versions|"
    r"historico|history)\b"
)
_COMPARE = re.compile(
    _LEAD + r"(?:comparar|compare|compara|diff)\b[^0-9]*?v?(\d+)\D+?v?(\d+)",
)
_NEW_IDEA = re.compile(
    _LEAD + r"(?:nova ideia|outra ideia|mudar de (?:direcao|ideia)|mudar a direcao|mudar direcao|"
    r"comecar de novo|recomecar|new idea|another idea|change (?:of )?direction|start over)\b[\s:,.\-–—]*",
)
_REFINE = re.compile(_LEAD + r"(?:refinar|refine|refinamento|refina|melhorar)\b[\s:,.\-–—]*")


@dataclass(frozen=True)
class Reply:
    action: Action
    #: The rest of the answer: the details of a refinement, the new idea, or ''.
    text: str = ""
    versions: tuple[int, int] | None = None


def _rest(original: str, folded: str, match: re.Match[str]) -> str:
    # fold() keeps one character per character for the Latin text people type, so the
    # match's end maps back onto the original answer.
    rest = original[match.end() :] if len(folded) == len(original) else folded[match.end() :]
    return rest.strip(" :,.-–—")


def interpret(answer: str) -> Reply:
    original = " ".join(answer.split())
    folded = fold(original)
    if not folded.strip():
        return Reply("empty")
    if m := _COMPARE.match(folded):
        return Reply("versions", versions=(int(m[1]), int(m[2])))
    if _VERSIONS.match(folded):
        return Reply("versions")
    if m := _NEW_IDEA.match(folded):
        return Reply("new_idea", _rest(original, folded, m))
    if _RESEARCH.match(folded):
        return Reply("research")
    if _FINISH.match(folded):
        return Reply("finish")
    if m := _REFINE.match(folded):
        return Reply("refine", _rest(original, folded, m))
    return Reply("refine", original.strip())
