"""The local admin key ``make run`` gives the gateway, so ``POST /v1/domains`` works without a
restart: made once, kept in ``var/admin.key`` readable by its owner alone, reused after.

Only the launcher uses it; a published deployment (docker-compose.yml) sets its own keys.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

DEFAULT_PATH = Path("var/admin.key")
#: Owner read/write only: the key is a password.
MODE = 0o600


class AdminKeyUnsafe(RuntimeError):
    """The key file exists but cannot be trusted (not a regular file, or empty)."""


def ensure_admin_key(path: Path = DEFAULT_PATH) -> str:
    """The key stored at ``path``; a new random one written there (mode 0600) when there is none.
    A file others could read is narrowed to 0600 before it is used."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: two launchers at once never overwrite each other's key
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, MODE)
    except FileExistsError:
        return _read(path)
    key = "adm_" + secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key + "\n")
    return key


def _read(path: Path) -> str:
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode):
        raise AdminKeyUnsafe(f"{path} is not a regular file; remove it and start again")
    if stat.S_IMODE(info.st_mode) & 0o077:
        path.chmod(MODE)
    key = path.read_text(encoding="ascii").strip()
    if not key:
        raise AdminKeyUnsafe(f"{path} is empty; remove it and start again")
    return key
