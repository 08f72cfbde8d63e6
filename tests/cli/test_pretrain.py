"""``make install``'s pretraining: the model ``python -m cli.pretrain`` stores is the one a gateway
over the same catalog loads at start, instead of training before it can answer. Real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, START_TIMEOUT_S, gateway_over, start_domain

pytestmark = pytest.mark.integration


def test_a_pretrained_catalog_is_loaded_by_the_gateway_without_training(tmp_path: Path) -> None:
    cache = tmp_path / "intent-cache"
    bootstrap = tmp_path / "domains.bootstrap.json"
    command = {
        "name": "finance",
        "base_url": "http://127.0.0.1:1",
        "command": ["python", "-m", "domains.finance"],
    }
    bootstrap.write_text(json.dumps({"domains": [command]}))
    env = {**os.environ, "BOOTSTRAP_FILE": str(bootstrap), "INTENT_CACHE_DIR": str(cache)}
    pretrained = subprocess.run(
        [sys.executable, "-m", "cli.pretrain"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S * 2,
    )
    assert pretrained.returncode == 0, pretrained.stderr
    assert "ready in the cache" in pretrained.stderr
    finance = start_domain("finance")
    log = tmp_path / "gateway.log"
    try:
        overrides = {"INTENT_CACHE_DIR": str(cache), "LOG_LEVEL": "INFO", "LOG_FORMAT": "text"}
        with gateway_over({"finance": finance}, tmp_path, overrides, log=log):
            pass
    finally:
        finance.stop()
    started = log.read_text()
    assert "loaded from" in started, started[-2000:]
    assert "training the intent model" not in started
