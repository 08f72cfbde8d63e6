"""The start-up phases the gateway process reports to the launcher, one JSON line each, on the
file descriptor named by :data:`PROGRESS_FD_ENV` (a pipe the launcher reads)."""

from __future__ import annotations

import json
from dataclasses import dataclass

PROGRESS_FD_ENV = "LAUNCHER_PROGRESS_FD"


@dataclass(frozen=True)
class ProgressEvent:
    """One start-up phase the gateway reached, as the launcher reads it from the pipe."""

    phase: str
    #: the log record's arguments, as text (the catalog id, a count of goals, seconds)
    args: tuple[str, ...] = ()

    def to_line(self) -> str:
        return json.dumps({"phase": self.phase, "args": list(self.args)}) + "\n"

    @classmethod
    def from_line(cls, line: str) -> ProgressEvent | None:
        """The event a line holds; ``None`` for a line that is not one."""
        try:
            data = json.loads(line)
        except ValueError:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("phase"), str):
            return None
        return cls(data["phase"], tuple(str(arg) for arg in data.get("args") or ()))
