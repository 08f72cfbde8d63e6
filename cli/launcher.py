"""``make run``: start every domain in the bootstrap file and the gateway as local processes, say
what is happening until the gateway's ``/ready`` passes, then print where it is; Ctrl-C (or
SIGTERM) stops them all.

Each domain entry's ``command`` is started with ``--host``/``--port`` taken from its ``base_url``
(or ``DOMAIN_URL_<NAME>``, read by :func:`shared.domain_urls.env_override` as the registry
reads it), so the same file drives the registry and the launcher. The gateway starts at the same
time (``cli.gateway_process``: its imports overlap the domains' start; it learns the catalog once
they answer). Without ``ADMIN_TOKEN`` the gateway gets the local admin key of ``var/admin.key``
(``cli.admin_key``).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import urlparse
from urllib.request import urlopen

from pydantic import BaseModel, Field

from cli.admin_key import DEFAULT_PATH as ADMIN_KEY_PATH
from cli.admin_key import ensure_admin_key
from cli.gateway_process import PROGRESS_FD_ENV, ProgressEvent
from cli.startup_view import StartupView, view_for
from gateway.settings import GatewaySettings
from shared.domain_urls import env_override

#: Last start's measured phases (seconds), for the next start's estimates.
TIMINGS_PATH = Path("var/startup-times.json")
POLL_S = 0.1


class BootstrapDomain(BaseModel):
    """A domain entry of the bootstrap file, as far as the launcher reads it."""

    name: str
    #: "mcp": an MCP server, which the gateway itself reaches (or starts, over stdio)
    kind: str = "http"
    base_url: str = ""
    #: how to start it locally; none: it runs elsewhere and is only registered
    command: list[str] | None = None

    @property
    def local_command(self) -> list[str] | None:
        """The command the launcher starts it with: an HTTP domain's; ``None`` for one that runs
        elsewhere, and for an MCP server (the gateway runs its command, over stdio, with no port)."""
        return None if self.kind == "mcp" or not self.command else self.command


class Bootstrap(BaseModel):
    domains: list[BootstrapDomain] = Field(default_factory=list)


def domain_url(entry: BootstrapDomain) -> str:
    return env_override(entry.name) or entry.base_url


def domain_argv(command: list[str], host: str, port: int) -> list[str]:
    """A bootstrap entry's ``command``, run by this Python, listening on ``host:port``."""
    program = sys.executable if command[0] == "python" else command[0]
    return [program, *command[1:], "--host", host, "--port", str(port)]


def answers(url: str, timeout_s: float = 0.5) -> bool:
    """``url`` answers 200 now."""
    try:
        with urlopen(url, timeout=timeout_s) as resp:
            return bool(resp.status == 200)
    except OSError:
        return False


def read_timings(path: Path = TIMINGS_PATH) -> dict[str, float]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float)}


def write_timings(timings: dict[str, float], path: Path = TIMINGS_PATH) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(timings))
    except OSError:
        pass  # only an estimate for next time


def _pass_lines(stream: IO[bytes], view: StartupView) -> None:
    for raw in iter(stream.readline, b""):
        view.passthrough(raw.decode("utf-8", errors="replace").rstrip("\n"))


def _read_events(stream: IO[str], events: queue.Queue[ProgressEvent]) -> None:
    for line in iter(stream.readline, ""):
        event = ProgressEvent.from_line(line)
        if event is not None:
            events.put(event)


@dataclass
class Startup:
    """Start-up's progress, told to ``view`` as events and health checks come in."""

    view: StartupView
    domains: dict[str, str]
    started: float = field(default_factory=time.monotonic)
    timings_path: Path = TIMINGS_PATH
    timings: dict[str, float] | None = None
    healthy: set[str] = field(default_factory=set)
    waiting_on_gateway: bool = False

    def __post_init__(self) -> None:
        if self.timings is None:
            self.timings = read_timings(self.timings_path)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def check_domains(self) -> None:
        for name, url in self.domains.items():
            if name not in self.healthy and answers(f"{url}/health"):
                self.healthy.add(name)
                self.view.say(f"domain {name} ready on {url} ({self.elapsed():.1f} s)")
        if len(self.healthy) == len(self.domains) and not self.waiting_on_gateway:
            self.waiting_on_gateway = True
            self.view.phase("gateway starting")

    def not_healthy(self) -> list[str]:
        """The domains that have not answered ``/health`` yet (the gateway retries them)."""
        return [name for name in self.domains if name not in self.healthy and not self._answers(name)]

    def _answers(self, name: str) -> bool:
        return answers(f"{self.domains[name]}/health")

    def on_event(self, event: ProgressEvent) -> None:
        phase, args = event.phase, event.args
        if phase == "migration":
            self.view.say(f"database: {args[0] if args else 'migrating'}")
            self.view.phase("gateway starting")
        elif phase == "training":
            goals = args[1] if len(args) > 1 else "?"
            self.view.phase(
                f"training the intent model on {goals} goals (first start, or the catalog changed)",
                (self.timings or {}).get("intent_training_s"),
            )
        elif phase == "trained":
            seconds = float(args[1]) if len(args) > 1 else 0.0
            self.timings = {**(self.timings or {}), "intent_training_s": seconds}
            write_timings(self.timings, self.timings_path)
            self.view.say(f"intent model trained in {seconds:.1f} s (kept for the next start)")
            self.view.phase("gateway starting")
        elif phase == "loaded":
            self.view.say("intent model loaded (the catalog is unchanged)")
            self.view.phase("gateway starting")


