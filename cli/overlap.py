"""``python -m cli.overlap manifest.json``: before registering a domain, the ``goal_overlap``
warnings its registration would get (``POST /v1/domains`` refuses them unless ``allow_overlap``),
and goal names another domain already owns.

The manifest is compared with the domains of a running gateway (``--gateway``, default
``http://127.0.0.1:8000``: each HTTP domain's ``/manifest``, read from the base URL that
``GET /v1/domains`` lists) or with manifest files (``--against a.json b.json``), by the same lint
the gateway runs (:func:`intent.lint.goal_overlaps`, same threshold). Exit status: 0 nothing to
report, 1 overlaps or taken goal names, 2 the manifest is invalid or the others could not be read.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import httpx

from intent.lint import goal_overlaps
from orchestrator.registry import goals_owned_elsewhere
from shared.catalog import Catalog
from shared.manifest import DomainManifest, ManifestInvalid, parse_manifest

TIMEOUT_S = 15.0


class Unreadable(Exception):
    """A manifest or a gateway that could not be read; the message says which and why."""


def read_manifest(path: Path) -> DomainManifest:
    try:
        return parse_manifest(path.read_bytes())
    except OSError as exc:
        raise Unreadable(f"{path}: {exc.strerror}") from None
    except ManifestInvalid as exc:
        raise Unreadable("\n".join(f"{path}: {e['path']}: {e['message']}" for e in exc.errors)) from None


def registered_manifests(gateway: str, token: str | None) -> tuple[list[DomainManifest], list[str]]:
    """The manifests of the gateway's HTTP domains, and the names of those not compared (MCP
    servers and A2A agents, whose goals the gateway makes; domains whose manifest did not load)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(timeout=TIMEOUT_S, headers=headers) as client:
        try:
            listed = client.get(f"{gateway.rstrip('/')}/v1/domains")
        except httpx.HTTPError as exc:
            raise Unreadable(f"{gateway}: {exc}") from None
        if listed.status_code != 200:
            raise Unreadable(
                f"{gateway}/v1/domains answered HTTP {listed.status_code} (an admin key: --token)"
            )
        manifests: list[DomainManifest] = []
        skipped: list[str] = []
        for domain in listed.json().get("data", []):
            base_url = domain.get("base_url")
            if domain.get("kind", "http") != "http" or not base_url:
                skipped.append(str(domain.get("name")))
                continue
            try:
                answer = client.get(f"{base_url.rstrip('/')}/manifest", headers={})
                manifests.append(parse_manifest(answer.content))
            except (httpx.HTTPError, ManifestInvalid):
                skipped.append(str(domain.get("name")))
        return manifests, skipped


def report(candidate: DomainManifest, others: Sequence[DomainManifest], threshold: float | None) -> list[str]:
    """What registering ``candidate`` beside ``others`` would be told: one line per taken goal name
    and per overlap, most similar first. A domain of the candidate's name is the one it replaces."""
    others = [m for m in others if m.domain != candidate.domain]
    taken = goals_owned_elsewhere(candidate, {m.domain: m for m in others})
    lines = [f"goal_taken: {candidate.domain}.{goal} is a goal of {owner}" for goal, owner in taken.items()]
    catalog = Catalog([*others, candidate])
    found = (
        goal_overlaps(catalog, domain=candidate.domain)
        if threshold is None
        else goal_overlaps(catalog, threshold, domain=candidate.domain)
    )
    lines.extend(
        f"goal_overlap: {o.domain_a}.{o.goal_a} overlaps {o.domain_b}.{o.goal_b} ({o.similarity:.0%} similar)"
        for o in found
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cli.overlap", description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", type=Path, help="the manifest to check (JSON, as GET /manifest answers)")
    parser.add_argument("--against", type=Path, nargs="+", help="compare with these manifest files instead")
    parser.add_argument(
        "--gateway", default="http://127.0.0.1:8000", help="a running gateway (default: %(default)s)"
    )
    parser.add_argument(
        "--token", default=os.environ.get("ADMIN_TOKEN"), help="admin key (default: $ADMIN_TOKEN)"
    )
    parser.add_argument(
        "--threshold", type=float, help="report pairs from this similarity (default: registration's)"
    )
    args = parser.parse_args(argv)
    skipped: list[str] = []
    try:
        candidate = read_manifest(args.manifest)
        if args.against:
            others = [read_manifest(path) for path in args.against]
        else:
            others, skipped = registered_manifests(args.gateway, args.token)
    except Unreadable as exc:
        print(exc, file=sys.stderr)
        return 2
    if skipped:
        print(f"not compared (no manifest to read): {', '.join(skipped)}", file=sys.stderr)
    lines = report(candidate, others, args.threshold)
    for line in lines:
        print(line)
    if not lines:
        print(f"{candidate.domain}: no goal overlaps {len(others)} other domain(s)")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
