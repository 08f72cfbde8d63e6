"""Per-agent memory and event ids.

Every agent action is an *event* ``evt-0001``, ``evt-0002``, ... numbered per session by the
orchestrator's counter (``event_seq`` in the state, which survives resets so ids never repeat).
``agent_memory[role]`` keeps only the last ``memory_window`` events of that role; the complete
list of emitted events lives in the database (``research_events``).

>>> book = EventBook(0, {}, {"structurer": 2})
>>> for i in range(3):
...     _ = book.add("structurer", f"V{i + 1}", 10, 5, now="2026-01-01T00:00:00Z")
>>> [e["event_id"] for e in book.memory["structurer"]], book.seq
(['evt-0002', 'evt-0003'], 3)
>>> snapshot_json("s1", book.memory, "2026-01-01T00:00:00Z")["agents"]["structurer"][0]
{'event_id': 'evt-0002', 'summary': 'V2', 'tokens_total': 15}
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from shared.clock import utcnow


def utc_iso() -> str:
    return utcnow().isoformat(timespec="milliseconds").replace("+00:00", "Z")


def event_id(seq: int) -> str:
    return f"evt-{seq:04d}"


class _Keep(dict[str, Any]):
    """``format_map`` helper: unknown placeholders stay as written instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render_summary(template: str | None, default: str, fields: Mapping[str, Any]) -> str:
    """The agent's ``summary_template`` filled with ``fields`` (or ``default`` without a template)."""
    if not template:
        return default
    try:
        return string.Formatter().vformat(template, (), _Keep(fields))
    except (ValueError, IndexError):  # a malformed template never breaks a conversation
        return default


class EventBook:
    """Accumulates the events of one node call into a state delta (counter + windowed memory)."""

    def __init__(self, seq: int, memory: Mapping[str, Any], windows: Mapping[str, int]):
        self.seq = seq
        self.memory: dict[str, list[dict[str, Any]]] = {k: list(v) for k, v in memory.items()}
        self.windows = windows
        self.events: list[dict[str, Any]] = []

    def add(
        self,
        role: str,
        summary: str,
        tokens_input: int,
        tokens_output: int,
        *,
        now: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        self.seq += 1
        event = {
            "event_id": event_id(self.seq),
            "timestamp": now or utc_iso(),
            "summary": summary,
            "tokens_input": tokens_input,
            "tokens_output": tokens_output,
            "tokens_total": tokens_input + tokens_output,
        }
        window = max(1, int(self.windows.get(role, 5)))
        self.memory[role] = [*self.memory.get(role, []), event][-window:]
        self.events.append({**event, "role": role, **(extra or {})})
        return event

    def delta(self) -> dict[str, Any]:
        return {"event_seq": self.seq, "agent_memory": self.memory, "events": self.events}


def snapshot_json(session_id: str, memory: Mapping[str, Any], updated_at: str) -> dict[str, Any]:
    """The snapshot: ``{session_id, updated_at, agents: {role: [{event_id, summary,
    tokens_total}]}}``."""
    return {
        "session_id": session_id,
        "updated_at": updated_at,
        "agents": {
            role: [
                {"event_id": e["event_id"], "summary": e["summary"], "tokens_total": e["tokens_total"]}
                for e in events
            ]
            for role, events in memory.items()
        },
    }
