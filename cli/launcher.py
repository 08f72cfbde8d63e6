"""``make run``: start every domain in the bootstrap file and the gateway as local processes;
Ctrl-C (or SIGTERM) stops them all.

Each domain entry's ``command`` is started with ``--host``/``--port`` taken from its ``base_url``
(or ``DOMAIN_URL_<NAME>``, read by :func:`orchestrator.registry.env_override` as the registry
reads it), so the same file drives the registry and the launcher.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import urlopen

from gateway.settings import GatewaySettings
from orchestrator.registry import env_override


def domain_url(entry: dict[str, Any]) -> str:
    return env_override(entry["name"]) or str(entry["base_url"])


def wait_healthy(url: str, timeout_s: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urlopen(f"{url}/health", timeout=1.0) as resp:
                if resp.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def main() -> int:
    settings = GatewaySettings()
    bootstrap = json.loads(Path(settings.bootstrap_file).read_text())
    children: list[tuple[str, subprocess.Popen[bytes]]] = []

    def stop_all(*_: object) -> None:
        for _name, proc in reversed(children):
            if proc.poll() is None:
                proc.terminate()
        for _name, proc in reversed(children):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()

    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        for entry in bootstrap.get("domains", []):
            command = entry.get("command")
            if not command:
                continue
            url = urlparse(domain_url(entry))
            argv = [sys.executable if command[0] == "python" else command[0], *command[1:]]
            argv += ["--host", url.hostname or "127.0.0.1", "--port", str(url.port or 80)]
            children.append((entry["name"], subprocess.Popen(argv)))
            print(f"started domain {entry['name']} on {url.geturl()}", flush=True)
        for entry in bootstrap.get("domains", []):
            if entry.get("command") and not wait_healthy(domain_url(entry)):
                print(
                    f"warning: domain {entry['name']} is not healthy yet; the gateway will retry", flush=True
                )
        gateway = subprocess.Popen([sys.executable, "-m", "gateway"])
        children.append(("gateway", gateway))
        print(
            f"gateway on http://{settings.gateway_host}:{settings.gateway_port} "
            "(OpenAI base URL: /v1) — Ctrl-C stops everything",
            flush=True,
        )
        while True:
            for name, proc in children:
                if proc.poll() is not None:
                    print(f"{name} exited with code {proc.returncode}; stopping", flush=True)
                    return proc.returncode or 1
            time.sleep(0.5)
    except KeyboardInterrupt:
        print("\nstopping...", flush=True)
        return 0
    finally:
        stop_all()


if __name__ == "__main__":
    raise SystemExit(main())
