"""``python -m domains.<name>`` starts with the cyclic garbage collector off (its start allocates
much and frees almost nothing, issue 28); :func:`sdk.http_app.serve` must turn it back on before
serving, or the process would never collect a cycle again."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest
import uvicorn
from fastapi import FastAPI

from sdk.service import DomainService, serve
from shared.models import DomainOutput, ExecutionIntent


@pytest.fixture
def collection_off() -> Iterator[None]:
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def test_serve_turns_collection_back_on_before_serving(
    collection_off: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = DomainService("echo", "1.0", "Repeats what it is told")

    @svc.capability("echo", "Repeat the text", role="fallback")
    def echo(intent: ExecutionIntent) -> DomainOutput:
        return DomainOutput(status="success", explanation=str(intent.parameters.get("text", "")))

    seen: list[tuple[bool, int, object]] = []

    def run(app: FastAPI, **_: object) -> None:  # stands in for the server: it would block
        seen.append((gc.isenabled(), gc.get_freeze_count(), app))

    monkeypatch.setattr(uvicorn, "run", run)
    monkeypatch.setattr(sys, "argv", ["domains.echo", "--port", "0"])
    serve(svc)
    [(enabled, frozen, app)] = seen
    assert enabled, "serve() left the garbage collector off"
    assert frozen > 0  # what the start built is out of later collections
    assert isinstance(app, FastAPI) and app.state.service is svc
