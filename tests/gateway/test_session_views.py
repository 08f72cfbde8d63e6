"""The sessions API documents its bodies: typed models, the state included, not raw dicts."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from dialogue.state import Message, TurnState, new_turn
from gateway.routes import sessions
from gateway.routes.session_views import SessionView, TurnSummary
from gateway.storage.runs import StoredTurn
from shared.models import IntentOutput, RunResult
from shared.status import RunStatus


def openapi() -> dict[str, Any]:
    app = FastAPI()
    app.include_router(sessions.router)
    return app.openapi()


def test_the_session_endpoints_publish_their_models() -> None:
    spec = openapi()
    responses = {
        path: spec["paths"][path][method]["responses"][code]["content"]["application/json"]["schema"]["$ref"]
        for path, method, code in [
            ("/v1/sessions/{session_id}", "get", "200"),
            ("/v1/sessions/{session_id}/history", "get", "200"),
            ("/v1/sessions/{session_id}/versions/{version}", "get", "200"),
            ("/v1/sessions/{session_id}/fork", "post", "201"),
        ]
    }
    assert [ref.rsplit("/", 1)[-1] for ref in responses.values()] == [
        "SessionView",
        "SessionHistory",
        "SessionVersion",
        "ForkResult",
    ]
    schemas = spec["components"]["schemas"]
    state = schemas["SessionView"]["properties"]["state"]
    assert {"$ref": "#/components/schemas/TurnState"} in state["anyOf"]
    # the turn's working values are documented field by field
    assert {"intent", "plan", "steps", "answer", "status"} <= set(schemas["Turn"]["properties"])


def test_a_session_view_carries_the_typed_state_and_its_question() -> None:
    state = TurnState(
        session_id="s1",
        messages=[Message(role="user", content="oi", event_id="evt-0001")],
        turn=new_turn("run-1", "oi"),
    )
    run = RunResult(
        run_id="run-1",
        session_id="s1",
        status=RunStatus.COMPLETED,
        intent=IntentOutput(goal="SMALL_TALK", original_query="oi"),
        answer="Olá!",
        event_id="evt-0002",
    )
    view = SessionView(
        session_id="s1",
        status="completed",
        graph_status=RunStatus.WAITING_INPUT,
        pending_question=state.question,
        turn_count=1,
        event_count=2,
        turns=[TurnSummary.of(StoredTurn(run, input_text="oi!"))],
        versions=[],
        state=state,
    )
    body = view.model_dump(mode="json")
    assert body["turns"][0] == {
        "run_id": "run-1",
        "event_id": "evt-0002",
        "status": "completed",
        "input_text": "oi!",
        "goal": "SMALL_TALK",
        "resolved_to": {"query": "oi", "goal": "SMALL_TALK", "entities": {}, "calls": []},
        "answer": "Olá!",
        "created_at": None,
    }
    assert body["state"]["messages"][0]["event_id"] == "evt-0001"
    assert SessionView.model_validate(body).state == state  # what clients get reads back as the state
