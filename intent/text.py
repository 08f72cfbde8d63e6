"""Tokens and function words shared by every intent component.

People type without accents, in lower case and with small typos, so everything the classifier
and the entity extractor compare is normalised by :func:`shared.i18n.normalise` (accents
stripped, lower-cased, punctuation turned into spaces). Normalisation is character-for-character,
so a token found in the normalised text maps straight back to the exact span the person wrote.
The language of a text is :func:`shared.i18n.detect`'s to tell.

>>> [t.text for t in tokens("Preço da Apple, Microsoft e Nvidia")]
['preco', 'da', 'apple', 'microsoft', 'e', 'nvidia']
>>> [(t.start, t.end) for t in tokens("Itaú!")]
[(0, 4)]
>>> [t.text for t in tokens("2kg de tomate, 3un, RD8812 às 10h30, 14h, 2x, 3rd")]
['2', 'kg', 'de', 'tomate', '3', 'un', 'rd8812', 'as', '10h30', '14h', '2x', '3rd']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import overload

from shared.i18n import normalise, words

__all__ = [
    "FILLER_EN",
    "FILLER_PT",
    "INDEFINITES",
    "SHORTHANDS",
    "STOP_EN",
    "STOP_PT",
    "Token",
    "colon_lead_in",
    "expand_shorthands",
    "how_to_verb",
    "is_gerund",
    "request_part",
    "sentences",
    "status_question",
    "tokens",
    "verb_stem",
    "words",
]

#: A number glued to the word after it is two words, so a unit is seen as a word of its own
#: ("2kg" is "2", "kg"; "3un" is "3", "un"). Not a code ("RD8812", "10h30": letters then digits, or
#: digits after the letters), and not an ordinal's, a times sign's nor a clock's letters ("3rd", "1º",
#: "2x", "14h", "9pm"), which belong to their number.
_GLUED_NUMBER = r"\d+(?=(?!(?:st|nd|rd|th|o|a|os|as|x|h|am|pm)(?![a-z0-9]))[a-z]+(?![a-z0-9]))"
_TOKEN = re.compile(_GLUED_NUMBER + r"|[a-z0-9]+")


@dataclass(frozen=True)
class Token:
    """A normalised word and where it sits in the original text."""

    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    norm = normalise(text)
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(norm)]


# Function words of each language (accent-free), kept out of entity spans; they say nothing
# about any domain.
STOP_PT = frozenset(
    [
        "a",
        "o",
        "as",
        "os",
        "um",
        "uma",
        "uns",
        "umas",
        "de",
        "do",
        "da",
        "dos",
        "das",
        "no",
        "na",
        "nos",
        "nas",
        "em",
        "e",
        "ou",
        "que",
        "qual",
        "quem",
        "quando",
        "quais",
        "quanto",
        "quanta",
        "quantos",
        "quantas",
        "como",
        "pra",
        "pro",
        "pros",
        "pras",
        "num",
        "numa",
        "para",
        "por",
        "pelo",
        "pela",
        "pelos",
        "pelas",
        "com",
        "sem",
        "se",
        "me",
        "mim",
        "meu",
        "minha",
        "meus",
        "minhas",
        "seu",
        "sua",
        "seus",
        "suas",
        "te",
        "ti",
        "voce",
        "voces",
        "eu",
        "ele",
        "ela",
        "eles",
        "elas",
        # the pronouns joined to a preposition ("o status *dele*"): what was talked of, no object
        "dele",
        "dela",
        "deles",
        "delas",
        "nele",
        "nela",
        "neles",
        "nelas",
        "lhe",
        "lhes",
        "nos",
        "ao",
        "aos",
        "isso",
        "isto",
        "esse",
        "essa",
        "este",
        "esta",
        "aquele",
        "aquela",
        # the same pointing words contracted with "de" and "em": "o status desse pedido"
        "esses",
        "essas",
        "estes",
        "estas",
        "aqueles",
        "aquelas",
        "aquilo",
        "desse",
        "dessa",
        "desses",
        "dessas",
        "deste",
        "desta",
        "disso",
        "disto",
        "nesse",
        "nessa",
        "neste",
        "nesta",
        "nisso",
        "daquele",
        "daquela",
        "naquele",
        "naquela",
        "ai",
        "ali",
        "aqui",
        "la",
        "ja",
        "nao",
        "sim",
        "mais",
        "muito",
        "muita",
        "hoje",
        "agora",
        "ontem",
        "amanha",
        "favor",
        "porfavor",
        "por_favor",
        "tambem",
        "so",
        "quero",
        "queria",
        "gostaria",
        "pode",
        "poderia",
        "poderiam",
        "me_diga",
        "diga",
        "mostra",
        "mostre",
        "mostrar",
        "ver",
        "veja",
        "sobre",
        "ate",
        "entre",
        "qualquer",
        "algum",
        "alguma",
        "e_ai",
        "oi",
        "ola",
        "tudo",
        "bem",
        "esta",
        "estao",
        "sao",
        "ser",
        "foi",
        "vai",
        "vao",
        "tem",
        "ter",
        "estou",
    ]
)
STOP_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "from",
        "by",
        "with",
        "about",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "yet",
        "already",
        "am",
        "do",
        "does",
        "did",
        "what",
        "which",
        "who",
        "whom",
        "when",
        "how",
        "much",
        "many",
        "i",
        "me",
        "my",
        "mine",
        "you",
        "your",
        "yours",
        "he",
        "she",
        "it",
        "its",
        "we",
        "our",
        "they",
        "their",
        "them",
        "him",
        "this",
        "that",
        "these",
        "those",
        "and",
        "or",
        "not",
        "no",
        "yes",
        "please",
        "can",
        "could",
        "would",
        "will",
        "should",
        "shall",
        "may",
        "might",
        "tell",
        "show",
        "give",
        "get",
        "let",
        "lets",
        "s",
        "t",
        "today",
        "now",
        "yesterday",
        "tomorrow",
        "some",
        "any",
        "there",
        "here",
        "just",
        "also",
        "want",
        "wanna",
        "like",
        "need",
        "know",
    ]
)

# Words that carry the tone of a message, not what it asks for: greetings, politeness, thanks,
# hedges, time words and the verbs of asking and wanting. They are never entity words, in any
# goal ("Desculpe o incômodo, se não for pedir demais, qual o preço da Petrobras?"). Accent-free.
_FILLER_PT = """
    ola oi opa eai bom boa bons boas dia dias tudo bem tarde tardes noite noites obrigado obrigada
    obrigadao valeu vlw brigado agradeco desculpa desculpe desculpem perdao licenca incomodo
    incomodar atrapalhar gentileza gentil please pfv pf favor pergunta perguntar
    pedir pedindo peco demais muito muita muitos muitas bastante pouco tanto tanta super
    realmente rapidinho rapido rapida so apenas somente ainda entao enfim tipo assim
    estava estou tava to ta estamos pensando pensei penso achando acho querendo quero queria
    queremos gostaria gostariamos saber sabe saberia consegue conseguiria conseguir poderia
    poderiam podia preciso precisava precisando necessito diz diga dizer fala fale falar
    informa informe informar consulta consulte consultar verifica verifique verificar
    checa cheque checar olha olhe olhar ve veja ver ajuda ajude ajudar hoje ontem
    anteontem amanha agora atualmente momento hora horas semana mes ano ultimo ultima recente
    recentemente neste nesta nesse nessa atual atuais mesmo mesma afinal alias sei faz
    hmm hmmm hm ah oh putz vixe eita poxa ue
    vou vamos sou somos seremos seria seriamos gente desde partir possivel fiz fizemos
