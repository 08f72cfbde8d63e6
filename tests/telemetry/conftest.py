"""A platform with telemetry on, as real processes: finance, notifier and general domains and a
gateway, all exporting spans to a loopback OTLP receiver, with an API key and a Telegram bot token
configured, and each process' output kept in a file the log tests read."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import Process, reserve_port, spawn, stop_process, wait_http, write_bootstrap
from tests.telemetry.otlp_receiver import OtlpReceiver

API_KEY = "sk-telemetry-test-key-7f3a9c"
TELEGRAM_TOKEN = "123456789:AAtelemetry-test-bot-token-9d8e7f"
ADMIN_TOKEN = "admin-telemetry-test-token-4b2c"


@dataclass
class ObservedPlatform:
    gateway: Process
    domains: dict[str, Process]
    receiver: OtlpReceiver
    logs: dict[str, Path]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {API_KEY}"}

    def output(self) -> str:
        return "\n".join(path.read_text(errors="replace") for path in self.logs.values())


def _start(name: str, argv: list[str], url: str, env: dict[str, str], log: Path) -> Process:
    output = log.open("wb")
    proc = spawn(argv, env={**os.environ, **env}, output=output)
    output.close()  # the child has its own descriptor
    try:
        wait_http(f"{url}/health", proc=proc)
    except BaseException:
        stop_process(proc)
        raise
    return Process(name, url, proc, env)


@pytest.fixture(scope="session")
def observed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ObservedPlatform]:
    work = tmp_path_factory.mktemp("telemetry")
    telemetry_env = {
        "OTEL_BSP_SCHEDULE_DELAY": "100",  # export spans within 0.1 s rather than 5 s
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "DEBUG",
    }
    started: dict[str, Process] = {}
    logs: dict[str, Path] = {}
    with OtlpReceiver() as receiver, reserve_port() as telegram:
        telemetry_env["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.url
        try:
            domain_env = {
                **telemetry_env,
                "NOTIFIER_OUTBOX_PATH": str(work / "outbox.sqlite3"),
                "TELEGRAM_BOT_TOKEN": TELEGRAM_TOKEN,
                "TELEGRAM_CHAT_ID": "424242",
                # nothing listens there (the port is held, never listening, while the platform
                # runs): a delivery fails fast, and may be logged (masked)
                "TELEGRAM_API_BASE": telegram.url,
            }
            # each process's port is held for it until it answers (uvicorn binds after start-up)
            for name in ("finance", "notifier", "general"):
                logs[name] = work / f"{name}.log"
                with reserve_port() as reserved:
                    port = reserved.port
                    started[name] = _start(
                        name,
                        [sys.executable, "-m", f"domains.{name}", "--host", "127.0.0.1", "--port", str(port)],
                        reserved.url,
                        domain_env,
                        logs[name],
                    )
            bootstrap = write_bootstrap(work / "bootstrap.json", {n: p.url for n, p in started.items()})
            logs["gateway"] = work / "gateway.log"
            with reserve_port() as reserved:
                gateway = _start(
                    "gateway",
                    [sys.executable, "-m", "gateway"],
                    reserved.url,
                    {
                        **telemetry_env,
                        "GATEWAY_HOST": "127.0.0.1",
                        "GATEWAY_PORT": str(reserved.port),
                        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'gateway.sqlite3'}",
                        "BOOTSTRAP_FILE": str(bootstrap),
                        "API_KEYS": API_KEY,
                        "ADMIN_TOKEN": ADMIN_TOKEN,
                        "REDIS_URL": "",
                    },
                    logs["gateway"],
                )
            started["gateway"] = gateway
            yield ObservedPlatform(
                gateway, {n: p for n, p in started.items() if n != "gateway"}, receiver, logs
            )
        finally:
            for process in started.values():
                process.stop()
