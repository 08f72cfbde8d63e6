"""The one language detector: Portuguese or English, by a vote of function words.

Every accent-free word of the text that belongs to one language's list is a vote for it (words
both languages use, such as "a", "as", "me", "do", "no", are in neither list); Portuguese
letters (ã, ç, é, …) are one more vote for Portuguese. The larger vote wins and a tie is
``default``: short or foreign texts ("Nvidia", "ok") keep the platform's default.

>>> detect("what is the price of Apple?"), detect("qual o preço da Vale?")
('en', 'pt')
>>> detect("Método incremental é mais rápido"), detect("pair programming is faster")
('pt', 'en')
>>> detect("Nvidia"), detect("Nvidia", default="en")
('pt', 'en')
>>> detect("book spinning friday 8pm pls"), detect("marca spinning sexta 19h")
('en', 'pt')
>>> language_of({"language": "en-US"}, "qual o preço da Vale?"), language_of({}, "price of Apple")
('en', 'en')
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from shared.i18n.folding import words
from shared.i18n.languages import DEFAULT_LANGUAGE, Language, as_language

# Function words, plus a few words the platform's own domains make common (preco, pesquisa,
# price, research), the days of the week and months, the verbs of everyday requests (book,
# marca) and chat shorthand (pls, vc), all accent-free as :func:`~shared.i18n.folding.words`
# yields them. A word both languages write alike ("reserve", "a", "no") is in neither.
_PORTUGUESE_WORDS = """
    acoes agora ai ajuda algum alguma ali amanha ao aos aquela aquele aqui ate aumenta bem boa bom
    com como converte converter cotacao da das de dia dolares
    diga dos e ela elas ele eles em entre envia equipes essa esse esta estao este estou eu favor
    foi gostaria hipotese hoje ideia isso isto ja la mais manda melhora menos metodo meu meus mim
    minha minhas mostra mostrar mostre muita muito na nao nas noite nos num numa o obrigada obrigado
    oi ola ontem os ou
    para pela pelas pelo pelos pesquisa pode poderia poderiam por porfavor pra pras preco pro pros
    quais qual qualquer quanta quantas quanto quantos que queria quero reduz sao se sem ser seu
    seus sim so sobre sua suas tambem tarde tchau te tem ter ti troca tudo um uma umas uns vai
    valeu vao veja ver voce voces
    segunda terca quarta quinta sexta sabado domingo semana proxima proximo depois hora horas
    janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro
    marca marcar cancela cancelar agendar paga pagar abre abrir preciso
    vc vcs pq hj qto qta blz obg pfv
"""
_ENGLISH_WORDS = """
    about afternoon also am an and any are at be been by bye can convert could did does dollars
    evening for from get give good goodbye he hello help here hey hi how hypothesis i idea improves
    in increases into is it its just know less let lets like many morning
    may method might mine more much my need not now of on or our please price question reduces
    research s send shall she should show some stock stocks t teams tell than thank thanks that the
    their them there these
    they this those to today tomorrow turn wanna want was we were what which who whom will with
    would yes yesterday you your yours
    monday tuesday wednesday thursday friday saturday sunday tonight week weekend next
    mon tue tues wed thu thur thurs fri sat sun tmrw tmr tmw tonite
    january february april june july august september october november december
    book booked cancel schedule rent buy pay open need where when whats anything
    pls plz u ur thx
"""
PORTUGUESE_WORDS = frozenset(_PORTUGUESE_WORDS.split())
ENGLISH_WORDS = frozenset(_ENGLISH_WORDS.split())

_PORTUGUESE_LETTERS = re.compile(r"[ãõçáéíóúâêôà]", re.IGNORECASE)
#: "9am", "7 pm": the twelve-hour clock Portuguese does not write
_ENGLISH_CLOCK = re.compile(r"\d\s?[ap]\.?m\b", re.IGNORECASE)
#: Accents weigh like one word: enough for a tie, not against a clearly English sentence that
#: names "São Paulo" or "Itaú".
_ACCENT_VOTE = 1
#: word endings of one language only, which break a tie of function words
_ENGLISH_ENDING = re.compile(r"(?:tion|ity|ness|ment)s?$")
_PORTUGUESE_ENDING = re.compile(r"(?:cao|coes|idade|mente|agem)s?$")


def detect(text: str, default: Language = DEFAULT_LANGUAGE) -> Language:
    """'pt' or 'en': the language whose function words ``text`` uses more; ``default`` on a tie."""
    return vote(text) or default


def vote(text: str) -> Language | None:
    """The language ``text``'s words vote for, or None when they do not tell ("Nvidia", "2",
    "ok"): a caller that knows the conversation's language keeps it then.

    >>> vote("thanks"), vote("obrigado"), vote("good morning"), vote("Petrobras")
    ('en', 'pt', 'en', None)
    >>> vote("cleaner sat 9am"), vote("plumber 7 pm"), vote("marca spinning 19h")
    ('en', 'en', 'pt')
    >>> vote("electricity meter reading 48,700"), vote("leitura relogio 48.700 atualizacao")
    ('en', 'pt')
    """
    ws = words(text)
    portuguese = sum(w in PORTUGUESE_WORDS for w in ws)
    english = sum(w in ENGLISH_WORDS for w in ws)
    if _PORTUGUESE_LETTERS.search(text):
        portuguese += _ACCENT_VOTE
    english += len(_ENGLISH_CLOCK.findall(text))
    if english == portuguese:
        # no function word tells ("electricity meter reading 48,700"): endings only one
        # language's words have do
        english = sum(bool(_ENGLISH_ENDING.search(w)) for w in ws)
        portuguese = sum(bool(_PORTUGUESE_ENDING.search(w)) for w in ws)
    if english > portuguese:
        return "en"
    if portuguese > english:
        return "pt"
    return None


def language_of(
    context: Mapping[str, object], text: str = "", default: Language = DEFAULT_LANGUAGE
) -> Language:
    """The language a request asks for: ``context["language"]`` when given, else the language
    ``text`` is written in, else ``default``."""
    given = context.get("language")
    if given:
        return as_language(given, default)
    return detect(text, default) if text else default
