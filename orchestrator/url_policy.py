"""Which base URLs the gateway may call as domains (runtime registration, bootstrap, shared registry).

A base URL must be plain ``http(s)://host[:port][/path]``: no credentials, query or fragment (a
trailing ``?`` or ``#`` would turn ``/manifest`` into an arbitrary GET on an internal service).
Link-local addresses (which include cloud metadata services) are refused by default; when
``allowed_hosts`` is set, only those host names and networks are accepted. Every refusal uses the
same wording so the answer reveals nothing about the target.

>>> policy = UrlPolicy()
>>> policy.check("http://finance:8001")
'http://finance:8001'
>>> policy.check("http://user:pass@finance:8001")
Traceback (most recent call last):
...
orchestrator.url_policy.UrlRefused: base_url must be a plain http(s) URL: no credentials, query or fragment
>>> policy.check("http://169.254.169.254/latest")
Traceback (most recent call last):
...
orchestrator.url_policy.UrlRefused: base_url points to an address domains may not use
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

import httpx

from shared.errors import InvalidRequest

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Refused whatever the allow-list says: link-local (cloud metadata lives there) and the
#: metadata services' other well-known addresses.
DENIED_NETWORKS: tuple[IpNetwork, ...] = (
    ipaddress.ip_network("169.254.0.0/16"),
    ipaddress.ip_network("fe80::/10"),
    ipaddress.ip_network("fd00:ec2::254/128"),
    ipaddress.ip_network("100.100.100.200/32"),
)
DENIED_HOSTS = frozenset({"metadata", "metadata.google.internal", "metadata.goog"})

MALFORMED = "base_url must be a plain http(s) URL: no credentials, query or fragment"
DENIED = "base_url points to an address domains may not use"
BAD_HOST = "base_url must be a plain http(s) URL whose host is a valid host name"


class UrlRefused(InvalidRequest):
    """A domain base URL the outbound policy does not allow (``param="base_url"``)."""

    code = "base_url_refused"

    def __init__(self, message: str):
        super().__init__(message, param="base_url")


class UrlPolicy:
    """``allowed_hosts``: host names and IP networks (``"finance"``, ``"10.0.0.0/8"``); empty
    allows every host but the denied ranges. ``resolve``: also check the addresses a host name
    resolves to (off in tests whose hosts are in-process)."""

    def __init__(self, allowed_hosts: Iterable[str] = (), *, resolve: bool = True):
        self._names: set[str] = set()
        self._networks: list[IpNetwork] = []
        for item in (h.strip().lower() for h in allowed_hosts):
            if not item:
                continue
            try:
                self._networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self._names.add(item.rstrip("."))
        self._resolve = resolve

    @property
    def restricted(self) -> bool:
        return bool(self._names or self._networks)

    def check(self, url: str) -> str:
        """``url`` without trailing ``/`` when allowed; raises :class:`UrlRefused` otherwise."""
        host = _host(url)
        literal = _literal(host)
        addresses = [literal] if literal is not None else self._addresses(host)
        if host in DENIED_HOSTS or any(a in n for a in addresses for n in DENIED_NETWORKS):
            raise UrlRefused(DENIED)
        if self.restricted and not self._allowed(host, literal, addresses):
            raise UrlRefused(DENIED)
        return url.rstrip("/")

    def _allowed(self, host: str, literal: IpAddress | None, addresses: list[IpAddress]) -> bool:
        if literal is None and host in self._names:
            return True
        # a name not listed is accepted only when every address it resolves to is in a network
        candidates = [literal] if literal is not None else addresses
        return bool(candidates) and all(any(a in n for n in self._networks) for a in candidates)

    def _addresses(self, host: str) -> list[IpAddress]:
        if not self._resolve:
            return []
        try:
            infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            return []  # unresolvable: the fetch fails with the uniform "did not answer" text
        found: list[IpAddress] = []
        for info in infos:
            address = _literal(str(info[4][0]).split("%")[0])
            if address is not None:
                found.append(address)
        return found


def _host(url: str) -> str:
    if any(c in url for c in "?#@\\") or any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise UrlRefused(MALFORMED)
    try:
        parts = urlsplit(url)
        port = parts.port  # raises on a non-numeric or out-of-range port
    except ValueError:
        raise UrlRefused(MALFORMED) from None
    if parts.scheme not in ("http", "https") or not parts.hostname or port == 0:
        raise UrlRefused(MALFORMED)
    host = parts.hostname.lower().rstrip(".")
    if _literal(host) is None and not _host_name(host):
        raise UrlRefused(BAD_HOST)
    return host


def _host_name(host: str) -> bool:
    """Whether ``host`` is a name the resolver takes: IDNA-encodable (no empty or over-long label)
    and, for its ``xn--`` labels, valid punycode. An HTTP client fails on anything else with an
    encoding error rather than a connection error, so it is refused here, as the URL it is.

    >>> _host_name("finance"), _host_name("bücher.example"), _host_name("a..b"), _host_name("☃.example")
    (True, True, False, False)
    """
    try:
        host.encode("idna").decode("idna")
        _ = httpx.URL(f"http://{host}").host  # httpx's own (stricter, IDNA 2008) rules, both ways
    except (UnicodeError, httpx.InvalidURL):
        return False
    return True


def _literal(host: str) -> IpAddress | None:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # ::ffff:169.254.169.254 is the IPv4 address
    return address
