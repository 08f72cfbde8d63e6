"""The same turn on LangGraph, for bench/turn_cpu.py's comparison: a LangGraph graph (understand ->
plan -> execute -> respond) checkpointed by ``AsyncSqliteSaver`` behind one FastAPI route.

LangGraph is not a dependency of this project: ``setup`` installs it with pinned versions into a
venv of its own under ``bench/.work/`` (gitignored), and ``serve`` runs inside that venv.

Commands (from the repo root):
    .venv/bin/python bench/langgraph_turn.py setup          # prints the venv's python
    bench/.work/langgraph-venv/bin/python bench/langgraph_turn.py serve --port P --domain-url URL \
        --db FILE
``bench/turn_cpu.py --langgraph`` does both and measures it beside the gateway.

The route takes the gateway's ``POST /v1/runs`` body (``input_text``) and the ``X-Session-Id``
header as the thread id: every request is the next turn of that thread, its state read from and
written to SQLite by the checkpointer, as the gateway's turns are. The graph does the turn's work
but for the intent model: ``understand`` picks the quote goal by a keyword, so LangGraph's side
does *less* than the gateway (which parses each message with its intent adapter).
"""

import argparse
import subprocess
import venv
from pathlib import Path
from typing import Annotated, Any, TypedDict

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "bench" / ".work" / "langgraph-venv"
#: Pinned: LangGraph and its SQLite checkpointer, and the same server stack as the gateway's.
PINS = (
    "langgraph==1.2.24",
    "langgraph-checkpoint-sqlite==3.1.2",
    "fastapi==0.165.0",
    "uvicorn[standard]==0.54.0",
    "aiohttp==3.14.5",
)


#: Messages a thread keeps, as the gateway's state does (``dialogue.state.TRANSCRIPT_WINDOW``).
WINDOW = 20


def recent(kept: list[dict[str, str]], new: list[dict[str, str]]) -> list[dict[str, str]]:
    """The reducer of ``messages``: the last :data:`WINDOW` (a state that does not grow)."""
    return (kept + new)[-WINDOW:]


class Turn(TypedDict, total=False):
    """The LangGraph turn's state (module level: LangGraph reads its type hints)."""

    messages: Annotated[list[dict[str, str]], recent]
    text: str
    goal: str
    intent: dict[str, Any]
    output: dict[str, Any]
    answer: str


class RunRequest(BaseModel):
    """The part of the gateway's ``/v1/runs`` body the route reads."""

    input_text: str
    session_id: str | None = None


def venv_python() -> Path:
    return VENV / "bin" / "python"


def setup() -> Path:
    """The venv with :data:`PINS` installed (created once; pip checks the pins every time)."""
    if not venv_python().exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    subprocess.run([str(venv_python()), "-m", "pip", "install", "-q", *PINS], check=True)
    return venv_python()


def serve(port: int, domain_url: str, db: str) -> None:  # runs in the LangGraph venv
    from collections.abc import AsyncIterator
    from contextlib import asynccontextmanager

    import aiohttp
    import uvicorn
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.graph import END, START, StateGraph

    http: list[aiohttp.ClientSession] = []

    def understand(state: Turn) -> dict[str, Any]:
        text = state["text"]
        goal = "GET_QUOTE" if any(w in text.lower() for w in ("cotação", "preço", "quote")) else "SMALL_TALK"
        return {"goal": goal, "messages": [{"role": "user", "content": text}]}

    def plan(state: Turn) -> dict[str, Any]:
        intent = {
            "domain": "finance",
            "capability": "get_stock_price",
            "parameters": {"symbol_text": "Vale"},
            "confidence": 0.99,
            "original_query": state["text"],
        }
        return {"intent": intent}

    async def execute(state: Turn) -> dict[str, Any]:
        async with http[0].post("/execute", json=state["intent"]) as answer:
            return {"output": await answer.json()}

    def respond(state: Turn) -> dict[str, Any]:
        answer = state["output"].get("explanation", "")
        return {"answer": answer, "messages": [{"role": "assistant", "content": answer}]}

    builder = StateGraph(Turn)
    for name, node in (
        ("understand", understand),
        ("plan", plan),
        ("execute", execute),
        ("respond", respond),
    ):
        builder.add_node(name, node)
    builder.add_edge(START, "understand")
    builder.add_edge("understand", "plan")
    builder.add_edge("plan", "execute")
    builder.add_edge("execute", "respond")
    builder.add_edge("respond", END)
    graphs: list[Any] = []

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with (
            AsyncSqliteSaver.from_conn_string(db) as saver,
            aiohttp.ClientSession(base_url=domain_url) as session,
        ):
            http.append(session)
            graphs.append(builder.compile(checkpointer=saver))
            yield

    app = FastAPI(lifespan=lifespan)

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/runs")
    async def run(body: RunRequest, request: Request) -> JSONResponse:
        thread = request.headers.get("x-session-id") or body.session_id or "default"
        state = await graphs[0].ainvoke({"text": body.input_text}, {"configurable": {"thread_id": thread}})
        return JSONResponse({"status": "completed", "answer": state["answer"], "session_id": thread})

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("setup", help="create the LangGraph venv under bench/.work/")
    served = commands.add_parser("serve", help="serve the LangGraph turn (inside that venv)")
    served.add_argument("--port", type=int, required=True)
    served.add_argument("--domain-url", required=True)
    served.add_argument("--db", required=True, help="the checkpointer's SQLite file")
    args = parser.parse_args()
    if args.command == "setup":
        print(setup())
    else:
        serve(args.port, args.domain_url, args.db)


if __name__ == "__main__":
    main()
