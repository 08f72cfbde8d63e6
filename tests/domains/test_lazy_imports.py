"""A domain's start does not load what only some requests use (issue 28): httpx is imported when
Telegram or an LLM is configured (the notifier's and research's only outside calls), rapidfuzz on
finance's first fuzzy name lookup. Four domains start at once on a small machine, CPU-bound."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

#: How each domain's ``__main__`` builds the app it serves.
BUILD = {
    "finance": "from domains.finance.service import service\nservice.app()",
    "general": "from domains.general.service import service\nservice.app()",
    "notifier": "from domains.notifier.service import build\nbuild()",
    "research": "from domains.research.service import build\nbuild()",
}

#: Top-level packages a domain's start must not load (with its defaults: no Telegram, no LLM).
LAZY = ("httpx", "rapidfuzz")

#: Modules the SDK's routes must not load (a domain's own routes with parameters may).
SDK_LAZY = ("pydantic.v1",)

#: Settings that would make a domain need httpx at start; unset for these checks.
OUTSIDE = ("TELEGRAM_BOT_TOKEN", "LLM_BASE_URL")


def loaded_modules(statement: str) -> set[str]:
    """The modules in ``sys.modules`` after ``statement``, in a fresh interpreter."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    env = {k: v for k, v in os.environ.items() if k not in OUTSIDE}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("domain", sorted(BUILD))
def test_building_a_domain_loads_nothing_only_some_requests_use(domain: str) -> None:
    modules = loaded_modules(f"import domains.{domain}.__main__\n{BUILD[domain]}")
    loaded = {m.split(".")[0] for m in modules}
    assert "fastapi" in loaded  # the statement did build the app
    assert not loaded & set(LAZY), f"{domain} loaded {sorted(loaded & set(LAZY))} at start"


@pytest.mark.parametrize("domain", ["finance", "general"])  # only the SDK's routes
def test_the_sdk_routes_build_no_response_model(domain: str) -> None:
    modules = loaded_modules(f"import domains.{domain}.__main__\n{BUILD[domain]}")
    assert "fastapi" in modules
    assert not modules & set(SDK_LAZY), f"{domain} loaded {sorted(modules & set(SDK_LAZY))} at start"
