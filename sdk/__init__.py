"""The domain SDK: declare capabilities and goals in Python, get ``/health``, ``/manifest`` and
``/execute`` for free (:mod:`sdk.service`)."""

from sdk.service import DomainService, clarify, fail, option, serve

__all__ = ["DomainService", "clarify", "fail", "option", "serve"]
