"""What the launcher does once the gateway process runs (:mod:`cli.launcher` starts it first):
start the domains, show start-up's progress until the gateway's ``/ready`` passes, print where it
is, then wait until a child exits; every child is stopped on the way out.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.request import urlopen

from cli.admin_key import DEFAULT_PATH as ADMIN_KEY_PATH
from cli.bootstrap import Bootstrap, BootstrapUnreadable
from cli.progress_events import ProgressEvent
from cli.startup_view import StartupView, view_for
from gateway.settings import GatewaySettings

#: Last start's measured phases (seconds), for the next start's estimates.
TIMINGS_PATH = Path("var/startup-times.json")
POLL_S = 0.1


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


def admin_note(settings: GatewaySettings) -> str:
    """The banner's line about admin routes: the ``ADMIN_TOKEN`` set, or the local key the gateway
    process made (``cli.gateway_process``)."""
    if settings.admin_token is not None:
        return "  admin routes: the ADMIN_TOKEN you set"
    return (
        f"  admin routes take the local key in {ADMIN_KEY_PATH} (owner-only), e.g. to register a domain:\n"
        f'  curl -H "Authorization: Bearer $(cat {ADMIN_KEY_PATH})" -H "Content-Type: application/json" '
        """-d '{{"name": "mydomain", "base_url": "http://127.0.0.1:8200"}}' {base}/v1/domains"""
    )


class Children:
    """The processes the launcher started, their output passed to the view; stopped in reverse."""

    def __init__(self, view: StartupView):
        self.view = view
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []

    def spawn(self, name: str, argv: list[str]) -> None:
        self.adopt(name, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))

    def adopt(self, name: str, proc: subprocess.Popen[bytes]) -> None:
        """``proc`` (its output a pipe) is one of the children: its lines shown, stopped with them."""
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
    for domain in bootstrap.local():
        children.spawn(domain.name, domain.argv())
        domains[domain.name] = domain.url
    return domains


def watch_events(read_fd: int) -> queue.Queue[ProgressEvent]:
    """The gateway's start-up phases, read from the pipe ``read_fd`` into the returned queue."""
    events: queue.Queue[ProgressEvent] = queue.Queue()
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


def supervise(gateway: subprocess.Popen[bytes], progress_fd: int) -> int:
    """Start the domains beside the running ``gateway`` (its phases arriving on ``progress_fd``)
    and watch them all; every child is stopped on the way out. Ctrl-C ends it with status 0."""
    settings = GatewaySettings()
    try:
        bootstrap = Bootstrap.read(Path(settings.bootstrap_file))
    except BootstrapUnreadable as exc:
        print(f"launcher: the bootstrap file is not valid: {exc}", file=sys.stderr, flush=True)
        return 2
    view = view_for(sys.stdout)
    children = Children(view)
    try:
        domains = start_domains(bootstrap, children)
        # last in, so first out: the gateway stops before the domains it calls
        children.adopt("gateway", gateway)
        view.say(f"starting {len(domains)} domains ({', '.join(domains)}) and the gateway")
        startup = Startup(view, domains)
        view.phase("domains starting")
        return watch(children, startup, watch_events(progress_fd), settings, admin_note(settings))
    except KeyboardInterrupt:
        view.close()
        print("\nstopping...", flush=True)
        return 0
    finally:
        children.stop_all()
