"""Messages by id, one text per language, filled in with ``str.format`` parameters.

The core's texts are :data:`shared.i18n.messages.CORE`; a domain keeps its own texts next to its
code in a :class:`Catalog` of its own, so every component says things the same way.

>>> quotes = Catalog({"quote": {"pt": "{name} está em {price}.", "en": "{name} is at {price}."}})
>>> quotes.t("quote", "en", name="Vale", price="61.20")
'Vale is at 61.20.'
>>> quotes.t("quote", "pt-BR", name="Vale", price="61,20")
'Vale está em 61,20.'

A missing translation falls back to English, an unknown id to the id itself, so a gap shows up
in the answer instead of failing the request:

>>> Catalog({"only_en": {"en": "English only."}}).t("only_en", "pt")
'English only.'
>>> quotes.t("no.such.id", "pt")
'no.such.id'

``{value!c}`` places a sentence inside another one: its final full stop goes, so a domain's
"Not found." reads "(Not found)." rather than "(Not found.).":

>>> Catalog({"stop": {"en": "I stopped ({reason!c})."}}).t("stop", "en", reason="Not found.")
'I stopped (Not found).'
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from shared.i18n.languages import LANGUAGES, Language, as_language


class _Formatter(string.Formatter):
    """``str.format`` plus the ``!c`` conversion (a sentence used as a clause)."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "c":
            return str(value).rstrip().removesuffix(".")
        return super().convert_field(value, conversion)


_FORMATTER = _Formatter()


def _parameters(template: str) -> set[str]:
    return {field.split(".")[0].split("[")[0] for _, field, _, _ in _FORMATTER.parse(template) if field}


class Catalog:
    """Texts keyed by message id, one per language; build it once at import time."""

    def __init__(self, messages: Mapping[str, Mapping[str, str]]) -> None:
        for message_id, texts in messages.items():
            unknown = set(texts) - set(LANGUAGES)
            if unknown:
                raise ValueError(f"message {message_id!r} has texts for unknown languages {sorted(unknown)}")
        self._messages: Mapping[str, Mapping[str, str]] = MappingProxyType(
            {message_id: MappingProxyType(dict(texts)) for message_id, texts in messages.items()}
        )

    @classmethod
    def by_language(cls, texts: Mapping[str, Mapping[str, str]]) -> Catalog:
        """A catalog from ``{language: {message_id: text}}``, the shape most domains keep.

        >>> Catalog.by_language({"pt": {"and": "e"}, "en": {"and": "and"}}).t("and", "en")
        'and'
        """
        messages: dict[str, dict[str, str]] = {}
        for language, by_id in texts.items():
            for message_id, text in by_id.items():
                messages.setdefault(message_id, {})[language] = text
        return cls(messages)

    def t(self, message_id: str, language: str, /, **params: object) -> str:
        """Message ``message_id`` in ``language`` (any tag :func:`as_language` reads), filled in
        with ``params``; English when that language has no text, the id when nothing has."""
        texts = self._messages.get(message_id)
        if texts is None:
            return message_id
        template = texts.get(as_language(language)) or texts.get("en")
        if template is None:
            return message_id
        return _FORMATTER.vformat(template, (), params).strip()

    def untranslated(self) -> list[tuple[str, Language]]:
        """Every (message id, language) that has no text of its own."""
        return [
            (message_id, language)
            for message_id, texts in self._messages.items()
            for language in LANGUAGES
            if not texts.get(language)
        ]

    def parameters(self, message_id: str) -> set[str]:
        """The parameters message ``message_id`` takes (in any of its languages).

        >>> sorted(Catalog({"hi": {"pt": "Oi, {name}!", "en": "Hi, {name}!"}}).parameters("hi"))
        ['name']
        """
        return set().union(*(_parameters(text) for text in self._messages.get(message_id, {}).values()))

    def mismatched_parameters(self) -> list[str]:
        """Every message id whose languages do not take the same parameters (a typo in one)."""
        return [
            message_id
            for message_id, texts in self._messages.items()
            if len({frozenset(_parameters(text)) for text in texts.values()}) > 1
        ]

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._messages

    def __iter__(self) -> Iterator[str]:
        return iter(self._messages)

    def __len__(self) -> int:
        return len(self._messages)
