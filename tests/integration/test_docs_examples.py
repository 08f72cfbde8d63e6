"""Every fenced example of README.md and docs/*.md marked runnable is run against a real platform.

A block is runnable when its info string says so, after the language::

    ```bash runnable
    ```python runnable expect=NDA-FI.HE       (every comma-separated text must be in the output)
    ```python runnable file=warehouse.py     (written to the document's working directory only)
    ```bash runnable needs=a2a_agent          (tests/fixtures/a2a_agent.py is started first)

A document's examples run in order, in one working directory, against one gateway (open mode,
``ADMIN_TOKEN=admin-secret``, as the docs' keys assume) over the real finance, notifier and
general processes. Ports the docs name are the real ones: the gateway's 8000 and a shipped
domain's port become this platform's; any other port (a server an example starts) becomes a
free port, the same one wherever the document names it. An example fails on a non-zero exit,
on an error body in its output (``{"error": {...}}``, HTTP or JSON-RPC), or when its ``expect``
text is missing. Processes an example leaves running (``python warehouse.py &``) are stopped
with its document.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import (
    ROOT,
    START_TIMEOUT_S,
    Process,
    exit_code,
    gateway_over,
    reserve_port,
    spawn,
    start_and_wait,
    stop_process,
)

pytestmark = pytest.mark.integration

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<code>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
PORT = re.compile(r"(?P<before>(?:127\.0\.0\.1|localhost):|port=|--port )(?P<port>\d{4,5})\b")
ERROR_BODY = re.compile(r'"error"\s*:\s*\{')
#: The shipped domains' ports in domains.bootstrap.json, by domain.
SHIPPED_PORTS = {
    int(str(entry["base_url"]).rsplit(":", 1)[1]): str(entry["name"])
    for entry in json.loads((ROOT / "domains.bootstrap.json").read_text())["domains"]
}
GATEWAY_PORT = 8000
ADMIN_TOKEN = "admin-secret"
FIXTURES = {"a2a_agent"}


@dataclass(frozen=True)
class Example:
    document: Path
    line: int
    language: str
    code: str
    #: Written to the working directory under this name instead of being run.
    file: str | None = None
    expect: tuple[str, ...] = ()
    needs: str | None = None

    def __str__(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line} ({self.language})"


def runnable_examples(document: Path) -> list[Example]:
    text = document.read_text()
    found = []
    for match in FENCE.finditer(text):
        words = match.group("info").split()
        if "runnable" not in words[1:]:
            continue
        options = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        assert words[0] in ("bash", "python"), f"{document.name}: a runnable block must be bash or python"
        assert options.get("needs") in (None, *FIXTURES), f"{document.name}: unknown needs={options['needs']}"
        found.append(
            Example(
                document=document,
                line=text.count("\n", 0, match.start()) + 1,
                language=words[0],
                code=match.group("code"),
                file=options.get("file"),
                expect=tuple(t for t in options.get("expect", "").split(",") if t),
                needs=options.get("needs"),
            )
        )
    return found


def test_examples_are_marked_in_the_documents_that_have_them() -> None:
    """The marking is read as written: the documents that show the platform running have runnable
    examples (a typo in the info string would silently run nothing)."""
    counts = {d.name: len(runnable_examples(d)) for d in DOCUMENTS}
    for name in ("README.md", "a2a.md", "mcp.md", "openai.md", "domains.md"):
        assert counts[name] >= 1, counts


class Ports:
    """The docs' port numbers mapped to this platform's: one document, one mapping. A port the
    platform does not already serve is held (:func:`reserve_port`) until :meth:`release`: the server
    an example starts on it binds it later, maybe examples later, and no other process is given it
    meanwhile."""

    def __init__(self, gateway: Process, domains: dict[str, Process]):
        self.held = contextlib.ExitStack()
        self.mapped: dict[int, int] = {GATEWAY_PORT: _port(gateway.url)}
        for port, name in SHIPPED_PORTS.items():
            if name in domains:
                self.mapped[port] = _port(domains[name].url)

    def of(self, port: int) -> int:
        if port not in self.mapped:
            self.mapped[port] = self.held.enter_context(reserve_port()).port
        return self.mapped[port]

    def release(self) -> None:
        self.held.close()

    def substitute(self, code: str) -> str:
        return PORT.sub(lambda m: f"{m.group('before')}{self.of(int(m.group('port')))}", code)


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def docs_gateway(
    domain_processes: dict[str, Process], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Process]:
    with gateway_over(
        domain_processes, tmp_path_factory.mktemp("docs-gateway"), {"ADMIN_TOKEN": ADMIN_TOKEN}
    ) as gw:
        yield gw


def _run(
    example: Example, code: str, work: Path, env: dict[str, str], left: list[subprocess.Popen[bytes]]
) -> str:
    if example.language == "python":
        script = work / f"example_{example.line}.py"
        script.write_text(code)
        argv = [sys.executable, str(script)]
    else:
        argv = ["bash", "-euo", "pipefail", "-c", code]
    log = work / f"example_{example.line}.log"
    with log.open("wb") as output:
        proc = spawn(argv, env=env, cwd=work, output=output)
        left.append(proc)  # its group (servers it started in the background) is stopped at the end
        deadline = time.monotonic() + START_TIMEOUT_S
        while exit_code(proc) is None:
            assert time.monotonic() < deadline, f"{example} still running after {START_TIMEOUT_S:g}s"
            time.sleep(0.05)
    out = log.read_text(errors="replace")
    code_ = exit_code(proc)
    assert code_ == 0, f"{example} exited with {code_}:\n{code}\n--- output:\n{out}"
    assert not ERROR_BODY.search(out), f"{example} answered an error:\n{code}\n--- output:\n{out}"
    for text in example.expect:
        assert text in out, f"{example}: {text!r} not in its output:\n{out}"
    return out


@pytest.mark.parametrize("document", [d for d in DOCUMENTS if runnable_examples(d)], ids=lambda d: d.name)
def test_the_documents_runnable_examples_run(
    document: Path, docs_gateway: Process, domain_processes: dict[str, Process], tmp_path: Path
) -> None:
    ports = Ports(docs_gateway, domain_processes)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "ADMIN_TOKEN": ADMIN_TOKEN,
    }
    # as `make run` leaves it: examples read the local admin key from var/admin.key
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "admin.key").write_text(ADMIN_TOKEN + "\n")
    left: list[subprocess.Popen[bytes]] = []
    fixtures: list[Process] = []
    try:
        for example in runnable_examples(document):
            code = ports.substitute(example.code)
            if example.file is not None:
                (tmp_path / example.file).write_text(code)
                continue
            if example.needs is not None and example.needs not in {f.name for f in fixtures}:
                fixtures.append(start_fixture(example.needs, ports.of(_needs_port(example))))
            _run(example, code, tmp_path, env, left)
    finally:
        for proc in left:
            stop_process(proc)
        for fixture in fixtures:
            fixture.stop()
        ports.release()


def start_fixture(name: str, port: int) -> Process:
    """``tests/fixtures/<name>.py`` on ``port``, waited for on ``/health``."""
    url = f"http://127.0.0.1:{port}"
    argv = [sys.executable, str(ROOT / "tests" / "fixtures" / f"{name}.py"), "--port", str(port)]
    return Process(name, url, start_and_wait(argv, url, dict(os.environ)))


def _needs_port(example: Example) -> int:
    """The port the document gives the fixture an example needs (its first non-platform port)."""
    for match in PORT.finditer(example.code):
        port = int(match.group("port"))
        if port != GATEWAY_PORT and port not in SHIPPED_PORTS:
            return port
    raise AssertionError(f"{example}: needs={example.needs} but names no port for it")
