"""The offline (rule-based) logic of the three agents, honest about what it is.

No model is involved: the methodologist looks for five elements with regular expressions —
population, variables (independent and dependent), metric, comparison and measurable effect —
and the structurer rewrites the person's sentence into a research question with a few patterns.
Every answer built from this module says that it is rule-based analysis.

>>> f = find_elements("Método X reduz tempo em 30% em equipes de 2-5 devs")
>>> f.missing()
[]
>>> classify_maturity("Método incremental é mais rápido")
'vague'
>>> structure("Método incremental é mais rápido", "pt")["structured_question"]
'Como método incremental impacta a velocidade?'
>>> evaluate("Como método incremental impacta a velocidade?", "pt")["status"]
'needs_refinement'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from domains.research.fields import field_of
from domains.research.text import Lang, fold, lower_first, sentence, words
from domains.research.wording import MESSAGES

Maturity = Literal["vague", "semi_formed", "complete"]
ASPECTS = ("population", "variables", "metric", "comparison", "effect")


def _any(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


POPULATION = _any(
    [
        r"\b(?:equipes?|times?|grupos?|turmas?)\s+(?:de|com)\s+[\w\-–]+(?:\s+(?:devs?|pessoas|membros|desenvolvedores|alunos))?",
        r"\b(?:estudantes|alunos?|alunas?|desenvolvedor(?:es|as)?|devs?|programador(?:es|as)|"
        r"professor(?:es|as)|pacientes|usuari[oa]s|empresas|startups?|participantes|funcionari[oa]s|"
        r"criancas|adultos|idosos|profissionais|engenheir[oa]s|gestores|clientes|motoristas|"
        r"enfermeir[oa]s|medic[oa]s|trabalhador(?:es|as)|adolescentes|jovens|atletas|gestantes|"
        r"mulheres|homens|moradores|leitores|voluntari[oa]s)\b",
        r"\bde\s+\d+\s+a\s+\d+\s+anos\b",
        r"\bteams?\s+of\b",
        r"\b(?:students|pupils|developers|devs|engineers|patients|users|companies|employees|"
        r"participants|children|adults|teachers|programmers|customers|managers|startups|drivers|"
        r"nurses|doctors|workers|teenagers|adolescents|athletes|women|men|residents|readers|"
        r"volunteers|elderly)\b",
        r"\baged\s+\d+",
    ]
)
INDEPENDENT = _any(
    [
        r"\b(?:metodos?|abordagens?|tecnicas?|praticas?|ferramentas?|intervenc(?:ao|oes)|programas?|"
        r"estrategias?|uso d[eoa]s?|adocao d[eoa]s?|treinamentos?|tratamentos?|modelos?|frameworks?|"
        r"processos?|metodologias?|revis(?:ao|oes) de codigo|programacao em par)\b",
        r"\b(?:methods?|approach(?:es)?|techniques?|practices?|tools?|interventions?|programs?|"
        r"strateg(?:y|ies)|use of|adoption of|training|treatments?|frameworks?|processes?|"
        r"code reviews?|pair programming)\b",
        r"\b(?:tdd|bdd|scrum|kanban|llms?|ia|ai|agile|agil|incremental|cascata|waterfall)\b",
    ]
)
DEPENDENT = _any(
    [
        r"\b(?:tempo|velocidade|rapid[oa]s?|lent[oa]s?|produtividade|produtiv[oa]s?|qualidade|custos?|"
        r"defeitos|bugs|erros|desempenho|performance|eficiencia|eficientes?|eficacia|satisfacao|"
        r"engajamento|aprendizagem|aprendizado|notas?|retencao|entregas?|throughput|lead time|"
        r"cycle time|precisao|seguranca)\b",
        r"\b(?:time|speed|faster|slower|productivity|productive|quality|costs?|defects|bugs|errors|"
        r"performance|efficiency|efficient|satisfaction|engagement|learning|grades|retention|"
        r"delivery|accuracy|safety)\b",
    ]
)
METRIC = _any(
    [
        r"\bmedid[oa]s?\s+(?:por|em|pel[oa]s?|como)\b",
        r"\bmensurad[oa]s?\b",
        r"%",
        r"\bpor cento\b",
        r"\b(?:sprints?|horas?|dias|semanas|minutos|story points|pontos|tempo)\b",
        r"\b(?:taxa|numero|quantidade|indice|percentual)\s+de\b",
        r"\b(?:escore|nota media)\b",
        r"\bmeasured\s+(?:by|in|as)\b",
        r"\b(?:percent|hours?|days|weeks|minutes|sprints?|story points|lead time|cycle time|score|time)\b",
        r"\b(?:rate|number|count|share)\s+of\b",
    ]
)
COMPARISON = _any(
    [
        r"\bcomparad[oa]s?\b",
        r"\bem (?:relacao|comparacao) (?:a|ao|a?os|com)\b",
        r"\b(?:mais|menos)\s+\w+\s+(?:do\s+)?que\b",
        r"\b(?:melhor|pior|maior|menor)\s+(?:do\s+)?que\b",
        r"\bversus\b",
        r"\bvs\.?\s",
        r"\b(?:reduz|reduzem|diminui|diminuem|aumenta|aumentam|melhora|melhoram|eleva|elevam|"
        r"acelera|aceleram|corta|cortam)\b[^.]*?\bem\s+\d+(?:[.,]\d+)?\s*%?",
        r"\bem vez de\b",
        r"\bgrupo (?:de )?controle\b",
        r"\bantes e depois\b",
        r"\bthan\b",
        r"\bcompared\b",
        r"\brelative to\b",
        r"\binstead of\b",
        r"\bcontrol group\b",
        r"\bbefore and after\b",
        r"\b(?:reduces?|increases?|improves?|cuts?|lowers?|raises?|decreases?)\b[^.]*?\bby\s+\d+(?:[.,]\d+)?\s*%?",
    ]
)
EFFECT = _any(
    [
        r"\d+(?:[.,]\d+)?\s*(?:%|por cento|percent|vezes|times\b|x\b)",
        r"\b(?:reduz|reduzem|diminui|diminuem|aumenta|aumentam|melhora|melhoram|piora|pioram|acelera|"
        r"aceleram|eleva|elevam|mais|menos|maior|menor|melhor|pior)\b",
        r"\b(?:reduces?|increases?|improves?|decreases?|worsens?|more|less|faster|slower|higher|lower|"
        r"better|worse|cheaper)\b",
    ]
)
EFFECT_NUMBER = re.compile(r"\d+(?:[.,]\d+)?\s*(?:%|por cento|percent|vezes|times\b|x\b)")
NORMATIVE = re.compile(r"\b(?:deus|alma|destino|sobrenatural|deveria[m]?|should|god|soul|fate)\b")
#: What people say when they ask for help without giving the idea itself yet.
META_WORDS_WORDS = (
    "quero queria gostaria testar uma um hipotese hipoteses pesquisa pesquisar questao ideia "
    "ideias observacao ajuda ajude me ajudar transformar em de sobre criar formular validar "
    "minha meu tenho eu a o para com i want to test a an hypothesis research question help me "
    "turn observation into idea my have would like formulate validate create please por favor "
    "this isso isto esta essa can you could pode voce poderia an um numa num as of hypotheses"
)
META_WORDS = frozenset(META_WORDS_WORDS.split())
_META_PREFIX = re.compile(
    r"^\s*(?:(?:eu\s+)?(?:quero|queria|gostaria de)\s+(?:testar|validar|formular)\s+(?:uma\s+)?hip[oó]tese"
    r"|(?:(?:eu\s+)?(?:tenho|tive)\s+)?(?:minha\s+|uma\s+)?(?:hip[oó]tese|ideia|observa[cç][aã]o)(?:\s+[eé])?"
    r"|i\s+want\s+to\s+test\s+(?:a|an|this|the)?\s*hypothesis"
    r"|(?:i\s+(?:have|had)\s+)?(?:my\s+|an?\s+)?(?:hypothesis|idea|observation)(?:\s+is)?)"
    r"\s*[:\-–—]\s*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Elements:
    """The spans found for each element (``None`` = missing)."""

    population: str | None
    independent: str | None
    dependent: str | None
    metric: str | None
    comparison: str | None
    effect: str | None

    def present(self, aspect: str) -> bool:
        if aspect == "variables":
            return self.independent is not None and self.dependent is not None
        return getattr(self, aspect) is not None

    def missing(self) -> list[str]:
        return [a for a in ASPECTS if not self.present(a)]


def _span(pattern: re.Pattern[str], folded: str, original: str) -> str | None:
    """The matched words as the person wrote them (fold() keeps positions for Latin text)."""
    match = pattern.search(folded)
    if match is None:
        return None
    source = original if len(original) == len(folded) else folded
    return source[match.start() : match.end()].strip()


def find_elements(text: str) -> Elements:
    """The five elements' spans; the variables come from the vocabulary, else from the sentence.

    >>> f = find_elements("Café melhora a memória de curto prazo em estudantes")
    >>> f.independent, f.dependent, f.population, f.missing()
    ('Café', 'a memória de curto prazo', 'estudantes', ['metric', 'comparison'])
    """
    folded = fold(text)
    population = _span(POPULATION, folded, text)
    roles = _verb_roles(text, population)
    return Elements(
        population=population,
        independent=_span(INDEPENDENT, folded, text) or (roles and roles[0]),
        dependent=_span(DEPENDENT, folded, text) or (roles and roles[1]),
        metric=_span(METRIC, folded, text),
        comparison=_span(COMPARISON, folded, text),
        # a number/percentage says more than a direction word: prefer it when both are there
        effect=_span(EFFECT_NUMBER, folded, text) or _span(EFFECT, folded, text),
    )


def classify_maturity(text: str) -> Maturity:
    """complete = all five elements; semi_formed = three or four; vague = fewer."""
    found = len(ASPECTS) - len(find_elements(text).missing())
    if found == len(ASPECTS):
        return "complete"
    return "semi_formed" if found >= 3 else "vague"


#: How a structured question opens ("Em que medida X melhora Y?"): not part of the subject.
_QUESTION_LEAD = re.compile(
    r"^\s*(?:em que medida|de que (?:forma|maneira)|como|to what extent (?:does|do)|how (?:does|do))\s+",
    re.IGNORECASE,
)
_TRAILING_LINK = re.compile(r"\s+(?:em|entre|para|nos|nas|in|among|for)$", re.IGNORECASE)


def _verb_roles(text: str, population: str | None) -> tuple[str, str] | None:
    """(what acts, what changes) of "X melhora Y" / "X improves Y", the population left out of Y."""
    body = _QUESTION_LEAD.sub("", text.strip().rstrip("?.! "), count=1)
    match = _PT_VERB.match(body) or _EN_VERB.match(body)
    if match is None:
        return None
    subject, changed = match["subj"].strip(), match["obj"].strip()
    if population and population in changed:
        changed = _TRAILING_LINK.sub("", changed[: changed.index(population)].rstrip())
    return (subject, changed) if subject and changed else None


#: "<lead-in>: <idea>": the lead-in is dropped when it is only words asking for help.
_LEAD_IN = re.compile(r"^(?P<head>[^:]{1,100}):\s*(?P<idea>\S.*)$", re.DOTALL)


def strip_meta(text: str) -> str:
    """'quero testar uma hipótese: X' -> 'X' (the idea itself).

    >>> [strip_meta(t) for t in ("Tenho uma ideia: café melhora a memória", "I have an idea: X helps")]
    ['café melhora a memória', 'X helps']
    >>> strip_meta("help me turn this into a research hypothesis: music improves focus")
    'music improves focus'
    >>> strip_meta("tenho uma ideia de pesquisa: café melhora a memória")
    'café melhora a memória'
    """
    stripped = _META_PREFIX.sub("", text.strip(), count=1).strip()
    lead_in = _LEAD_IN.match(stripped)
    if lead_in and all(w in META_WORDS for w in words(lead_in["head"])):
        return lead_in["idea"].strip()
    return stripped


def is_meta_request(text: str) -> bool:
    """True when the text asks for help but carries no idea yet ("quero testar uma hipótese")."""
    content = [w for w in words(strip_meta(text)) if w not in META_WORDS]
    return len(content) < 2


# ----------------------------------------------------------------------------- structurer

_DIMENSIONS: dict[Lang, dict[str, str]] = {
    "pt": {
        "rapido": "a velocidade",
        "rapida": "a velocidade",
        "lento": "a velocidade",
        "lenta": "a velocidade",
        "eficiente": "a eficiência",
        "produtivo": "a produtividade",
        "produtiva": "a produtividade",
        "barato": "o custo",
        "barata": "o custo",
        "caro": "o custo",
        "cara": "o custo",
        "melhor": "os resultados",
        "pior": "os resultados",
        "preciso": "a precisão",
        "precisa": "a precisão",
        "seguro": "a segurança",
        "segura": "a segurança",
        "facil": "a facilidade de uso",
        "eficaz": "a eficácia",
        "efetivo": "a eficácia",
        "efetiva": "a eficácia",
    },
    "en": {
        "faster": "speed",
        "slower": "speed",
        "quicker": "speed",
        "better": "outcomes",
        "worse": "outcomes",
        "cheaper": "cost",
        "efficient": "efficiency",
        "productive": "productivity",
        "easier": "ease of use",
        "safer": "safety",
        "effective": "effectiveness",
        "accurate": "accuracy",
    },
}
_PT_COMPARATIVE = re.compile(
    r"^(?P<subj>.+?)\s+(?:é|e|são|sao|fica|ficam|seria|seriam)\s+(?P<dir>mais|menos)\s+(?P<adj>[\wçãéíóúâê]+)"
    r"(?:\s+(?:do\s+)?que\s+(?P<other>.+))?$",
    re.IGNORECASE,
)
_PT_BETTER = re.compile(
    r"^(?P<subj>.+?)\s+(?:é|e|são|sao)\s+(?P<adj>melhor|pior)(?:\s+(?:do\s+)?que\s+(?P<other>.+))?$",
    re.IGNORECASE,
)
_PT_VERB = re.compile(
    r"^(?P<subj>.+?)\s+(?P<verb>melhora|melhoram|aumenta|aumentam|reduz|reduzem|diminui|diminuem|impacta|"
    r"impactam|afeta|afetam|influencia|influenciam|acelera|aceleram|piora|pioram)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_EN_COMPARATIVE = re.compile(
    r"^(?P<subj>.+?)\s+(?:is|are|gets|get|would be)\s+(?P<adj>\w+er|more\s+\w+|less\s+\w+|better|worse)"
    r"(?:\s+than\s+(?P<other>.+))?$",
    re.IGNORECASE,
)
_EN_VERB = re.compile(
    r"^(?P<subj>.+?)\s+(?P<verb>improves|improve|increases|increase|reduces|reduce|decreases|decrease|"
    r"affects|affect|impacts|impact|influences|influence|speeds up|slows down)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)


def _dimension(adj: str, lang: Lang) -> str:
    key = fold(adj).replace("more ", "").replace("less ", "").strip()
    table = _DIMENSIONS[lang]
    if key in table:
        return table[key]
    # Portuguese names an unknown dimension by the adjective as written, English by its base word
    return MESSAGES.t("question.dimension_of", lang, word=adj if lang == "pt" else key)


def _other(match: re.Match[str], lang: Lang) -> str:
    """The clause that names what the idea is compared with (" compared with X"), if it does."""
    return f" {MESSAGES.t('question.compared_with', lang, other=match['other'])}" if match["other"] else ""


def _question_from_idea(idea: str, lang: Lang) -> tuple[str, str, str]:
    """(structured question, subject, dimension) from a one-sentence idea."""
    if lang == "pt":
        comparative = _PT_COMPARATIVE.match(idea) or _PT_BETTER.match(idea)
    else:
        comparative = _EN_COMPARATIVE.match(idea)
    if comparative:
        subj, dim = lower_first(comparative["subj"]), _dimension(comparative["adj"], lang)
        other = _other(comparative, lang)
        return MESSAGES.t("question.comparative", lang, subject=subj, dimension=dim, other=other), subj, dim
    with_verb = (_PT_VERB if lang == "pt" else _EN_VERB).match(idea)
    if with_verb:
        subj, verb = lower_first(with_verb["subj"]), with_verb["verb"].lower()
        if lang == "en" and verb.endswith("s") and " " not in verb:
            verb = verb[:-1]  # "does X reduce", not "does X reduces"
        obj = with_verb["obj"]
        return MESSAGES.t("question.verb", lang, subject=subj, verb=verb, object=obj), subj, obj
    question = MESSAGES.t("question.open", lang, idea=lower_first(idea))
    return question, idea, MESSAGES.t("question.the_effect", lang)


def _shares_words(text: str, idea: str) -> bool:
    """``text`` names the idea: a word of five letters or more of it."""
    idea_words = {w for w in re.findall(r"\w+", fold(idea)) if len(w) >= 5}
    return any(w in idea_words for w in re.findall(r"\w+", fold(text)))


def structure(
    idea: str, lang: Lang, *, previous_question: str | None = None, details: str | None = None
) -> dict[str, str]:
    """The structurer's JSON (context, problem, contribution, structured_question).

    With ``details`` (a refinement), a reply that restates the idea as a hypothesis (three or more
    of the five elements, and the idea's own words) becomes the new question; anything else is
    added to the previous question ("em equipes de 2-5 devs", "medir em 3 meses"): refining never
    drops the idea. A new idea is its own command ("nova ideia: …").
    """
    idea_s = sentence(strip_meta(idea))
    if details and previous_question:
        extra = sentence(strip_meta(details))
        if classify_maturity(extra) != "vague" and _shares_words(extra, idea_s):
            question = extra
        else:
            question = f"{previous_question.rstrip(' ?.')}, {lower_first(extra.rstrip(' ?.!'))}?"
        subj, dim = idea_s, MESSAGES.t("question.the_effect", lang)
    else:
        question, subj, dim = _question_from_idea(idea_s, lang)
    problem = (
        MESSAGES.t("structure.problem", lang, subject=lower_first(subj), dimension=dim)
        if not details
        else MESSAGES.t("structure.problem_refined", lang, details=sentence(details))
    )
    return {
        "context": MESSAGES.t("structure.context", lang, idea=idea_s),
        "problem": problem,
        "contribution": MESSAGES.t("structure.contribution", lang),
        "structured_question": question,
    }


# -------------------------------------------------------------------------- methodologist


def aspect_name(aspect: str, lang: Lang) -> str:
    """One of :data:`ASPECTS` as people read it ("população", "metrics")."""
    return MESSAGES.t(f"aspect.{aspect}", lang)


def evaluate(question: str, lang: Lang) -> dict[str, Any]:
    """The methodologist's JSON: status, justification, improvements, clarifications."""
    found = find_elements(question)
    missing = found.missing()
    field = field_of(question)  # the hints' examples come from the idea's own field
    names = {aspect: aspect_name(aspect, lang) for aspect in ASPECTS}
    nothing_measurable = found.independent is None and found.dependent is None and found.metric is None
    if nothing_measurable or (NORMATIVE.search(fold(question)) and found.dependent is None):
        status = "rejected"
    elif not missing:
        status = "approved"
    else:
        status = "needs_refinement"
    improvements = [
        {
            "aspect": names[a],
            "gap": MESSAGES.t(f"gap.{a}.missing", lang),
            "suggestion": MESSAGES.t(f"hint.{field}.{a}", lang),
        }
        for a in missing
    ]
    clarifications = {names[a]: MESSAGES.t(f"gap.{a}.question", lang) for a in missing}
    if status == "approved":
        justification = MESSAGES.t(
            "justification.approved",
            lang,
            population=found.population,
            independent=found.independent,
            dependent=found.dependent,
            metric=found.metric,
            comparison=found.comparison,
            effect=found.effect,
        )
    elif status == "rejected":
        justification = MESSAGES.t("justification.rejected", lang)
    else:
        aspects = ", ".join(names[a] for a in missing)
        justification = MESSAGES.t("justification.needs_refinement", lang, aspects=aspects)
    return {
        "status": status,
        "justification": justification,
        "improvements": improvements,
        "clarifications": clarifications,
    }
