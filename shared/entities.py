"""The values the intent layer reads from a message, as they cross packages (intent -> dialogue ->
planner -> gateway) in ``IntentOutput.entities`` and become a domain call's parameters.

What each entity type gives (``shared.manifest.EntitySpec.type``):

* ``string``: the text as written (``"Petrobras"``); ``enum``: one of its values (``"GAINERS"``);
  ``boolean``: ``True`` (a switch the words turned on);
* typed (``shared.manifest.TYPED_ENTITY_TYPES``): ISO text for ``date`` ``"2026-11-27"``,
  ``time`` ``"14:00"``, ``datetime``, ``duration`` ``"PT2H"``; an ``int`` or ``float`` for
  ``number``; :class:`Money` for ``money``; text for ``email``, ``phone``, ``url``;
* an entity that may name several (``multiple``) gives a list of those when it names more than one.

An entity a message does not name is absent, never ``None``.
"""

from __future__ import annotations

# pydantic validates TypedDicts from typing_extensions only before Python 3.12
from typing_extensions import TypedDict


class Money(TypedDict):
    """An amount of money: ``{"amount": 20, "currency": "USD"}``; ``currency`` (ISO 4217) is
    ``None`` when the person did not say it."""

    amount: int | float
    currency: str | None


#: A typed entity's value: ISO text (or an email, phone, URL), a number, or an amount of money.
TypedValue = str | int | float | Money
#: One entity's value: text, a number, money, a boolean entity's ``True``, or several values of an
#: entity that names more than one (strings or enum values; typed values).
EntityValue = TypedValue | bool | list[str] | list[TypedValue]
#: The entities a message names, by the goal's entity name.
Entities = dict[str, EntityValue]
