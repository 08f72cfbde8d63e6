"""Small helpers the three bench domains share: reading dates, times, numbers and money from the
person's words (the docs offer only string, enum and boolean entities), and the reply language.

Relative dates are resolved against a fixed reference day so that answers are deterministic:
``BENCH_TODAY`` (ISO date), default 2026-03-10 (a Tuesday), the bench's reference clock.
"""

from __future__ import annotations

import os
import re
import unicodedata
from datetime import date, timedelta
from typing import Any

REFERENCE_DAY = date(2026, 3, 10)

WEEKDAYS = {
    "segunda": 0,
    "segunda-feira": 0,
    "seg": 0,
    "terca": 1,
    "terca-feira": 1,
    "ter": 1,
    "quarta": 2,
    "quarta-feira": 2,
    "qua": 2,
    "quinta": 3,
    "quinta-feira": 3,
    "qui": 3,
    "sexta": 4,
    "sexta-feira": 4,
    "sex": 4,
    "sabado": 5,
    "sab": 5,
    "domingo": 6,
    "dom": 6,
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}

MONTHS = {
    "jan": 1,
    "fev": 2,
    "feb": 2,
    "mar": 3,
    "abr": 4,
    "apr": 4,
    "mai": 5,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "ago": 8,
    "aug": 8,
    "set": 9,
    "sep": 9,
    "out": 10,
    "oct": 10,
    "nov": 11,
    "dez": 12,
    "dec": 12,
}

NUMBER_WORDS = {
    "um": 1,
    "uma": 1,
    "one": 1,
    "a": 1,
    "an": 1,
    "dois": 2,
    "duas": 2,
    "two": 2,
    "couple": 2,
    "tres": 3,
    "three": 3,
    "quatro": 4,
    "four": 4,
    "cinco": 5,
    "five": 5,
    "seis": 6,
    "six": 6,
    "sete": 7,
    "seven": 7,
    "oito": 8,
    "eight": 8,
    "nove": 9,
    "nine": 9,
    "dez": 10,
    "ten": 10,
    "duzia": 12,
    "dozen": 12,
}


def fold(text: str) -> str:
    """Lower case, no accents, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(plain.split())


def today() -> date:
    raw = os.environ.get("BENCH_TODAY", "")
    try:
        return date.fromisoformat(raw) if raw else REFERENCE_DAY
    except ValueError:
        return REFERENCE_DAY


def language(intent: Any) -> str:
    """The person's language from the call's context (``pt`` unless it says ``en``)."""
    context = getattr(intent, "context", None) or {}
    return "en" if str(context.get("language", "pt")).lower().startswith("en") else "pt"


def parse_day(text: str | None) -> date | None:
    """'hoje', 'amanhã', 'sexta', 'dia 20', '20/03', '2026-03-20', 'March 20', 'tomorrow'..."""
    if not text:
        return None
    plain = fold(str(text))
    base = today()
    if re.search(r"\b(hoje|hj|today|tonight|agora|now)\b", plain):
        return base
    if re.search(r"depois de amanha|day after tomorrow", plain):
        return base + timedelta(days=2)
    if re.search(r"\b(amanha|amnh|tomorrow|tmrw|tmr)\b", plain):
        return base + timedelta(days=1)
    iso = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", plain)
    if iso:
        try:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        except ValueError:
            return None
    numeric = re.search(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", plain)
    if numeric:
        day, month = int(numeric.group(1)), int(numeric.group(2))
        year = int(numeric.group(3)) if numeric.group(3) else base.year
        year = year + 2000 if year < 100 else year
        try:
            return date(year, month, day)
        except ValueError:
            return None
    for name, month in MONTHS.items():
        named = re.search(rf"\b(\d{{1,2}})\s*(?:de\s+)?{name}\w*|\b{name}\w*\s+(\d{{1,2}})\b", plain)
        if named:
            day = int(named.group(1) or named.group(2))
            try:
                return date(base.year, month, day)
            except ValueError:
                return None
    only_day = re.search(r"\b(?:dia|day|the)\s+(\d{1,2})\b", plain)
    if only_day:
        day = int(only_day.group(1))
        month, year = (base.month, base.year) if day >= base.day else (base.month % 12 + 1, base.year)
        try:
            return date(year, month, day)
        except ValueError:
            return None
    for word in re.findall(r"[a-z-]+", plain):
        if word in WEEKDAYS:
            ahead = (WEEKDAYS[word] - base.weekday()) % 7
            if re.search(r"\b(que vem|next|proxim[ao])\b", plain) and ahead == 0:
                ahead = 7
            return base + timedelta(days=ahead or 7)
    return None


def parse_time(text: str | None) -> str | None:
    """'14h', '14:30', '9h30', '2pm', '2:30 pm', 'meio-dia' -> 'HH:MM'."""
    if not text:
        return None
    plain = fold(str(text))
    if re.search(r"meio[- ]dia|noon", plain):
        return "12:00"
    match = re.search(r"\b(\d{1,2})(?:[:h](\d{2})?)?\s*(am|pm|da tarde|da noite|da manha)?\b", plain)
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    suffix = match.group(3) or ""
    if suffix in ("pm", "da tarde", "da noite") and hour < 12:
        hour += 12
    if suffix == "am" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def parse_number(text: Any) -> float | None:
    """'3', '2,5', 'duas', 'a dozen' -> a number."""
    if isinstance(text, int | float):
        return float(text)
    if not text:
        return None
    plain = fold(str(text))
    match = re.search(r"\d+(?:[.,]\d+)?", plain)
    if match:
        return float(match.group(0).replace(",", "."))
    for word in re.findall(r"[a-z]+", plain):
        if word in NUMBER_WORDS:
            return float(NUMBER_WORDS[word])
    return None


def parse_money(text: Any, default_currency: str = "BRL") -> tuple[float, str] | None:
    """'R$ 49,90', '50 reais', '$20', '20 bucks', '30 euros' -> (amount, currency)."""
    if isinstance(text, int | float):
        return float(text), default_currency
    if not text:
        return None
    plain = fold(str(text))
    match = re.search(r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?|\d+(?:[.,]\d{1,2})?", plain)
    if not match:
        return None
    raw = match.group(0)
    if "," in raw:
        raw = raw.replace(".", "").replace(",", ".")
    elif raw.count(".") > 1:
        raw = raw.replace(".", "")
    amount = float(raw)
    if re.search(r"us\$|\$\s*\d|dolar|dollar|bucks|usd", plain) and "r$" not in plain:
        currency = "USD"
    elif re.search(r"euro|eur|€", plain):
        currency = "EUR"
    elif re.search(r"r\$|real|reais|brl", plain):
        currency = "BRL"
    else:
        currency = default_currency
    return amount, currency
