"""One language detector and complete catalogs across the code base.

``shared.i18n.detect`` is the only language detector: a module that defines its own would answer
a request in another language than the rest of the turn. Every message, in the core's catalog and
in each domain's, has a text in every language with the same parameters.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from domains.finance.messages import MESSAGES as FINANCE
from domains.general.service import MESSAGES as GENERAL
from domains.notifier.service import MESSAGES as NOTIFIER
from domains.research.wording import MESSAGES as RESEARCH
from shared.i18n import CORE, Catalog

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "bench",
    "cli",
    "dialogue",
    "domains",
    "execution",
    "gateway",
    "graph",
    "intent",
    "orchestrator",
    "planner",
    "sdk",
    "shared",
)
I18N = ROOT / "shared" / "i18n"
#: Names a language detector or reader goes by ("detect_language", "guess_lang", "language_of").
DETECTOR_NAME = re.compile(r"^_?(detect|guess)(_lang|_language)?(_of)?$|^_?language_of$")


def _python_files() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        # bench/.work holds the comparison venvs bench scripts install (third-party code)
        if I18N not in path.parents and not {".venv", ".work", "site-packages"} & set(path.parts)
    ]


def _defined_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


@pytest.mark.parametrize(
    "name", ["detect", "detect_language", "_detect_language", "language_of", "guess_lang"]
)
def test_the_pattern_catches_the_names_detectors_go_by(name: str) -> None:
    assert DETECTOR_NAME.match(name)


@pytest.mark.parametrize("name", ["detect_kind", "detected", "language_for", "as_language", "languages_of"])
def test_the_pattern_leaves_other_functions_alone(name: str) -> None:
    assert not DETECTOR_NAME.match(name)


def test_no_module_outside_shared_i18n_defines_a_language_detector() -> None:
    files = _python_files()
    assert len(files) > 100  # the walk found the code base
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name in _defined_functions(path)
        if DETECTOR_NAME.match(name)
    ]
    assert offenders == []


CATALOGS: dict[str, Catalog] = {
    "core": CORE,
    "finance": FINANCE,
    "general": GENERAL,
    "notifier": NOTIFIER,
    "research": RESEARCH,
}


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_every_message_has_every_language_with_the_same_parameters(name: str) -> None:
    catalog = CATALOGS[name]
    assert len(catalog) > 0
    assert catalog.untranslated() == []
    assert catalog.mismatched_parameters() == []
