"""Standing requests in conversation: schedules ("manda as maiores altas do Brasil todo dia útil às
9h no meu telegram", "every Monday at 8am send me the price of Apple") and watches ("me avisa
quando a Petrobras passar de 40 reais"), confirmed before they are made, and managed by
conversation ("quais alertas eu tenho?", "pausa o da Petrobras", "cancela o alerta da Petrobras").

A platform-level family, like the notifier's follow-ups: no domain, goal or capability is named
here. The words that say *when* (a recurrence, an interval) and *on what condition* are read here,
in both languages; the times, numbers and amounts come from the typed entities (Duckling,
:mod:`intent.typed`). What runs at each tick is the person's own request with those words taken
out, re-run as a turn of their session: a delivery they asked for ("no meu telegram") stays in it,
so the request composes with the notifier as it would now.

:class:`StandingConversation` holds the conversation (propose, confirm, list, pause, resume,
cancel) over a :class:`StandingBook`, the gateway's store of them for the session's tenant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from dialogue.choice import YES_WORDS
from dialogue.state import Turn, TurnState
from intent.typed import RECOGNIZER, Clock, TypedSpan
from shared.i18n import t, vote
from shared.i18n.folding import normalise, words
from shared.recurrence import describe_rule
from shared.status import RunStatus

Language = Literal["pt", "en"]
Action = Literal["list", "pause", "resume", "cancel"]

_WEEKDAYS_RULE = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
_DAYS_PT = {
    "segunda": "MO",
    "terca": "TU",
    "quarta": "WE",
    "quinta": "TH",
    "sexta": "FR",
    "sabado": "SA",
    "domingo": "SU",
}
_DAYS_EN = {
    "monday": "MO",
    "tuesday": "TU",
    "wednesday": "WE",
    "thursday": "TH",
    "friday": "FR",
    "saturday": "SA",
    "sunday": "SU",
}
_DAY_PT = "|".join(_DAYS_PT)
_DAY_EN = "|".join(_DAYS_EN)

#: Recurrence phrases over :func:`normalise`'d text (same length as the original, so a match's
#: span is the person's words): each gives an RRULE without its time of day.
_CADENCES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(todo|todos os|cada) dias? uteis\b|\btodo dia util\b|\bem dias uteis\b"), "weekdays"),
    (re.compile(r"\bde segunda a sexta( feira)?\b"), "weekdays"),
    (re.compile(r"\b(every|each) (weekday|business day|working day)\b|\bon weekdays\b"), "weekdays"),
    (re.compile(r"\bevery (day|morning)\b|\bdaily\b|\beach day\b"), "daily"),
    (re.compile(r"\btodos os dias\b|\btodo dia\b|\bdiariamente\b|\btoda manha\b"), "daily"),
    # a day alone ("na quinta às 11", "on Thursday at 11") is one date, not a recurrence: "às"/"on"
    # say "every" only with the plural ("às quintas", "on Thursdays")
    (re.compile(rf"\b(toda|todas as) (?P<day>{_DAY_PT})s?( feiras?)?\b"), "weekly"),
    (re.compile(rf"\bas (?P<day>{_DAY_PT})(s? feiras|s)\b"), "weekly"),
    (re.compile(rf"\b(every|each) (?P<day>{_DAY_EN})s?\b|\bon (?P<days>{_DAY_EN})s\b"), "weekly"),
    (re.compile(r"\ba cada (?P<n>\d+) (?P<unit>horas|minutos)\b"), "interval"),
    (re.compile(r"\bevery (?P<n>\d+) (?P<unit>hours|minutes)\b"), "interval"),
    (re.compile(r"\b(a cada|de) hora( em hora)?\b|\btoda hora\b"), "hourly"),
    (re.compile(r"\bevery hour\b|\bhourly\b"), "hourly"),
)
#: "no meu telegram", "on my telegram": where the answer goes (kept in the request that runs).
_DELIVERY = re.compile(
    r"\b(no|pelo|via|pro|para o|pelo meu|no meu|pro meu|on|to|via|through|on my|to my|via my)"
    r"( meu| my)? (?P<channel>telegram|whatsapp|slack|email|e mail)\b"
)
#: Verbs a request opens with that only say "bring me this": left out of its label.
_LEAD_VERBS = re.compile(
    r"^\s*(me )?(manda|mande|envia|envie|mostra|mostre|send|show|give)( me| pra mim| para mim)?\b\s*"
)
#: A request for something to be sent or shown, which a cadence alone ("every day") is not.
_ASKS_TO_SEND = re.compile(
    r"\b(manda|mande|envia|envie|mostra|mostre|lembra|lembre|traz|traga"
    r"|send|show me|give me|remind me|email me|text me|tell me)\b"
)
#: Watches: "me avisa quando <subject> passar de <n>" / "alert me when <subject> goes above <n>".
_WATCH_OPEN = re.compile(
    r"\b((me )?(avisa|avise|alerta|alerte|notifica|notifique)( me)? (quando|se)"
    r"|(alert|notify|tell|warn|ping) me (when|if)|let me know (when|if))\b"
)
_ABOVE = re.compile(
    r"\b(passar de|passar dos|passar|ficar acima de|subir acima de|subir para mais de|superar|ultrapassar"
    r"|for maior que|estiver acima de|bater|goes above|rises above|is above|gets above|exceeds|goes over"
    r"|crosses|passes|is over|goes past|hits)\b"
)
_BELOW = re.compile(
    r"\b(cair abaixo de|ficar abaixo de|cair para menos de|cair de|baixar de|for menor que|estiver abaixo de"
    r"|cair para|goes below|drops below|falls below|is below|drops under|falls under|goes under|dips below)\b"
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
#: "subir 5%", "drops 3 percent": a change in percent (the recognizer reads "5%" as the number 5).
_PERCENT = re.compile(r"(?P<n>\d+(?:[.,]\d+)?)\s*(%|por cento\b|percent\b|per cent\b|pct\b)", re.IGNORECASE)
_RISE = re.compile(
    r"\b(subir|subirem|valorizar|crescer|avancar|tiver alta de|estiver em alta de"
    r"|rises|rise|goes up|gains|climbs|jumps|is up|moves up)\b"
)
_FALL = re.compile(
    r"\b(cair|cairem|desvalorizar|recuar|baixar|tiver queda de|estiver em queda de"
    r"|drops|drop|falls|fall|goes down|loses|sinks|is down|moves down)\b"
)
#: A watch on a change in percent compares the day's change the capability reports (a quote's
#: ``change_pct``): JMESPath has no arithmetic, so "5% above the price when the watch was made"
#: cannot be written as a condition (docs/standing-requests.md).
CHANGE_FIELD = "output.result.change_pct"
#: what a standing request is: run at times, or run when a condition holds
StandingKind = Literal["schedule", "watch"]

_ARTICLE = re.compile(r"^\s*(a|o|as|os|the)\s+", re.IGNORECASE)

_KIND_WORDS: dict[StandingKind, tuple[str, ...]] = {
    "watch": ("alerta", "alertas", "alert", "alerts", "watch", "watches", "aviso", "avisos"),
    "schedule": (
        "agendamento",
        "agendamentos",
        "agendado",
        "agendados",
        "lembrete",
        "lembretes",
        "schedule",
        "schedules",
        "scheduled",
        "reminder",
        "reminders",
    ),
}
_ALL_KIND_WORDS = frozenset(w for ws in _KIND_WORDS.values() for w in ws)
#: Kind words that are also everyday names of what domains book: an appointment, a schedule.
_SHARED_KIND_WORDS = frozenset(
    {"agendamento", "agendamentos", "agendado", "agendados", "schedule", "schedules", "scheduled"}
)
#: Kind words only standing requests are called by ("alerta", "lembrete", "reminder").
_OWN_KIND_WORDS = _ALL_KIND_WORDS - _SHARED_KIND_WORDS
_LIST = re.compile(
    r"^\s*((quais|que|lista|listar|mostra|mostre|ver|veja)( os| as)?( meus| minhas)?"
    r"|(what|which|list|show)( are)?( me)?( my| all my| the)?|(meus|minhas|my))\b"
)
#: The words a question for the person's standing requests may say beside their kind.
_ABOUT_THEM = frozenset(
    [
        "o",
        "a",
        "os",
        "as",
        "the",
        "all",
        "my",
        "meus",
        "minhas",
        "s",
        "are",
        "is",
        "do",
        "i",
        "have",
        "got",
        "eu",
        "tenho",
        "tem",
        "existem",
        "ha",
        "there",
        "ativos",
        "ativas",
        "active",
        "set",
        "configurados",
        "configuradas",
        "agora",
        "now",
    ]
)
_COMMANDS: tuple[tuple[re.Pattern[str], Action], ...] = (
    (re.compile(r"^\s*(pausa|pause|pausar|suspende|suspender|suspend)\b"), "pause"),
    (re.compile(r"^\s*(retoma|retomar|reativa|reativar|despausa|resume|unpause|reactivate)\b"), "resume"),
    (
        re.compile(
            r"^\s*(cancela|cancelar|cancele|apaga|apagar|remove|remover|exclui|excluir|desativa|cancel|delete"
            r"|stop|para)\b"
        ),
        "cancel",
    ),
)
#: Words of a command that name no request ("pausa o alerta da ...").
_FILLER = (
    frozenset(
        [
            "o",
            "a",
            "os",
            "as",
            "do",
            "da",
            "dos",
            "das",
            "de",
            "meu",
            "minha",
            "meus",
            "minhas",
            "um",
            "uma",
            "esse",
            "essa",
            "este",
            "esta",
            "isso",
            "pra",
            "para",
            "por",
            "favor",
            "the",
            "my",
            "of",
            "for",
            "on",
            "that",
            "this",
            "please",
            "it",
            "all",
            "todos",
            "todas",
            "eu",
            "tenho",
            "have",
            "i",
            "do",
            "one",
            "ones",
            "aquele",
            "aquela",
        ]
    )
    | _ALL_KIND_WORDS
)
#: a standing request's draft is also confirmed by "manda" ("manda ver")
_YES = YES_WORDS | {"manda"}
_NO = frozenset(["nao", "n", "no", "nope", "cancela", "cancel", "deixa", "esquece", "negativo", "never"])


class StandingDraft(BaseModel):
    """A standing request read from a message, before the person confirms it."""

    kind: Literal["schedule", "watch"]
    #: What it is about, in the person's words ("as maiores altas do Brasil"), for listings.
    label: str
    #: The message that runs at each tick, as a turn of the session.
    request_text: str
    recurrence: str | None = None
    interval_seconds: int | None = None
    condition: str | None = None
    #: The threshold and its direction, for telling the watch back in words.
    threshold: float | None = None
    above: bool = True
    currency: str | None = None
    #: The threshold is a change in percent on the day ("subir 5%"), not a value.
    percent: bool = False
    deliver_to: str = ""
    timezone: str
    language: Language
    #: The channel the person asked on (a schedule's turns run on it too).
    channel: str = "rest"


class StandingCommand(BaseModel):
    action: Action
    #: Words naming which request ("petrobras"); empty: the only one, or all (for a listing).
    target: list[str]
    kind: StandingKind | None = None
    #: The kind was said with a word a domain's things are called too ("cancela o agendamento
    #: DS2110" is a donation's appointment): with nothing of the person's matching, the message is
    #: left to the domains.
    shared_word: bool = False
    language: Language


class StandingView(BaseModel):
    """A stored standing request as the conversation tells it."""

    id: str
    kind: Literal["schedule", "watch"]
    label: str
    request_text: str
    status: str
    recurrence: str | None
    interval_seconds: int | None
    condition: str | None
    timezone: str
    next_fire_at: datetime | None


class StandingRefused(Exception):
    """The book will not make it (a limit); ``reason`` is a message id of :func:`say`."""

    def __init__(self, reason: str, **params: object):
        super().__init__(reason)
        self.reason = reason
        self.params = params


class StandingBook(Protocol):
    """The standing requests of the tenant that owns a session (the gateway's store)."""

    async def proposed(self, session_id: str) -> StandingDraft | None: ...

    async def propose(self, session_id: str, draft: StandingDraft | None) -> None: ...

    async def confirm(self, session_id: str) -> StandingView | None: ...

    async def listing(self, session_id: str) -> list[StandingView]: ...

    async def change(self, session_id: str, standing_id: str, action: Action) -> StandingView | None: ...


@dataclass(frozen=True)
class StandingTurn:
    session_id: str
    text: str
    time_zone: str
    now: datetime
    #: The language the conversation is in when the words do not tell.
    language: Language = "pt"
    channel: str = "rest"
    #: The turn's run id: a standing request's tick runs under :data:`FIRING_RUN_PREFIX`.
    run_id: str = ""
    #: Another question of the dialogue waits (an approval, a slot): a bare "sim"/"cancela" is its.
    dialogue_question: bool = False
    #: The session's state marks a proposal waiting for the person's yes: only then is it read.
    proposal_pending: bool = True


@dataclass(frozen=True)
class StandingReply:
    """What a turn's message did to standing requests."""

    #: The reply, or None when the message is about something else.
    text: str | None
    #: A proposal waits for the person's yes after this turn (the session state's marker).
    proposal_pending: bool


# ---------------------------------------------------------------------------------------- texts


def say(message_id: str, language: Language, **params: object) -> str:
    """The catalog's ``standing.<message_id>`` (:data:`shared.i18n.CORE`)."""
    return t(f"standing.{message_id}", language, **params)


# ---------------------------------------------------------------------------------------- reading


def read_standing(
    text: str, *, time_zone: str, now: datetime, language: Language | None = None
) -> StandingDraft | None:
    """A schedule or a watch the message asks for, or None when it asks for neither."""
    folded = normalise(text)
    lang: Language = vote(text) or _phrase_language(folded) or language or "pt"
    spans = RECOGNIZER.spans(text, lang, time_zone=time_zone, now=now)
    watch = _read_watch(text, folded, spans, lang, time_zone)
    if watch is not None:
        return watch
    return _read_schedule(text, folded, spans, lang, time_zone)


_ENGLISH_PHRASE = re.compile(
    r"\b(every|each|daily|hourly|weekday|weekdays|on|alert|notify|tell|warn|ping|let me know|send|show)\b"
)
_PORTUGUESE_PHRASE = re.compile(
    r"\b(todo|todos|toda|todas|cada|diariamente|avisa|avise|manda|mande|quando)\b"
)


def _phrase_language(folded: str) -> Language | None:
    """The language of the standing-request words themselves, for a message whose other words
    do not tell ("alert me when Apple goes below $150": "me" is Portuguese too)."""
    english, portuguese = len(_ENGLISH_PHRASE.findall(folded)), len(_PORTUGUESE_PHRASE.findall(folded))
    if english == portuguese:
        return None
    return "en" if english > portuguese else "pt"


def _read_schedule(
    text: str, folded: str, spans: list[TypedSpan], lang: Language, time_zone: str
) -> StandingDraft | None:
    for pattern, shape in _CADENCES:
        found = pattern.search(folded)
        if found is None:
            continue
        removed = [found.span()]
        rule = _rule(shape, found)
        if rule is None:
            continue
        time_span = None
        if shape in ("weekdays", "daily", "weekly"):
            time_span = _time_of_day(text, spans)
            hour, minute = (9, 0) if time_span is None else (time_span[0], time_span[1])
            if time_span is not None:
                removed.append(time_span[2])
            rule += f";BYHOUR={hour};BYMINUTE={minute}"
        request = _without(text, removed)
        if len(words(request)) < 1:
            return None
        delivery = _DELIVERY.search(normalise(request))
        if not (time_span or delivery or shape in ("hourly", "interval") or _ASKS_TO_SEND.search(folded)):
            return None  # "what do people eat every day?" asks about days, not for a schedule
        label = _without(request, [delivery.span()]) if delivery else request
        label = _LEAD_VERBS.sub("", label.strip()) if _LEAD_VERBS.match(normalise(label)) else label
        label = _tidy(label)
        if not words(label):
            return None
        return StandingDraft(
            kind="schedule",
            label=label,
            request_text=_tidy(request),
            recurrence=rule,
            deliver_to=delivery.group("channel") if delivery else "",
            timezone=time_zone,
            language=lang,
        )
    return None


def _rule(shape: str, found: re.Match[str]) -> str | None:
    if shape == "weekdays":
        return _WEEKDAYS_RULE
    if shape == "daily":
        return "FREQ=DAILY"
    if shape == "weekly":
        named = found.groupdict()
        day = named.get("day") or named["days"]
        return f"FREQ=WEEKLY;BYDAY={_DAYS_PT.get(day) or _DAYS_EN[day]}"
    if shape == "hourly":
        return "FREQ=HOURLY;BYMINUTE=0"
    if shape == "interval":
        n = int(found.group("n"))
        if n < 1:
            return None
        if found.group("unit") in ("horas", "hours"):
            return f"FREQ=HOURLY;INTERVAL={n};BYMINUTE=0"
        return f"FREQ=MINUTELY;INTERVAL={n}"
    return None


_PM_WORDS = re.compile(r"(?<![a-z])(pm|p m|da tarde|da noite|de noite|a noite|evening|night)\b")


def _time_of_day(text: str, spans: list[TypedSpan]) -> tuple[int, int, tuple[int, int]] | None:
    """The time of day the message names (hour, minute, its span), from Duckling's ``time`` or
    ``datetime``. A bare "at 9" is read as 09:00: Duckling resolves it to the next 9 o'clock,
    which in the afternoon is 21:00, but a recurrence has no "next"."""
    for span in spans:
        if span.type not in ("time", "datetime") or not isinstance(span.value, str):
            continue
        clock = span.value[11:16] if span.type == "datetime" else span.value[:5]
        if not re.fullmatch(r"\d\d:\d\d", clock):
            continue
        hour, minute = int(clock[:2]), int(clock[3:])
        written = normalise(text[span.start : span.end])
        numbers = [int(n) for n in re.findall(r"\d+", written)]
        if hour >= 12 and numbers and numbers[0] == hour - 12 and not _PM_WORDS.search(written):
            hour -= 12
        if hour < 12 and numbers and numbers[0] == hour and _PM_WORDS.search(written):
            hour += 12
        return hour, minute, (span.start, span.end)
    return None


def _read_watch(
    text: str, folded: str, spans: list[TypedSpan], lang: Language, time_zone: str
) -> StandingDraft | None:
    opened = _WATCH_OPEN.search(folded)
    if opened is None:
        return None
    rest = folded[opened.end() :]
    percent = _PERCENT.search(text, opened.end())
    if percent is not None:
        return _percent_watch(text, folded, opened, percent, lang, time_zone)
    above = _ABOVE.search(rest)
    comparison = _earliest(above, _BELOW.search(rest))
    if comparison is None:
        return None
    after = opened.end() + comparison.end()
    threshold: float | None = None
    currency: str | None = None
    for span in spans:
        if span.start < after:
            continue
        if span.type == "money" and isinstance(span.value, dict):
            amount = span.value["amount"]
            if isinstance(amount, int | float):
                threshold = float(amount)
                currency = str(span.value.get("currency") or "") or None
                break
        if span.type == "number" and isinstance(span.value, int | float):
            threshold = float(span.value)
            break
    if threshold is None:
        number = _NUMBER.search(text, after)
        if number is None:
            return None
        threshold = float(number.group().replace(",", "."))
    operator = ">" if comparison is above else "<"
    return _watch(
        _Watched(text, folded, opened.end(), opened.end() + comparison.start(), lang, time_zone),
        condition=f"value {operator} `{_number_text(threshold)}`",
        threshold=threshold,
        above=comparison is above,
        currency=currency,
    )


def _percent_watch(
    text: str, folded: str, opened: re.Match[str], percent: re.Match[str], lang: Language, time_zone: str
) -> StandingDraft | None:
    """ "me avisa se a Petrobras subir 5%" / "alert me when Apple drops 3%": a condition on the
    day's change in percent, ``output.result.change_pct >= `5``` (or ``<= `-3```)."""
    between = folded[opened.end() : percent.start()]
    rise = _RISE.search(between) or _ABOVE.search(between)
    direction = _earliest(rise, _FALL.search(between) or _BELOW.search(between))
    if direction is None:
        return None
    size = float(percent.group("n").replace(",", "."))
    if size <= 0:
        return None
    is_rise = direction is rise
    bound = f">= `{_number_text(size)}`" if is_rise else f"<= `-{_number_text(size)}`"
    return _watch(
        _Watched(text, folded, opened.end(), opened.end() + direction.start(), lang, time_zone),
        condition=f"{CHANGE_FIELD} {bound}",
        threshold=size,
        above=is_rise,
        percent=True,
    )


def _earliest(*found: re.Match[str] | None) -> re.Match[str] | None:
    """Of the phrases found, the one said first."""
    return min((m for m in found if m is not None), key=lambda m: m.start(), default=None)


@dataclass(frozen=True)
class _Watched:
    """A watch's message, and where in it the subject stands (between the opening and the comparison)."""

    text: str
    folded: str
    subject_start: int
    subject_end: int
    lang: Language
    time_zone: str


def _watch(
    watched: _Watched,
    *,
    condition: str,
    threshold: float,
    above: bool,
    currency: str | None = None,
    percent: bool = False,
) -> StandingDraft | None:
    """The watch on the subject of ``watched``, or None when it names none."""
    text, folded, lang = watched.text, watched.folded, watched.lang
    subject = _ARTICLE.sub("", text[watched.subject_start : watched.subject_end]).strip(" ,.?!")
    if not words(subject):
        return None
    return StandingDraft(
        kind="watch",
        label=subject,
        request_text=_watch_request(text, folded, subject, lang),
        interval_seconds=_watch_interval(folded),
        condition=condition,
        threshold=threshold,
        above=above,
        currency=currency,
        percent=percent,
        deliver_to=_channel(folded),
        timezone=watched.time_zone,
        language=lang,
    )


def _channel(folded: str) -> str:
    """Where the person asked the answer sent ("telegram"), or "" for their session only."""
    delivery = _DELIVERY.search(folded)
    return delivery.group("channel") if delivery else ""


def _watch_request(text: str, folded: str, subject: str, lang: Language) -> str:
    """What a watch polls: the price question, with a delivery the person asked for."""
    request = say("watch_request", lang, subject=subject)
    delivery = _DELIVERY.search(folded)
    if delivery:
        request += f" {text[delivery.start() : delivery.end()]}"
    return request


def _watch_interval(folded: str) -> int | None:
    """ "a cada 10 minutos" / "every hour": how often the person asked it polled, if they said."""
    interval = None
    for pattern, shape in _CADENCES:
        found = pattern.search(folded)
        if found is not None and shape == "interval":
            n = int(found.group("n"))
            interval = n * 3600 if found.group("unit") in ("horas", "hours") else n * 60
            break
        if found is not None and shape == "hourly":
            interval = 3600
            break
    return interval


def read_command(text: str, *, language: Language) -> StandingCommand | None:
    """ "quais alertas eu tenho?", "pausa o da Petrobras", "cancel my Apple alert"; None otherwise."""
    folded = normalise(text)
    ws = words(text)
    lang: Language = vote(text) or language
    kind = next((k for k, kws in _KIND_WORDS.items() if any(w in kws for w in ws)), None)
    listing = _LIST.match(folded)
    if (
        listing is not None
        and kind is not None
        and not any(p.match(folded) for p, _ in _COMMANDS)
        # "quais alertas eu tenho?", not "what's the schedule and price of the course?"
        and all(w in _ALL_KIND_WORDS or w in _ABOUT_THEM for w in words(folded[listing.end() :]))
    ):
        return StandingCommand(action="list", target=[], kind=kind, language=lang)
    for pattern, action in _COMMANDS:
        found = pattern.match(folded)
        if found is None:
            continue
        target = [w for w in words(folded[found.end() :]) if w not in _FILLER]
        shared = kind is not None and _OWN_KIND_WORDS.isdisjoint(ws)
        return StandingCommand(action=action, target=target, kind=kind, shared_word=shared, language=lang)
    return None


def answer_yes_no(text: str) -> bool | None:
    ws = words(text)
    if not ws or len(ws) > 4:
        return None
    if ws[0] in _NO or "nao" in ws:
        return False
    if ws[0] in _YES:
        return True
    return None


# ---------------------------------------------------------------------------------------- telling


def describe_draft(draft: StandingDraft) -> str:
    lang = draft.language
    if draft.kind == "schedule" and draft.recurrence is not None:
        delivery = f" {say('delivery', lang, channel=draft.deliver_to)}" if draft.deliver_to else ""
        return say(
            "confirm_schedule",
            lang,
            when=describe_rule(draft.recurrence, lang),
            zone=draft.timezone,
            label=draft.label,
            delivery=delivery,
        )
    number = _localised(_number_text(draft.threshold or 0.0), lang)
    if draft.percent:
        when = say("when", lang, direction=_change(draft.above, lang), threshold=_percent(number, lang))
    else:
        threshold = f"{number} {draft.currency}" if draft.currency else number
        when = say("when", lang, direction=_direction(draft.above, lang), threshold=threshold)
    return say(
        "confirm_watch", lang, label=draft.label, every=_every(draft.interval_seconds or 0, lang), when=when
    )


def describe_view(view: StandingView, language: Language) -> str:
    if view.kind == "schedule" and view.recurrence is not None:
        when = f"{describe_rule(view.recurrence, language)} ({view.timezone})"
    else:
        when = _every(view.interval_seconds or 0, language)
        condition = _condition_words(view.condition or "", language) or view.condition
        if condition:
            when += f", {condition}"
    line = f"“{view.label}” — {when}"
    if view.status == "paused":
        line += f" [{say('status_paused', language)}]"
    return line


def _condition_words(condition: str, lang: Language) -> str | None:
    """A condition this module writes, in words ("quando passar de 40"); None for any other."""
    threshold = _CONDITION.fullmatch(condition)
    change = _CHANGE_CONDITION.fullmatch(condition)
    if change is not None:
        size = _percent(_localised(change.group(2), lang), lang)
        return say("when", lang, direction=_change(change.group(1) == ">=", lang), threshold=size)
    if threshold is not None:
        number = _localised(threshold.group(2), lang)
        return say("when", lang, direction=_direction(threshold.group(1) == ">", lang), threshold=number)
    return None


#: The conditions this module writes, told back in words; others are shown as written.
_CONDITION = re.compile(r"value ([<>]) `([0-9.]+)`")
_CHANGE_CONDITION = re.compile(re.escape(CHANGE_FIELD) + r" (>=|<=) `-?([0-9.]+)`")


def _localised(number: str, lang: Language) -> str:
    return number.replace(".", ",") if lang == "pt" else number


def _percent(number: str, lang: Language) -> str:
    return say("percent_on_the_day", lang, number=number)


def _change(rise: bool, lang: Language) -> str:
    return say("rise" if rise else "fall", lang)


def _direction(above: bool, lang: Language) -> str:
    return say("above" if above else "below", lang)


def _every(seconds: int, lang: Language) -> str:
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return say("every_hour", lang) if hours == 1 else say("every_hours", lang, hours=hours)
    return say("every_minutes", lang, minutes=max(1, seconds // 60))


def _number_text(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.4f}".rstrip("0")


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    kept = list(text)
    for start, end in spans:
        for i in range(start, end):
            kept[i] = " "
    return "".join(kept)


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,.;:-")
    return re.sub(r"\s+([,.?!])", r"\1", text)


def matches(view: StandingView, command: StandingCommand) -> bool:
    if command.kind is not None and view.kind != command.kind:
        return False
    known = set(words(view.label)) | set(words(view.request_text))
    return all(w in known for w in command.target)


# ---------------------------------------------------------------------------------------- the conversation


class StandingConversation:
    """One turn's part in standing requests: a reply when the message proposes, confirms or
    manages one, None when it is about something else (the dialogue goes on as usual, and a
    proposal left unanswered is dropped)."""

    def __init__(self, book: StandingBook, *, watch_interval_s: int = 300):
        self.book = book
        #: How often a watch is polled when the person does not say.
        self.watch_interval_s = watch_interval_s

    async def reply(self, turn: StandingTurn) -> StandingReply:
        if turn.run_id.startswith(FIRING_RUN_PREFIX):
            # a tick re-running a request: not the person's words (a proposal waits on)
            return StandingReply(None, turn.proposal_pending)
        # unmarked, no proposal waits (one is marked in the turn that makes it): nothing to read
        proposed = await self.book.proposed(turn.session_id) if turn.proposal_pending else None
        if proposed is not None:
            yes = answer_yes_no(turn.text)
            if yes is True:
                return await self._create(turn.session_id, proposed)
            await self.book.propose(turn.session_id, None)
            if yes is False:
                return StandingReply(say("dropped", proposed.language), False)
        command = read_command(turn.text, language=turn.language)
        if command is not None and not (turn.dialogue_question and command.kind is None):
            answered = await self._manage(turn.session_id, command)
            if answered is not None:
                return StandingReply(answered, False)
        draft = read_standing(turn.text, time_zone=turn.time_zone, now=turn.now, language=turn.language)
        if draft is None:
            return StandingReply(None, False)
        draft = draft.model_copy(update={"channel": turn.channel})
        if draft.kind == "watch" and draft.interval_seconds is None:
            draft = draft.model_copy(update={"interval_seconds": self.watch_interval_s})
        try:
            await self.book.propose(turn.session_id, draft)
        except StandingRefused as refused:
            return StandingReply(say(refused.reason, draft.language, **refused.params), False)
        return StandingReply(describe_draft(draft), True)

    async def reply_to(self, state: TurnState, turn: Turn, clock: Clock) -> tuple[Turn | None, bool]:
        """``turn`` (the new message of ``state``) answered here, finished with the reply (None
        when the message is about something else), and whether a proposal waits after it."""
        last = state.question.resume.language if state.question is not None else None
        if last is None and state.memory.last_intent is not None:
            last = state.memory.last_intent.language
        said = await self.reply(
            StandingTurn(
                session_id=state.session_id,
                text=turn.input,
                time_zone=clock.time_zone,
                now=clock.now,
                language="en" if last == "en" else "pt",
                channel=state.channel,
                run_id=turn.run_id,
                dialogue_question=state.question is not None,
                proposal_pending=state.standing_proposal,
            )
        )
        if said.text is None:
            return None, said.proposal_pending
        update = {"answer": said.text, "route": "respond", "status": RunStatus.COMPLETED, "notes": [NOTE]}
        return turn.model_copy(update=update), said.proposal_pending

    async def _create(self, session_id: str, draft: StandingDraft) -> StandingReply:
        try:
            view = await self.book.confirm(session_id)
        except StandingRefused as refused:  # not made (a limit): the proposal waits on
            return StandingReply(say(refused.reason, draft.language, **refused.params), True)
        if view is None:
            return StandingReply(say("dropped", draft.language), False)
        made = say("created", draft.language, what=describe_view(view, draft.language), next=_when(view))
        return StandingReply(made, False)

    async def _manage(self, session_id: str, command: StandingCommand) -> str | None:
        lang = command.language
        views = await self.book.listing(session_id)
        if command.action == "list":
            if not views:
                return say("none", lang)
            shown = [v for v in views if command.kind is None or v.kind == command.kind] or views
            lines = [f"{i}. {describe_view(v, lang)}" for i, v in enumerate(shown, 1)]
            return "\n".join([say("listing", lang), *lines])
        found = [v for v in views if matches(v, command)]
        if command.kind is None and not command.target:
            return None  # a bare "cancela" / "stop" is not about standing requests
        if (command.kind is None or command.shared_word) and not found:
            # "cancela a reserva", "cancela o agendamento DS2110": something else the dialogue
            # may know
            return None
        if not found:
            return say("not_found", lang, target=" ".join(command.target) or "?")
        if len(found) > 1:
            options = "; ".join(describe_view(v, lang) for v in found)
            return say("which", lang, options=options)
        changed = await self.book.change(session_id, found[0].id, command.action)
        if changed is None:
            return say("not_found", lang, target=" ".join(command.target) or found[0].label)
        what = describe_view(changed, lang)
        if command.action == "pause":
            return say("paused", lang, what=what)
        if command.action == "resume":
            return say("resumed", lang, what=what, next=_when(changed))
        return say("cancelled", lang, what=what)


def _when(view: StandingView) -> str:
    if view.next_fire_at is None:
        return "-"
    return view.next_fire_at.astimezone(ZoneInfo(view.timezone)).strftime("%Y-%m-%d %H:%M")


#: The run ids of standing requests' ticks start so (``gateway.turns.standing.run_id_of``).
FIRING_RUN_PREFIX = "run-st-"
#: The turn's note when this module answered it.
NOTE = "standing request: answered by the standing-requests conversation (dialogue/standing.py)"
