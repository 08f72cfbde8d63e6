"""``python -m cli.pretrain`` (the last step of ``make install``): the intent model of the
bootstrap catalog trained into the model cache, so the first ``make run`` loads it instead of
training before it can answer.

The catalog is read the way the gateway reads it: each domain the launcher would start (an HTTP
entry of the bootstrap file with a ``command``: :meth:`cli.bootstrap.Bootstrap.local`) is started
on a free loopback port, its manifest (lookup tables included) fetched over
HTTP, and the domains stopped again. A catalog that changes later (a domain edited, a runtime
registration) is learnt by the gateway as before: the cache is keyed by the catalog itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from cli.bootstrap import Bootstrap, LocalDomain, domain_argv
from gateway.settings import GatewaySettings
from intent import build_adapter
from intent.settings import IntentSettings
from orchestrator import DomainClient, DomainRegistry

log = logging.getLogger("cli.pretrain")

#: How long the domains may take to answer their first ``/health`` (a busy 2-core machine).
START_TIMEOUT_S = 120.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(domains: list[LocalDomain]) -> tuple[dict[str, str], list[subprocess.Popen[bytes]]]:
    """Every domain the launcher would start, started on a free port: its name -> base URL, and
    the processes."""
    urls: dict[str, str] = {}
    processes: list[subprocess.Popen[bytes]] = []
    for domain in domains:
        port = _free_port()
        argv = domain_argv(domain.command, "127.0.0.1", port)
        processes.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        urls[domain.name] = f"http://127.0.0.1:{port}"
    return urls, processes


def _wait_healthy(urls: dict[str, str], processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    waiting = dict(urls)
    while waiting:
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            raise RuntimeError(f"domains did not start: {', '.join(sorted(waiting))}")
        for name, url in list(waiting.items()):
            try:
                if httpx.get(f"{url}/health", timeout=0.5).status_code == 200:
                    del waiting[name]
            except httpx.HTTPError:
                pass
        time.sleep(0.1)  # polling for readiness


async def _train(urls: dict[str, str]) -> str:
    """Train and store the model of the catalog those domains serve; its fingerprint."""
    async with httpx.AsyncClient(timeout=30) as http:
        registry = DomainRegistry(DomainClient(http), env={})
        with tempfile.TemporaryDirectory(prefix="pretrain-") as folder:
            bootstrap = Path(folder) / "domains.json"
            domains = [{"name": name, "base_url": url} for name, url in urls.items()]
            bootstrap.write_text(json.dumps({"domains": domains}))
            await registry.load_bootstrap(bootstrap)
        down = registry.down()
        if down:
            raise RuntimeError(f"no manifest from: {', '.join(down)}")
        adapter = build_adapter(IntentSettings())
        adapter.update_catalog(registry.catalog)  # trains (or finds the model) and stores it
        return registry.catalog.fingerprint


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per health poll
    settings = GatewaySettings()
    if not settings.bootstrap_file.exists():
        log.info("no %s: nothing to pretrain", settings.bootstrap_file)
        return 0
    urls, processes = _start(Bootstrap.read(settings.bootstrap_file).local())
    try:
        _wait_healthy(urls, processes)
        fingerprint = asyncio.run(_train(urls))
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    log.info("intent model of catalog %s ready in the cache", fingerprint)
    return 0


if __name__ == "__main__":
    sys.exit(main())
