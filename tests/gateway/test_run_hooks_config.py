"""Loading the operator's run hooks (gateway.hooks): RUN_HOOKS and RUN_TRANSITION_OVERRIDES_FILE,
and the start-up error that names the setting when one is wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from execution.policy import Hooks
from gateway.hooks import RunHooksSettings, load_hooks, load_transition_overrides, main
from shared.errors import SetupError
from shared.status import RunStatus
from tests.fixtures import run_hooks

FIXTURE = "tests.fixtures.run_hooks"


def overrides_file(tmp_path: Path, rules: object) -> Path:
    path = tmp_path / "overrides.json"
    path.write_text(json.dumps(rules))
    return path


def setup_error(settings: RunHooksSettings) -> str:
    with pytest.raises(SetupError) as caught:
        load_hooks(settings)
    return caught.value.message


def test_nothing_configured_means_no_hooks() -> None:
    hooks = load_hooks(RunHooksSettings(hooks=None, transition_overrides_file=None))
    assert hooks == Hooks()


def test_the_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = overrides_file(tmp_path, [])
    monkeypatch.setenv("RUN_HOOKS", f"{FIXTURE}:hooks")
    monkeypatch.setenv("RUN_TRANSITION_OVERRIDES_FILE", str(path))
    settings = RunHooksSettings()
    assert settings.hooks == f"{FIXTURE}:hooks" and settings.transition_overrides_file == path


def test_empty_variables_are_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUN_HOOKS", "")
    monkeypatch.setenv("RUN_TRANSITION_OVERRIDES_FILE", "")
    assert load_hooks(RunHooksSettings()) == Hooks()


def test_run_hooks_names_a_hooks_object_and_the_file_adds_its_rules_after_the_modules(tmp_path: Path) -> None:
    path = overrides_file(
        tmp_path,
        [{"when_status": "failed", "if": "output.failure.reason == 'symbol_not_found'", "goto": "failed"}],
    )
    hooks = load_hooks(RunHooksSettings(hooks=f"{FIXTURE}:hooks", transition_overrides_file=path))
    assert hooks.validation_fn is run_hooks.withhold_one_ticker
    assert [r.condition for r in hooks.transition_overrides] == [
        "output.failure.reason == 'market_closed'",
        "output.failure.reason == 'symbol_not_found'",
    ]
    assert hooks.transition_overrides[1].goto is RunStatus.FAILED
    assert run_hooks.hooks.transition_overrides[1:] == []  # the module's object is left as it was


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (f"{FIXTURE}.hooks", "expected 'package.module:attribute'"),
        (
            "mycompany_missing.hooks:hooks",
            "cannot import it: ModuleNotFoundError: No module named 'mycompany_missing'",
        ),
        (f"{FIXTURE}:nothing_here", "cannot import it: AttributeError"),
        (f"{FIXTURE}:not_hooks", "is a function, not an execution.policy.Hooks"),
    ],
)
def test_a_wrong_run_hooks_is_a_setup_error_naming_it(name: str, words: str) -> None:
    message = setup_error(RunHooksSettings(hooks=name))
    assert message.startswith(f"RUN_HOOKS={name!r}: ") and words in message, message


def test_a_hooks_module_that_fails_on_import_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_hooks.py").write_text("raise RuntimeError('no database for the rules')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    message = setup_error(RunHooksSettings(hooks="broken_hooks:hooks"))
    assert (
        message
        == "RUN_HOOKS='broken_hooks:hooks': importing it raised RuntimeError: no database for the rules"
    )
    sys.modules.pop("broken_hooks", None)


def test_hooks_whose_members_have_the_wrong_type_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "odd_hooks.py").write_text(
        "from execution.policy import Hooks\n"
        "not_callable = Hooks(validation_fn='yes')\n"
        "raw_rules = Hooks(transition_overrides=[{'when_status': 'failed', 'goto': 'failed'}])\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "validation_fn is a str, not a function" in setup_error(
        RunHooksSettings(hooks="odd_hooks:not_callable")
    )
    assert "transition_overrides holds a dict, not a TransitionOverride" in setup_error(
        RunHooksSettings(hooks="odd_hooks:raw_rules")
    )
    sys.modules.pop("odd_hooks", None)


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (
            [{"when_status": "failed", "if": "output.(", "goto": "failed"}],
            "[0].if: Value error, invalid expression",
        ),
        (
            [{"when_status": "failed", "goto": "failed"}, {"when_status": "failed", "goto": "later"}],
            "[1].goto: Input should be ",
        ),
        (
            [{"when_status": "failed", "goto": "failed", "unless": "x"}],
            "[0].unless: Extra inputs are not permitted",
        ),
        ([{"goto": "failed"}], "[0].when_status: Field required"),
        ({"when_status": "failed"}, "the file: Input should be a valid array"),
    ],
)
def test_a_wrong_rule_is_named_by_its_index_and_field(tmp_path: Path, rules: object, words: str) -> None:
    path = overrides_file(tmp_path, rules)
    message = setup_error(RunHooksSettings(transition_overrides_file=path))
    assert message.startswith(f"RUN_TRANSITION_OVERRIDES_FILE={str(path)!r}: ") and words in message, message


def test_an_unreadable_or_malformed_file_is_a_setup_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(SetupError, match=r"RUN_TRANSITION_OVERRIDES_FILE=.*nowhere\.json.*cannot read it"):
        load_transition_overrides(missing)
    broken = tmp_path / "broken.json"
    broken.write_text('[{"when_status": "failed",')
    with pytest.raises(SetupError, match=r"broken\.json.*Invalid JSON"):
        load_transition_overrides(broken)


def test_the_check_command_prints_the_hooks_or_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RUN_HOOKS", f"{FIXTURE}:hooks")
    monkeypatch.setenv("RUN_TRANSITION_OVERRIDES_FILE", str(overrides_file(tmp_path, [])))
    assert main() == 0
    out = capsys.readouterr().out
    assert "validation_fn: tests.fixtures.run_hooks.withhold_one_ticker" in out
    assert "when failed if output.failure.reason == 'market_closed' goto failed" in out
    monkeypatch.setenv("RUN_HOOKS", f"{FIXTURE}:not_hooks")
    assert main() == 1
    assert capsys.readouterr().err.startswith("error: RUN_HOOKS=")