"""
_FILLER_EN = """
    hi hello hey hiya yo greetings good morning afternoon evening night thanks thank thx cheers
    appreciate appreciated sorry excuse bother bothering kindly please pls plz wonder wondering
    wondered curious ask asking question quick quickly lot lots really very much too so quite
    just only still then well okay ok great fine think thinking thought guess hoping hope
    would could wanted want wanting need needed like love know let tell check checking look
    looking see find help today yesterday tomorrow now currently current right moment time
    week month year latest recent recently again actually maybe perhaps probably idk dunno
    re ll ve m d
    whatever got whole entire advance if possible possibly made
    hmm hmmm hm ah oh uh uhm ugh smh lol omg
"""
#: Chat shorthands of both languages, written out before a message is classified: the goals'
#: examples spell words in full, so "qto ta a vale hj" or "whens my next appt" share no word with
#: them. Only shorthands that are no word of either language (nor a name's usual spelling).
SHORTHANDS = {
    # Portuguese
    "qto": "quanto",
    "qnto": "quanto",
    "qt": "quanto",
    "qtos": "quantos",
    "hj": "hoje",
    "amn": "amanhã",
    "vc": "você",
    "vcs": "vocês",
    "tb": "também",
    "tbm": "também",
    "pq": "porque",
    "oq": "o que",
    "q": "que",
    "tá": "está",
    "ta": "está",
    "tô": "estou",
    "td": "tudo",
    "blz": "beleza",
    "obg": "obrigado",
    "vlw": "valeu",
    "flw": "falou",
    "pfv": "por favor",
    "pfvr": "por favor",
    "mto": "muito",
    "mt": "muito",
    "dps": "depois",
    "agr": "agora",
    "cmg": "comigo",
    "nd": "nada",
    "msm": "mesmo",
    "hr": "hora",
    "hrs": "horas",
    "sdds": "saudades",
    "vdd": "verdade",
    # English
    "pls": "please",
    "plz": "please",
    "tmr": "tomorrow",
    "tmrw": "tomorrow",
    "tmw": "tomorrow",
    "rn": "right now",
    "appt": "appointment",
    "appts": "appointments",
    "u": "you",
    "ur": "your",
    "whens": "when is",
    "whats": "what's",
    "wheres": "where's",
    "hows": "how's",
    "thx": "thanks",
    "thnx": "thanks",
    "ty": "thank you",
    "idk": "i do not know",
    "btw": "by the way",
    "wanna": "want to",
    "gonna": "going to",
    "gimme": "give me",
    "lemme": "let me",
    "asap": "as soon as possible",
    "msg": "message",
    "info": "information",
}
_SHORTHAND = re.compile(
    r"(?<![\w$])(" + "|".join(sorted(map(re.escape, SHORTHANDS), key=len, reverse=True)) + r")(?![\w$])",
    re.IGNORECASE,
)


def expand_shorthands(text: str) -> str:
    """``text`` with its chat shorthands written out (for classifying it, never for cutting
    entity values from it).

    >>> expand_shorthands("qto ta a Vale hj?"), expand_shorthands("whens my next appt")
    ('quanto está a Vale hoje?', 'when is my next appointment')
    >>> expand_shorthands("R$ 30 pra u")
    'R$ 30 pra you'
    """
    return _SHORTHAND.sub(lambda m: SHORTHANDS[m.group(1).lower()], text)


#: The shorthands are filler too: never (part of) an entity value.
_SHORTHAND_FILLER_PT = """
    qto qnto qt hj amn vc vcs tb tbm pq oq td blz obg flw pfv pfvr mto mt dps agr cmg nd msm
