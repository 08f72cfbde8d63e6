"""Agent YAML validation: Portuguese messages naming the file and the field; a bad file stops the
app build (and so the service) before it serves."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from domains.research.config import AgentConfigError, load_agents
from domains.research.service import build
from tests.conftest import ROOT, free_port
from tests.domains.research.conftest import copy_agents, research_settings


def _edit(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    new = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    assert new != text, f"{pattern!r} not found in {path}"
    path.write_text(new, encoding="utf-8")


def test_the_shipped_agent_files_are_valid() -> None:
    configs = load_agents()
    assert set(configs) == {"orchestrator", "structurer", "methodologist"}
    for role, config in configs.items():
        assert config.role == role
        assert config.memory_window >= 1
        assert config.prompt.strip()


def test_memory_window_below_one_stops_the_build(tmp_path: Path) -> None:
    agents = copy_agents(tmp_path)
    _edit(agents / "methodologist.yaml", r"^memory_window: \d+", "memory_window: 0")
    with pytest.raises(AgentConfigError) as info:
        build(research_settings(tmp_path, research_agents_dir=agents))
    assert info.value.problems == [f"{agents / 'methodologist.yaml'}: campo 'memory_window' deve ser >= 1"]


def test_every_problem_of_every_file_is_reported(tmp_path: Path) -> None:
    agents = copy_agents(tmp_path)
    _edit(agents / "structurer.yaml", r"^model: .*\n", "")
    _edit(agents / "structurer.yaml", r"^temperature: .*", "temperature: quente")
    _edit(agents / "orchestrator.yaml", r"^tools:", "ferramentas:")
    with pytest.raises(AgentConfigError) as info:
        load_agents(agents)
    problems = info.value.problems
    orchestrator, structurer = str(agents / "orchestrator.yaml"), str(agents / "structurer.yaml")
    assert f"{orchestrator}: campo 'tools' é obrigatório e está ausente" in problems
    assert any(
        p.startswith(f"{orchestrator}: campo 'ferramentas' não é um campo conhecido") for p in problems
    )
    assert f"{structurer}: campo 'model' é obrigatório e está ausente" in problems
    assert f"{structurer}: campo 'temperature' deve ser um número" in problems
    assert "configuração de agentes inválida" in str(info.value)


def test_missing_file_wrong_role_and_bad_yaml(tmp_path: Path) -> None:
    agents = copy_agents(tmp_path)
    (agents / "orchestrator.yaml").unlink()
    _edit(agents / "structurer.yaml", r"^role: structurer", "role: methodologist")
    (agents / "methodologist.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(AgentConfigError) as info:
        load_agents(agents)
    problems = info.value.problems
    assert problems[0] == f"{agents / 'orchestrator.yaml'}: arquivo não encontrado"
    assert problems[1].startswith(f"{agents / 'structurer.yaml'}: campo 'role' deve ser 'structurer'")
    assert problems[2].startswith(f"{agents / 'methodologist.yaml'}: YAML inválido")


def test_relative_paths_are_shown_as_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agents = copy_agents(tmp_path)
    _edit(agents / "methodologist.yaml", r"^memory_window: \d+", "memory_window: 0")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AgentConfigError) as info:
        load_agents(Path("agents"))
    assert info.value.problems == ["agents/methodologist.yaml: campo 'memory_window' deve ser >= 1"]


@pytest.mark.integration
def test_the_process_exits_before_serving_with_a_bad_file(tmp_path: Path) -> None:
    agents = copy_agents(tmp_path)
    _edit(agents / "methodologist.yaml", r"^memory_window: \d+", "memory_window: 0")
    env = {
        "RESEARCH_AGENTS_DIR": str(agents),
        "RESEARCH_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'r.sqlite3'}",
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "domains.research", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "campo 'memory_window' deve ser >= 1" in proc.stderr
    assert "methodologist.yaml" in proc.stderr
