"""The operator's business-rule hooks for every run, configured rather than coded into the core.

Two settings (docs/execution.md, "Hooks"), both read once at start-up:

* ``RUN_HOOKS=package.module:attribute`` names an :class:`execution.policy.Hooks` object in a
  module the gateway can import (``post_resolve_hook``, ``validation_fn``,
  ``transition_overrides``);
* ``RUN_TRANSITION_OVERRIDES_FILE`` is a JSON file holding a list of transition overrides
  (``when_status``, ``if`` — a JMESPath expression over the step —, ``goto``), added after the
  module's own.

A setting that cannot be honoured stops the start with a :class:`~shared.errors.SetupError` that
names it; ``python -m gateway.hooks`` checks the configuration without starting anything.
"""

from __future__ import annotations

import pkgutil
import sys
from pathlib import Path

from pydantic import TypeAdapter, ValidationError
from pydantic_settings import SettingsConfigDict

from execution.policy import Hooks, TransitionOverride
from shared.errors import SetupError
from shared.settings import ServiceSettings

_RULES = TypeAdapter(list[TransitionOverride])


class RunHooksSettings(ServiceSettings):
    """Where the run hooks come from (unset: no hooks)."""

    # an empty variable is an unset one (``RUN_TRANSITION_OVERRIDES_FILE=`` is no file named "")
    model_config = SettingsConfigDict(env_prefix="RUN_", extra="ignore", env_ignore_empty=True)

    #: ``package.module:attribute`` naming an ``execution.policy.Hooks`` object, imported once at
    #: start-up (the module must be importable by the gateway: installed, or on ``PYTHONPATH``).
    hooks: str | None = None
    #: A JSON file with a list of transition overrides, validated at start-up; they apply after
    #: the ``RUN_HOOKS`` object's own.
    transition_overrides_file: Path | None = None


def load_hooks(settings: RunHooksSettings) -> Hooks:
    """The configured hooks, or a ``SetupError`` naming the setting that is wrong."""
    hooks = _import_hooks(settings.hooks) if settings.hooks else Hooks()
    if settings.transition_overrides_file is not None:
        rules = load_transition_overrides(settings.transition_overrides_file)
        hooks = Hooks(
            post_resolve_hook=hooks.post_resolve_hook,
            validation_fn=hooks.validation_fn,
            transition_overrides=[*hooks.transition_overrides, *rules],
        )
    return hooks


def _import_hooks(name: str) -> Hooks:
    setting = f"RUN_HOOKS={name!r}"
    if ":" not in name:
        raise SetupError(f"{setting}: expected 'package.module:attribute'")
    try:
        found = pkgutil.resolve_name(name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise SetupError(f"{setting}: cannot import it: {type(exc).__name__}: {exc}") from None
    except Exception as exc:  # the operator's module failed while it was imported
        raise SetupError(f"{setting}: importing it raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(found, Hooks):
        raise SetupError(f"{setting}: is a {type(found).__name__}, not an execution.policy.Hooks")
    for rule in found.transition_overrides:
        if not isinstance(rule, TransitionOverride):
            raise SetupError(
                f"{setting}: transition_overrides holds a {type(rule).__name__}, not a TransitionOverride"
            )
    for hook in ("post_resolve_hook", "validation_fn"):
        value = getattr(found, hook)
        if value is not None and not callable(value):
            raise SetupError(f"{setting}: {hook} is a {type(value).__name__}, not a function")
    return found


def load_transition_overrides(path: Path) -> list[TransitionOverride]:
    """The rules of a JSON file; ``SetupError`` with the rule's index and field when one is wrong."""
    setting = f"RUN_TRANSITION_OVERRIDES_FILE={str(path)!r}"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SetupError(f"{setting}: cannot read it: {exc.strerror or exc}") from None
    try:
        return _RULES.validate_json(text)
    except ValidationError as exc:
        raise SetupError(f"{setting}: {_problems(exc)}") from None


def _problems(exc: ValidationError) -> str:
    """Each problem as ``[index].field: message`` (JSON syntax errors keep pydantic's words)."""
    lines = []
    for error in exc.errors(include_url=False):
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error["loc"])
        lines.append(f"{where or 'the file'}: {error['msg']}")
    return "; ".join(lines)


def describe(hooks: Hooks) -> list[str]:
    """What the hooks are, one line each, as ``python -m gateway.hooks`` prints them."""

    def name(hook: object) -> str:
        return (
            "-"
            if hook is None
            else f"{getattr(hook, '__module__', '?')}.{getattr(hook, '__qualname__', hook)}"
        )

    lines = [
        f"post_resolve_hook: {name(hooks.post_resolve_hook)}",
        f"validation_fn: {name(hooks.validation_fn)}",
    ]
    lines.append(f"transition_overrides: {len(hooks.transition_overrides)}")
    for rule in hooks.transition_overrides:
        condition = f" if {rule.condition}" if rule.condition else ""
        lines.append(f"  when {rule.when_status.value}{condition} goto {rule.goto.value}")
    return lines


def main() -> int:
    """Load the hooks as the gateway would and say what they are (exit 1 and why, if it cannot)."""
    try:
        hooks = load_hooks(RunHooksSettings())
    except SetupError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    print("\n".join(describe(hooks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
