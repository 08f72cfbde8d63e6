"""The command line and the environment it defaults from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cli.options import default_url, history_path, language_from, parse_options
from tests.conftest import ROOT


def test_options_are_accepted_after_the_subcommand_as_well_as_before() -> None:
    after = parse_options(["chat", "--session", "s1", "--url", "http://gw:1", "--api-key", "k"], {})
    before = parse_options(["--session", "s1", "--url", "http://gw:1", "--api-key", "k", "chat"], {})
    assert after == before
    assert (after.command, after.session, after.url, after.api_key) == ("chat", "s1", "http://gw:1", "k")


def test_an_option_before_the_subcommand_is_not_reset_by_its_absence_after_it() -> None:
    options = parse_options(["--session", "kept", "chat", "--lang", "pt"], {})
    assert (options.session, options.language) == ("kept", "pt")


def test_chat_is_the_default_command_and_ask_takes_its_text() -> None:
    assert parse_options([], {}).command == "chat"
    ask = parse_options(["ask", "qual o preço da Vale?", "--session", "s2"], {})
    assert (ask.command, ask.text, ask.session) == ("ask", "qual o preço da Vale?", "s2")


def test_the_default_url_is_the_gateways_own_port_and_host() -> None:
    assert parse_options([], {"GATEWAY_PORT": "8123"}).url == "http://127.0.0.1:8123"
    assert parse_options([], {"GATEWAY_HOST": "10.1.2.3", "GATEWAY_PORT": "81"}).url == "http://10.1.2.3:81"
    assert default_url({"GATEWAY_HOST": "::1"}) == "http://[::1]:8000"
    assert default_url({}) == "http://127.0.0.1:8000"


def test_orchestrator_url_wins_over_the_gateway_address_and_the_flag_over_both() -> None:
    env = {"ORCHESTRATOR_URL": "http://env:9/", "GATEWAY_PORT": "8123"}
    assert parse_options([], env).url == "http://env:9"
    assert parse_options(["chat", "--url", "http://flag:7"], env).url == "http://flag:7"


def test_the_api_key_comes_from_the_flag_else_orchestrator_api_key() -> None:
    env = {"ORCHESTRATOR_API_KEY": "from-env"}
    assert parse_options([], env).api_key == "from-env"
    assert parse_options(["chat", "--api-key", "from-flag"], env).api_key == "from-flag"
    assert parse_options([], {}).api_key is None


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({"LANG": "pt_BR.UTF-8"}, "pt"),
        ({"LANG": "pt_PT"}, "pt"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "pt_BR.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "pt_BR"}, "pt"),
        ({}, "en"),
    ],
)
def test_the_language_follows_the_locale(env: dict[str, str], language: str) -> None:
    assert language_from(env) == language
    assert parse_options([], env).language == language


def test_lang_overrides_the_locale() -> None:
    assert parse_options(["chat", "--lang", "en"], {"LANG": "pt_BR.UTF-8"}).language == "en"


def test_the_history_lives_in_the_state_dir_unless_told_otherwise(tmp_path: Path) -> None:
    assert history_path({"ORCHESTRATOR_HISTORY_FILE": str(tmp_path / "h")}) == tmp_path / "h"
    assert history_path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "orchestrator" / "history"
    assert history_path({}) == Path.home() / ".local" / "state" / "orchestrator" / "history"


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_options(["chat", "--lang", "fr"], {})
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_help_names_every_option_and_environment_variable() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "cli", "chat", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    for name in (
        "--url",
        "--session",
        "--api-key",
        "--lang",
        "ORCHESTRATOR_URL",
        "ORCHESTRATOR_API_KEY",
        "GATEWAY_HOST",
        "GATEWAY_PORT",
        "ORCHESTRATOR_HISTORY_FILE",
        "/history",
    ):
        assert name in shown