def banner(settings: GatewaySettings, admin_note: str, seconds: float) -> list[str]:
    base = f"http://{settings.gateway_host}:{settings.gateway_port}"
    return [
        f"ready in {seconds:.1f} s: gateway on {base} (OpenAI base URL: {base}/v1)",
        f'  try: curl -s {base}/v1/chat/completions -H "Content-Type: application/json" '
        '-d \'{"model": "orchestrator", "messages": [{"role": "user", "content": "cotação da Petrobras"}]}\'',
        admin_note.format(base=base),
        "  Ctrl-C stops everything",
    ]


def admin_environment(settings: GatewaySettings) -> tuple[dict[str, str], str]:
    """The gateway's admin variables and the banner's line about them."""
    if settings.admin_token is not None:
        return {}, "  admin routes: the ADMIN_TOKEN you set"
    key = ensure_admin_key(ADMIN_KEY_PATH)
    note = (
        f"  admin routes take the local key in {ADMIN_KEY_PATH} (owner-only), e.g. to register a domain:\n"
        f'  curl -H "Authorization: Bearer $(cat {ADMIN_KEY_PATH})" -H "Content-Type: application/json" '
        """-d '{{"name": "mydomain", "base_url": "http://127.0.0.1:8200"}}' {base}/v1/domains"""
    )
    return {"ADMIN_TOKEN": key}, note


class Children:
    """The processes the launcher started, their output passed to the view; stopped in reverse."""

    def __init__(self, view: StartupView):
        self.view = view
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []

    def spawn(
        self, name: str, argv: list[str], env: dict[str, str] | None = None, fds: tuple[int, ...] = ()
    ) -> None:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, pass_fds=fds)
        assert proc.stdout is not None
        threading.Thread(target=_pass_lines, args=(proc.stdout, self.view), daemon=True).start()
        self.procs.append((name, proc))

    def exited(self) -> tuple[str, int] | None:
        """The first child that has exited, with its return code."""
        for name, proc in self.procs:
            if proc.poll() is not None:
                return name, proc.returncode
        return None

    def stop_all(self) -> None:
        for _name, proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for _name, proc in reversed(self.procs):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def start_domains(bootstrap: Bootstrap, children: Children) -> dict[str, str]:
    """Every bootstrap entry with a ``command``, started on its URL's port; name -> base URL."""
    domains: dict[str, str] = {}
    for entry in bootstrap.domains:
        command = entry.local_command
        if command is None:
            continue
        url = urlparse(domain_url(entry))
        children.spawn(entry.name, domain_argv(command, url.hostname or "127.0.0.1", url.port or 80))
        domains[entry.name] = domain_url(entry).rstrip("/")
    return domains


def start_gateway(
    children: Children, domains: dict[str, str], admin_env: dict[str, str]
) -> queue.Queue[ProgressEvent]:
    """The gateway, waiting for ``domains`` before it learns the catalog; its start-up phases
    arrive on the returned queue (a pipe it writes JSON lines to)."""
    events: queue.Queue[ProgressEvent] = queue.Queue()
    read_fd, write_fd = os.pipe()
    waits = [arg for url in domains.values() for arg in ("--wait-for", url)]
    children.spawn(
        "gateway",
        [sys.executable, "-m", "cli.gateway_process", *waits],
        env={**os.environ, **admin_env, PROGRESS_FD_ENV: str(write_fd)},
        fds=(write_fd,),
    )
    os.close(write_fd)
    reader = os.fdopen(read_fd, encoding="utf-8")
    threading.Thread(target=_read_events, args=(reader, events), daemon=True).start()
    return events


def watch(
    children: Children,
    startup: Startup,
    events: queue.Queue[ProgressEvent],
    settings: GatewaySettings,
    admin_note: str,
) -> int:
    """Show start-up until ``/ready`` passes, print the banner, then wait until a child exits
    (its return code; Ctrl-C is the caller's)."""
    ready_url = f"http://{settings.gateway_host}:{settings.gateway_port}/ready"
    ready = False
    while True:
        gone = children.exited()
        if gone is not None:
            children.view.close()
            print(f"{gone[0]} exited with code {gone[1]}; stopping", flush=True)
            return gone[1] or 1
        if not ready:
            startup.check_domains()
            while not events.empty():
                startup.on_event(events.get_nowait())
            if answers(ready_url, timeout_s=1.0):
                ready = True
                children.view.close()
                for line in banner(settings, admin_note, startup.elapsed()):
                    print(line, flush=True)
                for name in startup.not_healthy():
                    print(f"  domain {name} is not answering yet: the gateway retries it", flush=True)
            children.view.tick()
        time.sleep(POLL_S if not ready else 0.5)


def main() -> int:
    settings = GatewaySettings()
    bootstrap = Bootstrap.model_validate_json(Path(settings.bootstrap_file).read_text())
    view = view_for(sys.stdout)
    children = Children(view)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        domains = start_domains(bootstrap, children)
        view.say(f"starting {len(domains)} domains ({', '.join(domains)}) and the gateway")
        admin_env, admin_note = admin_environment(settings)
        events = start_gateway(children, domains, admin_env)
        startup = Startup(view, domains)
        view.phase("domains starting")
        return watch(children, startup, events, settings, admin_note)
    except KeyboardInterrupt:
        view.close()
        print("\nstopping...", flush=True)
        return 0
    finally:
        children.stop_all()


if __name__ == "__main__":
    raise SystemExit(main())