"""
_SHORTHAND_FILLER_EN = """
    plz tmr tmrw tmw rn u ur whens whats wheres hows thnx ty btw gonna gimme lemme asap
"""
FILLER_PT = frozenset(_FILLER_PT.split()) | frozenset(_SHORTHAND_FILLER_PT.split())
FILLER_EN = frozenset(_FILLER_EN.split()) | frozenset(_SHORTHAND_FILLER_EN.split())
#: Words that stand for a thing or a person not named ("do you have *anything* by Harari?",
#: "tem *alguma coisa* do Harari?", "cancel that *one*"), or all of them ("send me the *list* of
#: rooms", "quais as *opções*?"): never an entity value, unless capitalised inside a sentence as
#: a name's word ("Much Ado About Nothing"). Accent-free.
_INDEFINITES = """
    anything something nothing everything anyone someone nobody everyone anybody somebody
    whatever whichever all every each none stuff thing things one ones
    algo nada tudo alguem ninguem qualquer quaisquer coisa coisas todos todas cada nenhum nenhuma
    list lists lista listas options opcoes
"""
INDEFINITES = frozenset(_INDEFINITES.split())


_CLAUSE = re.compile(r"[^.!?;,]+[.!?;,]*")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_DELIMITERS = " \t\n.!?;,"
_FILLER = FILLER_PT | FILLER_EN
_FILLER_OR_STOP = _FILLER | STOP_PT | STOP_EN


#: Verbs that ask for advice rather than for an action ("me *indica* uma pousada", "*recommend*
#: a cheap hostel", "me *ensina* a trocar uma tomada": how to do it, not to have it done), and the
#: superlative that asks for an opinion ("what's the *best* hotel", "qual o *melhor*"). Accent-free.
_ADVICE_VERBS = frozenset(
    {"indica", "indique", "indicar", "recomenda", "recomende", "recomendar", "sugere", "sugira", "sugerir"}
    | {"ensina", "ensine", "ensinar", "recommend", "suggest", "advise", "teach"}
)
#: "where's the cheapest …": the question word before an opinion
_WHERE = frozenset({"where", "onde"})
_BEST = frozenset({"best", "melhor", "melhores", "cheapest", "nearest", "closest"})
_BEFORE_BEST = frozenset({"the", "o", "a", "os", "as", "qual", "quais", "which"})


def asks_advice(text: str, *, opinion: bool = True) -> bool:
    """Whether ``text``'s first word that is no function word or filler asks for advice (or, with
    ``opinion``, for an opinion: "the best") rather than for something done.

    >>> asks_advice("me indica uma pousada barata"), asks_advice("what's the best hotel in rio?")
    (True, True)
    >>> asks_advice("reserva o melhor hotel de Gramado"), asks_advice("melhor marcar às 10")
    (False, False)
    >>> asks_advice("me ensina a trocar uma tomada"), asks_advice("teach me to fix a leak")
    (True, True)
    >>> asks_advice("where's the cheapest parking near the stadium?")
    True
    """
    ws = words(expand_shorthands(text))
    first = next((i for i, w in enumerate(ws) if w not in _FILLER_OR_STOP and w not in _WHERE), None)
    if first is None:
        return False
    word = ws[first]
    return word in _ADVICE_VERBS or (
        opinion and word in _BEST and first > 0 and ws[first - 1] in _BEFORE_BEST
    )


#: how a question asks how to do something oneself: "como (eu) faço a barra", "how do I hem",
#: "how to fix"; after "como", the words that say so, and the words before the verb asked about
_HOW_PT_OPENERS = frozenset({"eu", "faco", "posso", "consigo", "devo", "se"})
_HOW_HELPERS = frozenset(
    {"eu", "faco", "faz", "fazer", "posso", "consigo", "devo", "se", "pra", "para", "a", "gente"}
    | {"do", "can", "could", "should", "would", "i", "we", "to", "one"}
)
_HOW_MODALS_EN = frozenset({"do", "can", "could", "should", "would"})
_HOW_SUBJECTS_EN = frozenset({"i", "we", "one"})


def how_to_verb(text: str) -> str | None:
    """The verb a question asks how to do oneself ("como eu faço a *barra* de uma calça?", "how
    do I *hem* pants?", "o zíper quebrou, como *conserto*?"), ``None`` when it asks no such thing
    ("como tá a Vale?", "how much is it?", "how's the weather?").

    >>> how_to_verb("como eu faço a barra de uma calça em casa?"), how_to_verb("how do I hem pants?")
    ('barra', 'hem')
    >>> how_to_verb("o zíper da minha mochila quebrou, como conserto?"), how_to_verb("how to fix a leak")
    ('conserto', 'fix')
    >>> how_to_verb("como tá a Vale?"), how_to_verb("how much to replace a zipper?"), how_to_verb("como foi?")
    (None, None, None)
    >>> how_to_verb("como a Ambev é negociada na B3?")
    """
    ws = words(expand_shorthands(text))
    for i, w in enumerate(ws):
        rest = ws[i + 1 :]
        if w == "how":
            if not rest or not (
                rest[0] == "to" or (rest[0] in _HOW_MODALS_EN and rest[1:2] and rest[1] in _HOW_SUBJECTS_EN)
            ):
                continue
        elif w == "como":
            if not rest or not (rest[0] in _HOW_PT_OPENERS or _first_person_or_infinitive(rest[0])):
                continue
        else:
            continue
        verb = next((x for x in rest if x not in _HOW_HELPERS and x not in _FILLER_OR_STOP), None)
        if verb is not None:
            return verb
    return None


#: How a question about words opens: what one means ("what does a koi tattoo mean?", "o que
#: significa…"), or how one is said in another language ("como se diz…", "how do you say…").
_ABOUT_WORDS = (
    re.compile(r"\bwhat\s+(?:does|do|did)\b.*\bmean\b"),
    re.compile(r"\bmeaning\s+of\b"),
    re.compile(r"\bo\s+que\s+(?:significa|quer\s+dizer)\b"),
    re.compile(r"\bqual\s+(?:e\s+)?o\s+significado\b"),
    re.compile(r"\bsignificado\s+d[eoa]s?\b"),
    re.compile(r"\bcomo\s+(?:se\s+)?(?:diz|escreve)\b"),
    re.compile(r"\bhow\s+(?:do|would)\s+you\s+(?:say|spell|write)\b"),
)


def asks_about_words(text: str) -> bool:
    """Whether ``text`` asks what words mean or how they are said, a question about language
    that no domain's action answers, whatever values it names.

    >>> asks_about_words("what does a koi fish tattoo mean?")
    True
    >>> asks_about_words("como se diz visita guiada em inglês?")
    True
    >>> asks_about_words("o que significa meia-entrada?"), asks_about_words("what time does it open?")
    (True, False)
    >>> asks_about_words("I mean saturday"), asks_about_words("como fica o preço?")
    (False, False)
    """
    said = " ".join(words(expand_shorthands(text)))
    return any(pattern.search(said) for pattern in _ABOUT_WORDS)


def _first_person_or_infinitive(word: str) -> bool:
    """ "conserto", "troco", "trocar", "costurar": how the person would do it ("como *troco*"),
    not how something is ("como *anda*", "como *foi*")."""
    return len(word) >= 4 and (word.endswith("o") or word.endswith(("ar", "er", "ir")))


def _politeness(ws: list[str]) -> bool:
    """Filler and function words only, with some filler: "oi", "tudo bem", "thanks a lot" (but
    not "no" or "what is it", which answer or ask something)."""
    return any(w in _FILLER for w in ws) and all(w in _FILLER_OR_STOP for w in ws)


def request_part(text: str) -> str:
    """``text`` without its clauses of pure politeness ("Oi, tudo bem?", "obrigado!", "Hi there!"),
    so a greeting around a request does not outweigh the request; ``text`` itself when every
    clause is politeness (then that is the request: "bom dia!") or none is. The kept clauses keep
    their punctuation, so the sentences of a longer message stay apart.

    >>> request_part("Oi, tudo bem? Queria saber a cotação da Vale agora, obrigado!")
    'Queria saber a cotação da Vale agora'
    >>> request_part("bom dia!"), request_part("qual o preço da Vale?")
    ('bom dia!', 'qual o preço da Vale?')
    >>> request_part("Hi! The VPN drops. Could you open a ticket? Thanks.")
    'The VPN drops. Could you open a ticket'
    """
    polite, kept = _split_by_politeness(text)
    if not polite or not kept:
        return text
    return "".join(kept).strip(_DELIMITERS)


def politeness_part(text: str) -> str:
    """The clauses of pure politeness of ``text`` (what :func:`request_part` leaves out), ``""``
    when it leaves out none.

    >>> politeness_part("Oi, tudo bem? Queria saber a cotação da Vale agora, obrigado!")
    'Oi, tudo bem? obrigado!'
    """
    polite, kept = _split_by_politeness(text)
    return "".join(polite).strip() if polite and kept else ""


def clauses(text: str) -> list[str]:
    """The clauses of ``text``, each with the punctuation that ends it.

    >>> clauses("I left my card at a restaurant, block it")
    ['I left my card at a restaurant,', ' block it']
    """
    return [m.group() for m in _CLAUSE.finditer(text) if m.group().strip(_DELIMITERS)]


def _split_by_politeness(text: str) -> tuple[list[str], list[str]]:
    """The clauses of ``text`` (with their punctuation): those of pure politeness, the others."""
    polite: list[str] = []
    kept: list[str] = []
    for clause in clauses(text):
        (polite if _politeness(words(clause)) else kept).append(clause)
    return polite, kept


#: A colon that ends a lead-in: not one of a clock's time ("14:30").
_LEAD_IN_COLON = re.compile(r"(?<!\d):|:(?!\d)")


def colon_lead_in(text: str) -> tuple[str, str] | None:
    """The words before the first colon that ends a lead-in and the words after it; ``None``
    without one.

    >>> colon_lead_in("envia no telegram: reunião às 14:30")
    ('envia no telegram', ' reunião às 14:30')
    >>> colon_lead_in("reserva às 14:30 no morumbi") is None
    True
    """
    mark = _LEAD_IN_COLON.search(text)
    return (text[: mark.start()], text[mark.end() :]) if mark is not None else None


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (a full stop, question or exclamation mark followed by a space
    ends one; "1.432,77" stays whole), each without its end mark.

    >>> sentences("O Excel fecha sozinho. Poderia abrir um chamado? Obrigado")
    ['O Excel fecha sozinho', 'Poderia abrir um chamado', 'Obrigado']
    """
    parts = (p.strip(_DELIMITERS) for p in _SENTENCE.split(text))
    return [p for p in parts if words(p)]


#: Words that say a thing is the person's own: a goal whose phrasing uses them reads the
#: person's records ("minhas reservas", "my classes").
POSSESSIVES = frozenset({"meu", "minha", "meus", "minhas", "my", "mine"})
#: How a question about what the person already has opens ("do I have ...", "am I booked ...",
#: "cadê meu ...", "tenho reserva ...?"); the Portuguese "I have" openings also ask it only as a
#: question, since "tenho uma ideia" states something.
_STATUS_OPENINGS = (
    ("do", "i", "have"),
    ("do", "i", "got"),
    ("have", "i", "got"),
    ("am", "i"),
    ("where", "is", "my"),
    ("where", "s", "my"),
    ("where", "are", "my"),
    ("cade",),
    ("kd",),
    ("onde", "esta", "meu"),
    ("onde", "esta", "minha"),
    ("onde", "esta", "o", "meu"),
    ("onde", "esta", "a", "minha"),
)
_STATUS_OPENINGS_ASKED = (
    # "já recolheram a geladeira?", "did you guys collect the fridge?": asked after what was done
    ("ja",),
    ("did", "you"),
    # "has my passport arrived yet?", "is my order on its way?"
    ("has", "my"),
    ("is", "my"),
    ("are", "my"),
    ("tenho",),
    ("eu", "tenho"),
    ("estou", "com"),
    ("to", "com"),
    ("eu", "estou", "com"),
)
#: Words that ask after something the person has wherever they are said ("I'd like to *check on
#: my* translation order", "queria saber *como está o meu* pedido").
_STATUS_ANYWHERE = tuple(
    (*lead, *owner)
    for lead in (
        ("check", "on"),
        ("checking", "on"),
        ("status", "of"),
        ("update", "on"),
        ("como", "esta"),
        ("como", "anda"),
        ("status", "do"),
        ("status", "da"),
        ("acompanhar",),
        ("track",),
    )
    for owner in (("my",), ("meu",), ("minha",), ("o", "meu"), ("a", "minha"))
)
#: ...but not when the opening is an obligation or an ability ("do I have to", "tenho que").
_NOT_STATUS = frozenset({"to", "que", "de", "able"})
_LEAD_IN = frozenset({"hey", "hi", "so", "and", "oi", "ola", "e", "ei", "ah", "um"})


def status_question(text: str) -> bool:
    """Whether ``text`` asks about what the person already has rather than for something new:
    "am I booked for anything on tuesday", "cadê meu chamado?", "tô com alguma consulta
    marcada?".

    >>> status_question("tenho reserva pra sábado?"), status_question("tenho uma ideia: um app")
    (True, False)
    >>> status_question("do I have a class on Friday"), status_question("do I have to bring a mat?")
    (True, False)
    >>> status_question("I'd like to check on my order"), status_question("check on the weather")
    (True, False)
    >>> status_question("queria acompanhar meu pedido"), status_question("has my card arrived?")
    (True, True)
    >>> status_question("is my dog welcome"), status_question("track prices for me")
    (False, False)
    """
    ws = words(expand_shorthands(text))
    while ws and ws[0] in _LEAD_IN:
        ws = ws[1:]
    asked = text.rstrip().endswith("?")
    for opening in (*_STATUS_OPENINGS, *(_STATUS_OPENINGS_ASKED if asked else ())):
        n = len(opening)
        if tuple(ws[:n]) == opening and len(ws) > n and ws[n] not in _NOT_STATUS:
            return True
    return any(
        tuple(ws[i : i + len(phrase)]) == phrase and i + len(phrase) < len(ws)
        for phrase in _STATUS_ANYWHERE
        for i in range(len(ws))
    )


#: How a question about a price opens (accent-free words, after a lead-in): never a request to act.
_PRICE_VERBS = ("custa", "custam", "sai", "saem", "da", "fica", "ficam", "cobra", "cobram", "ta", "esta", "e")
_PRICE_OPENINGS = (
    *(("quanto", verb) for verb in _PRICE_VERBS),
    *(("quanto", "vai", verb) for verb in ("custar", "sair", "dar", "ficar")),
    ("qual", "o", "preco"),
    ("qual", "o", "valor"),
    # "preço do box pequeno", "price for family photos", "quote for 80 guests"
    *((noun,) for noun in ("preco", "precos", "valor", "orcamento", "price", "prices", "quote")),
    ("how", "much"),
    ("what", "s", "the", "price"),
    ("what", "is", "the", "price"),
)


def price_question(text: str) -> bool:
    """Whether ``text`` opens by asking what something costs: "quanto dá um carro grande da
    rodoviária pra casa?", "how much for an XL to the airport".

    >>> price_question("qto sai a bike por 2h?"), price_question("quanto tempo demora?")
    (True, False)
    """
    ws = words(expand_shorthands(text))
    while ws and ws[0] in _LEAD_IN:
        ws = ws[1:]
    return any(tuple(ws[: len(opening)]) == opening for opening in _PRICE_OPENINGS)


#: A price asked after other words ("what does a sworn translation cost?", "could you let me
#: know how much that would be?", "… 3 páginas, quanto fica?"); not how long ("how much longer").
_PRICE_ASKED = re.compile(
    r"\bhow\s+much\b(?!\s+(?:longer|time|more\s+time)\b)"
    r"|\bwhat\s+(?:does|do|would|will)\b[^?.!]{0,80}\bcost\b"
    r"|\bquanto\s+(?:custa|custam|custaria|custariam|sai|sairia|fica|ficaria|d[aá]|daria|cobra|cobram"
    r"|vai\s+(?:custar|sair|ficar|dar))\b"
    r"|\bqual\s+(?:[eé]\s+|seria\s+)?o\s+(?:pre[cç]o|valor)\b"
    r"|\b(?:price|pre[cç]o)\s*\?"
    # "bowling price for 12 people", "o boliche, preço pra 6?"
    r"|\b(?:prices?|pre[cç]os?)\s+(?:for|pra|para)\b",
    re.IGNORECASE,
)


#: What a price is asked for one of: "per person", "por pessoa", "por noite" ("cada" and "each"
#: are :data:`INDEFINITES`, no value anywhere).
_PER_ONE = re.compile(
    r"\b(?:por|per|a|da)\s+(?:pessoa|person|cabe[cç]a|head|hora|hour|noite|night|dia|day)\b", re.IGNORECASE
)


#: How a price question says it fears or hopes a price: "o boliche é *caro*?", "anything
#: *cheaper*?": the question's own words.
_PRICE_JUDGED = re.compile(
    r"\b(?:caros?|caras?|carinhos?|baratos?|baratas?|baratinhos?|expensive|cheap|cheaper|cheapest|pricey)\b",
    re.IGNORECASE,
)


def price_judged(text: str) -> list[tuple[int, int]]:
    """The spans of the words that judge a price ``text`` asks ("boliche é *caro*? qual o valor
    da hora"); none when it asks no price. The words are looked for first, as in
    :func:`price_per_one`: whether a price is asked costs more, on every reading of a message.

    >>> price_judged("boliche é caro? qual o valor da hora"), price_judged("carro caro")
    ([(10, 14)], [])
    """
    judged = [m.span() for m in _PRICE_JUDGED.finditer(text)]
    return judged if judged and asks_a_price(text) else []


def price_per_one(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that say what a price it asks is for one of ("quanto custa a sala *por
    pessoa*?"); none when it asks no price (asked only when such words are there: every reading
    of a message reads its unexplained words).

    >>> price_per_one("qto custa o laboratório zumbi por pessoa?"), price_per_one("2 por pessoa")
    ([(30, 40)], [])
    """
    per_one = [m.span() for m in _PER_ONE.finditer(text)]
    return per_one if per_one and asks_a_price(text) else []


#: The everyday verb of a question about a price after "quanto" ("quanto *sai*", "qto *fica*",
#: "quanto *vai dar*"): the question's words, no action asked for. "Custa" and "cobra" are left
#: to the goals whose examples say them (a quote's, not an order's).
_PRICE_VERB = re.compile(
    r"\b(?:quanto|qto|qnto|qt)\s+((?:vai\s+)?(?:sai|saem|sair|d[aá]|dar|fica|ficam|ficar|t[aá]|est[aá]))\b",
    re.IGNORECASE,
)


def price_verbs(text: str) -> list[tuple[int, int]]:
    """The spans of the verbs ``text`` asks a price with after "quanto" ("qto *sai* 5 galões?").

    >>> price_verbs("qto sai 5 galões?"), price_verbs("sai 5 galões")
    ([(4, 7)], [])
    """
    return [m.span(1) for m in _PRICE_VERB.finditer(text)]


def asks_a_price(text: str) -> bool:
    """Whether ``text`` asks what something costs, where the question starts or after other words.

    >>> asks_a_price("what does a sworn translation into Italian cost?"), asks_a_price("is it done yet?")
    (True, False)
    >>> asks_a_price("3 pages english to portuguese, price?"), asks_a_price("quanto tempo demora?")
    (True, False)
    >>> asks_a_price("bowling price for 12 people"), asks_a_price("book it for 12 people")
    (True, False)
    """
    return price_question(text) or _PRICE_ASKED.search(expand_shorthands(text)) is not None


#: Endings of a verb's forms, longest first: Portuguese gerunds, past forms, participles,
#: infinitives and persons ("renovando", "renovou", "renovar", "renova"), English "-ing", "-ed"
#: and "-s" ("renewing", "listed", "lists"). Accent-free.
_VERB_ENDINGS = (
    *("ando", "endo", "indo", "aram", "eram", "iram", "amos", "emos", "imos"),
    *("ado", "ada", "ido", "ida", "ing"),
    *("ar", "er", "ir", "am", "em", "ou", "eu", "iu", "as", "es", "ed"),
    *("a", "e", "o", "s"),
)
#: The endings that, in each language, only a verb's forms have (no ending at all is the English
#: bare verb): not a noun's, a plural's or an adjective's like a participle's, so that the noun
#: "atraso" and the adjective "atrasado" are no forms of "atrasar" here. "-a" and "-e" are kept
#: for the imperative and third person ("compra", "chove"), a noun alike in form.
_VERB_ONLY_ENDINGS = {
    "pt": frozenset(
        {"ando", "endo", "indo", "aram", "eram", "iram", "amos", "emos", "imos"}
        | {"ar", "er", "ir", "am", "em", "ou", "eu", "iu", "a", "e"}
    ),
    "en": frozenset({"", "e", "s", "es", "ed", "ing"}),
}
#: The endings of a gerund, in either language ("playing", "passando"); an English noun may end
#: so too ("a meeting": :func:`intent.entities.verbal_gerunds` tells them apart).
_GERUND_ENDINGS = ("ing", "ando", "endo", "indo")


def is_gerund(word: str) -> bool:
    """Whether ``word`` (accent-free, lower case) is a gerund: "playing", "passando", not "ring"."""
    return any(word.endswith(end) and len(word) - len(end) >= 3 for end in _GERUND_ENDINGS)


#: A stem shorter than this is too often another word's ("paga", "para").
MIN_VERB_STEM = 4


@overload
def verb_stem(word: str) -> str: ...
@overload
def verb_stem(word: str, language: str) -> str | None: ...
def verb_stem(word: str, language: str | None = None) -> str | None:
    """What the forms of one verb share, in either language: "lista", "listar", "liste",
    "listing" and "list" give "list"; "renova", "renovar", "renovando" give "renov"; "renew",
    "renews", "renewing" give "renew". A word whose stem would be shorter than
    :data:`MIN_VERB_STEM` is its own ("paga").

    With a ``language``, only a form that is a verb's in that language has a stem, ``None``
    otherwise: an ending a noun or an adjective has too ("atraso", "atrasado", "livros") or
    another language's ("cleaner" is no English verb form, "list" no Portuguese one).

    >>> verb_stem("atrasado"), verb_stem("atrasado", "pt"), verb_stem("renewing", "en")
    ('atras', None, 'renew')
    """
    stem, ending = word, ""
    for end in _VERB_ENDINGS:
        if word.endswith(end) and len(word) - len(end) >= MIN_VERB_STEM:
            stem, ending = word[: -len(end)], end
            # a consonant doubled before an English ending: "cancelling", "shipped"
            if end in ("ing", "ed") and len(stem) > MIN_VERB_STEM and stem[-1] == stem[-2]:
                stem = stem[:-1]
            break
    if language is not None and ending not in _VERB_ONLY_ENDINGS.get(language, ()):
        return None
    return stem
