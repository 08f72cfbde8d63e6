"""Secrets out of what the trace keeps of an LLM's answers: the configured API key wherever it
appears, and anything shaped like a bearer token or an API key a model might echo.

>>> mask("key sk-abcdef1234567890 and Bearer abc.def-123 and mine", ["mine"])
'key *** and Bearer *** and ***'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MASK = "***"
_SHAPES = (
    re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"(?<=Bearer )[A-Za-z0-9_\-.=]+"),
    re.compile(r"\b(?:ghp|gho|xox[abp])_?[A-Za-z0-9\-]{10,}"),
)


def mask(text: str, secrets: Iterable[str] = ()) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, MASK)
    for shape in _SHAPES:
        text = shape.sub(MASK, text)
    return text
