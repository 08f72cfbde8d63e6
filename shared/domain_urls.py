"""Where a bootstrap domain lives: the one reader of ``DOMAIN_URL_<NAME>``, used by the registry and
by ``make run``'s launcher (which must not import the registry's clients to start the domains)."""

from __future__ import annotations

import os
from collections.abc import Mapping


def env_override(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """``DOMAIN_URL_<NAME>`` (upper case, ``-`` as ``_``) overrides a bootstrap base URL.

    >>> env_override("my-domain", {"DOMAIN_URL_MY_DOMAIN": "http://h:1"})
    'http://h:1'
    """
    return (os.environ if env is None else env).get(f"DOMAIN_URL_{name.upper().replace('-', '_')}")
