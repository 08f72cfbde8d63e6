"""A real nginx in front of gateway processes, on loopback, for tests and benchmarks.

nginx runs in the foreground (``daemon off``) as a child of the caller, in a process group of its
own (its workers included), with everything it writes -- pid file, error and access logs, temp
files -- under a work directory (``-p`` prefix). No root is needed. The ``location /`` includes
``deploy/gateway-proxy.conf``, the very file docker-compose's balancer uses, so what is tested
is how requests are passed and retried in production.

The access log (``access.log``) has one JSON line per request: method, path, status and which
upstream(s) answered (``upstream``, comma-separated when nginx passed the request on).
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conftest import ROOT, START_TIMEOUT_S, Process, free_port, spawn, stop_process, wait_http

PROXY_CONF = ROOT / "deploy" / "gateway-proxy.conf"
#: Response header naming the upstream(s) that answered (loopback tests only: never in deploy/).
UPSTREAM_HEADER = "x-upstream-addr"

_TEMPLATE = """\
{user}
worker_processes 1;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log warn;

events {{
    worker_connections 1024;
}}

http {{
    log_format upstreams escape=json '{{"method":"$request_method","uri":"$request_uri",'
        '"status":"$status","upstream":"$upstream_addr","upstream_status":"$upstream_status"}}';
    access_log {work}/access.log upstreams;
    client_body_temp_path {work}/client_body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;

    upstream gateways {{
{servers}
        keepalive 64;
        keepalive_timeout 4s;
    }}

    server {{
        listen 127.0.0.1:{port};
        add_header X-Upstream-Addr $upstream_addr always;

        location / {{
            include {proxy_conf};
        }}

        location = /lb-health {{
            return 200 "ok\\n";
        }}
    }}
}}
"""


def nginx_binary() -> str | None:
    """The nginx executable (Debian installs it in /usr/sbin, often not on a user's PATH)."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def nginx_config(work: Path, port: int, upstreams: list[str]) -> str:
    """The configuration text: ``upstreams`` (``host:port``) round robin, listening on ``port``."""
    servers = "\n".join(f"        server {u} max_fails=1 fail_timeout=10s;" for u in upstreams)
    # a master started as root would switch its workers to `nobody`, who cannot write in `work`
    user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
    return _TEMPLATE.format(user=user, work=work, servers=servers, port=port, proxy_conf=PROXY_CONF)


@dataclass
class Nginx:
    process: Process
    work: Path

    @property
    def url(self) -> str:
        return self.process.url

    def access_log(self) -> list[dict[str, Any]]:
        """The requests nginx has logged so far (its log is written as each request ends)."""
        path = self.work / "access.log"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@contextlib.contextmanager
def nginx_over(binary: str, gateway_urls: list[str], work: Path) -> Iterator[Nginx]:
    """nginx on a free loopback port balancing over ``gateway_urls``; stopped when the block ends.
    Ready once it answers its own ``/lb-health`` (no request reaches an upstream before the
    caller's first: round robin then starts at ``gateway_urls[0]``)."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    upstreams = [url.removeprefix("http://") for url in gateway_urls]
    conf = work / "nginx.conf"
    conf.write_text(nginx_config(work, port, upstreams))
    # -e: the error log before the configuration is read (the default path needs root)
    argv = [binary, "-p", str(work), "-e", str(work / "error.log"), "-c", str(conf)]
    with (work / "stdout.log").open("wb") as output:
        proc = spawn(argv, output=output)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{url}/lb-health", START_TIMEOUT_S, proc=proc)
    except BaseException as exc:
        stop_process(proc)
        if not isinstance(exc, Exception):  # Ctrl-C
            raise
        log = work / "error.log"
        raise RuntimeError(f"nginx did not start: {log.read_text() if log.exists() else exc}") from exc
    try:
        yield Nginx(Process("nginx", url, proc), work)
    finally:
        stop_process(proc)  # SIGTERM: nginx's fast shutdown, workers included (same group)
