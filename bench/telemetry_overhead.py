"""What metrics and tracing cost the gateway: the same turn through two gateways, one with
telemetry off (``METRICS_ENABLED=false``, no OTLP endpoint) and one with it on (metrics, and
spans exported over OTLP/HTTP to a loopback receiver), interleaved request by request.

Command (from the repo root):
    .venv/bin/python bench/telemetry_overhead.py [--n 300]
Writes bench/results/telemetry.md and bench/results/telemetry.json.

Each stack is a finance and a general domain and a gateway (real processes, SQLite); the
telemetry-on stack's domains export spans too. Per round, in a rotating order: finance's
``/execute`` directly and the gateway's ``POST /v1/runs`` (the next message of one of 10 running
sessions) on each stack. The gateway's overhead is the median through the gateway minus the
median straight to its own finance; the ``X-Orchestrator-Overhead-Ms`` header's median is shown
beside it (the gateway's own view: request time minus the domain wait).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.telemetry import OVERHEAD_HEADER  # noqa: E402
from tests.conftest import START_TIMEOUT_S, Process, free_port, spawn, wait_http, write_bootstrap  # noqa: E402
from tests.telemetry.otlp_receiver import OtlpReceiver  # noqa: E402

WARM_UP_ROUNDS = 30
QUERY = "cotação da Vale"
INTENT: dict[str, Any] = {
    "domain": "finance",
    "capability": "get_stock_price",
    "parameters": {"symbol_text": "Vale"},
    "confidence": 0.99,
    "original_query": QUERY,
}
STACKS = ("off", "on")


def _start(
    stack: ExitStack, name: str, argv: list[str], env: dict[str, str], gateway: bool = False
) -> Process:
    port = free_port()
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    full_env = {
        **inherited,
        "LOG_LEVEL": "WARNING",
        "GATEWAY_HOST": "127.0.0.1",
        "GATEWAY_PORT": str(port),
        **env,
    }
    proc = spawn([sys.executable, *argv, *([] if gateway else ["--port", str(port)])], env=full_env)
    process = Process(name, f"http://127.0.0.1:{port}", proc)
    stack.callback(process.stop)
    wait_http(f"{process.url}/health", timeout_s=START_TIMEOUT_S, proc=proc)
    print(f"{name} ready", file=sys.stderr)
    return process


def _start_stack(stack: ExitStack, name: str, work: Path, env: dict[str, str]) -> dict[str, str]:
    finance = _start(stack, f"{name}_finance", ["-m", "domains.finance", "--host", "127.0.0.1"], env)
    general = _start(stack, f"{name}_general", ["-m", "domains.general", "--host", "127.0.0.1"], env)
    bootstrap = write_bootstrap(work / f"{name}.json", {"finance": finance.url, "general": general.url})
    gateway_env = {
        **env,
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / f'{name}.sqlite3'}",
        "BOOTSTRAP_FILE": str(bootstrap),
        "API_KEYS": "",
        "REDIS_URL": "",
    }
    gateway = _start(stack, f"{name}_gateway", ["-m", "gateway"], gateway_env, gateway=True)
    return {"direct": finance.url, "gateway": gateway.url}


def _direct(client: httpx.Client, url: str) -> float:
    t0 = time.perf_counter()
    response = client.post(f"{url}/execute", json=INTENT)
    elapsed_ms = (time.perf_counter() - t0) * 1e3
    response.raise_for_status()
    assert response.json()["status"] == "success", response.text
    return elapsed_ms


def _gateway(client: httpx.Client, url: str, i: int) -> tuple[float, float]:
    """(wall time, X-Orchestrator-Overhead-Ms) of one turn, in ms."""
    t0 = time.perf_counter()
    response = client.post(f"{url}/v1/runs", json={"input_text": QUERY, "session_id": f"chat-{i % 10}"})
    elapsed_ms = (time.perf_counter() - t0) * 1e3
    response.raise_for_status()
    assert response.json()["status"] == "completed", response.text
    return elapsed_ms, float(response.headers[OVERHEAD_HEADER])


def measure(n: int) -> dict[str, Any]:
    # the receiver outlives the processes: their last spans are flushed to it as they stop
    with OtlpReceiver() as receiver, ExitStack() as stack:
        work = Path(tempfile.mkdtemp())
        stack.callback(shutil.rmtree, work, ignore_errors=True)
        urls = {
            "off": _start_stack(stack, "off", work, {"METRICS_ENABLED": "false"}),
            "on": _start_stack(
                stack,
                "on",
                work,
                {"METRICS_ENABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url},
            ),
        }
        times: dict[str, dict[str, list[float]]] = {
            s: {"direct": [], "gateway": [], "header": []} for s in STACKS
        }
        with httpx.Client(timeout=30) as client:
            for i in range(WARM_UP_ROUNDS + n):
                order = STACKS if i % 2 == 0 else STACKS[::-1]
                for s in order:
                    direct = _direct(client, urls[s]["direct"])
                    wall, header = _gateway(client, urls[s]["gateway"], i)
                    if i >= WARM_UP_ROUNDS:
                        times[s]["direct"].append(direct)
                        times[s]["gateway"].append(wall)
                        times[s]["header"].append(header)
            # the on stack really exported: every turn's spans reached the receiver
            metrics = client.get(f"{urls['on']['gateway']}/metrics").text
            turns_on = int(
                sum(
                    float(line.split()[-1])
                    for line in metrics.splitlines()
                    if line.startswith("orchestrator_turns_total{")
                )
            )
        time.sleep(6.0)  # the batch span processor exports every 5 s
        spans = receiver.received()
    medians = {s: {k: statistics.median(v) for k, v in times[s].items()} for s in STACKS}
    overhead = {s: medians[s]["gateway"] - medians[s]["direct"] for s in STACKS}
    return {
        "n": n,
        "medians_ms": medians,
        "gateway_overhead_ms": overhead,
        "increase": overhead["on"] / overhead["off"] - 1,
        "header_increase": medians["on"]["header"] / medians["off"]["header"] - 1,
        "spans_received": len(spans),
        "workflow_spans": sum(1 for s in spans if s.name == "invoke_workflow"),
        "turns_counted": turns_on,
    }


def report(result: dict[str, Any]) -> str:
    m = result["medians_ms"]
    o = result["gateway_overhead_ms"]
    rows = [
        "| | telemetry off | telemetry on | change |",
        "|---|---:|---:|---:|",
        f"| finance `/execute` directly | {m['off']['direct']:.3f} | {m['on']['direct']:.3f} | |",
        f"| gateway `POST /v1/runs` | {m['off']['gateway']:.3f} | {m['on']['gateway']:.3f} | |",
        f"| **gateway overhead** (gateway − direct) | **{o['off']:.3f}** | **{o['on']:.3f}** "
        f"| **{result['increase']:+.1%}** |",
        f"| `{OVERHEAD_HEADER}` (median) | {m['off']['header']:.3f} | {m['on']['header']:.3f} "
        f"| {result['header_increase']:+.1%} |",
    ]
    return "\n".join(
        [
            "# Telemetry overhead",
            "",
            f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, `bench/telemetry_overhead.py --n {result['n']}`, "
            f"{os.cpu_count()} cores, loopback, SQLite; medians in ms over {result['n']} interleaved rounds "
            f"(after {WARM_UP_ROUNDS} warm-up rounds).",
            "",
            "Off: `METRICS_ENABLED=false`, no OTLP endpoint. On: metrics, and spans of the gateway and "
            "the domains exported over OTLP/HTTP to a loopback receiver "
            f"({result['spans_received']} spans received, {result['workflow_spans']} of them turns; "
            f"`orchestrator_turns_total` counted {result['turns_counted']} turns).",
            "",
            *rows,
            "",
            "Target: at most +10 % on the gateway's overhead.",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args()
    result = measure(args.n)
    out = ROOT / "bench" / "results"
    (out / "telemetry.json").write_text(json.dumps(result, indent=2) + "\n")
    text = report(result)
    (out / "telemetry.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
