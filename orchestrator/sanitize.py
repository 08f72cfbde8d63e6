"""Person-facing text from domains, made safe to show: control characters, terminal escape
sequences and bidirectional overrides are removed (newlines and tabs stay).

A domain's ``explanation`` and clarification texts reach chat clients and Telegram verbatim;
an ANSI sequence or a right-to-left override there can disguise what the person reads.

>>> clean_text("ok\\x1b[31m red\\x1b[0m \\u202egnp.exe\\u202c\\nnext\\tline\\x00")
'ok red gnp.exe\\nnext\\tline'
"""

from __future__ import annotations

import re

from shared.models import Clarification, DomainOutput

#: CSI/OSC terminal sequences first (so their parameters go too), then single characters:
#: C0 controls but tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
_UNSAFE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)


def clean_text(text: str) -> str:
    return _UNSAFE.sub("", text) if text else text


def clean_output(output: DomainOutput) -> DomainOutput:
    """``output`` with its person-facing texts cleaned (the same object when nothing changed)."""
    update: dict[str, object] = {}
    explanation = clean_text(output.explanation)
    if explanation != output.explanation:
        update["explanation"] = explanation
    if output.clarification is not None:
        clarification = _clean_clarification(output.clarification)
        if clarification is not output.clarification:
            update["clarification"] = clarification
    return output.model_copy(update=update) if update else output


def _clean_clarification(clarification: Clarification) -> Clarification:
    options = [
        option.model_copy(
            update={"label": clean_text(option.label), "aliases": [clean_text(a) for a in option.aliases]}
        )
        for option in clarification.options
    ]
    question = clean_text(clarification.question)
    if question == clarification.question and options == clarification.options:
        return clarification
    return clarification.model_copy(update={"question": question, "options": options})
