"""With ``PROMETHEUS_MULTIPROC_DIR``, any worker's ``/metrics`` answers for all of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

WORKER = """
from shared.telemetry.metrics import HTTP_REQUESTS
HTTP_REQUESTS.labels("gateway", "/v1/runs", "POST", "200").inc({count})
"""
SCRAPE = """
import sys
from shared.telemetry.metrics import render
sys.stdout.write(render()[0].decode())
"""


def _python(code: str, directory: Path) -> str:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_workers_values_add_up_in_any_scrape(tmp_path: Path) -> None:
    _python(WORKER.format(count=2), tmp_path)
    _python(WORKER.format(count=3), tmp_path)
    text = _python(SCRAPE, tmp_path)
    values = [
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "http_requests_total" and sample.labels.get("route") == "/v1/runs"
    ]
    assert values == [5.0]
