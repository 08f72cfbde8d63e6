"""Planning benchmark: what conditions, selections and the LLM planner cost on the gateway's side
(the model's own time excluded), each measured side by side with its reference in one run.

Run (from the repository root)::

    .venv/bin/python bench/planning_bench.py [--output PATH]   # writes bench/results/planning.md

Measures, medians of interleaved batches (the machine is shared and noisy: compare the columns
of one run):

(a) resolving a step's parameters: a literal, a ``${1.result.price}`` reference, a ``${= ...}``
    selection (a path, and ``max_by`` over two outputs), and a ``when`` condition;
(b) validating a plan before it runs (``shared.plan_graph.validate_plan``): the deterministic
    four-step fan-out vs an LLM plan of the same size with a condition and selections;
(c) the LLM planner's local work per plan over the shipped domains' catalog: the prompt (catalog
    in the person's language) and reading a proposal (schema, catalog, parameter schemas, graph);
(d) the question asked on every turn when the planner is configured (``fallback``): does this
    request need the LLM? (a plain request, no model call).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domains.finance.service import build_service
from domains.notifier.service import build as build_notifier
from domains.research.service import build as build_research
from execution.expressions import compile_expression, evaluate, truthy
from execution.references import resolve
from planner.llm import LlmPlanner, PlannerLlmSettings, PlanRequest
from planner.llm.catalog_view import catalog_json
from planner.llm.texts import texts
from planner.llm.validation import read_proposal
from shared.catalog import Catalog
from shared.models import DomainOutput, ExecutionIntent, ExecutionPlan, ExecutionStep, IntentOutput
from shared.plan_graph import validate_plan

BATCHES = 31


def per_call_us(fn: Callable[[], Any], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def side_by_side(cases: dict[str, tuple[Callable[[], Any], int]]) -> dict[str, float]:
    """Median µs per call of each case, the cases interleaved batch by batch."""
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(BATCHES):
        for name, (fn, calls) in cases.items():
            samples[name].append(per_call_us(fn, calls))
    return {name: statistics.median(values) for name, values in samples.items()}


def quote(name: str, change: float) -> DomainOutput:
    return DomainOutput(
        status="success", result={"name": name, "price": 30.0, "change_pct": change}, explanation=name
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", type=Path, default=Path("bench/results/planning.md"))
    args = parser.parse_args()
    started = time.perf_counter()

    outputs = {1: quote("Petrobras", 1.9), 2: quote("Vale", 2.6)}
    best = "max_by([step1.result, step2.result], &change_pct).name"
    condition = compile_expression("step1.result.price < `200`")
    resolving = side_by_side(
        {
            "literal": (lambda: resolve({"symbol_text": "Vale"}, outputs), 20000),
            "${1.result.price}": (lambda: resolve({"p": "${1.result.price}"}, outputs), 20000),
            "${= step1.result.price}": (lambda: resolve({"p": "${= step1.result.price}"}, outputs), 5000),
            f"${{= {best}}}": (lambda: resolve({"m": f"${{= {best}}}"}, outputs), 5000),
            "when: step1.result.price < 200": (lambda: truthy(evaluate(condition, outputs)), 5000),
        }
    )

    fan_out = ExecutionPlan(
        steps=[
            ExecutionStep(id=i, domain="finance", capability="get_stock_price", params={"symbol_text": s})
            for i, s in enumerate(["Petrobras", "Vale", "Itaú", "WEG"], start=1)
        ]
    )
    llm_plan = ExecutionPlan(
        steps=[
            ExecutionStep(
                id=1, domain="finance", capability="get_stock_price", params={"symbol_text": "Petrobras"}
            ),
            ExecutionStep(
                id=2, domain="finance", capability="get_stock_price", params={"symbol_text": "Vale"}
            ),
            ExecutionStep(
                id=3,
                domain="finance",
                capability="get_stock_price",
                params={"symbol_text": "Apple"},
                when="step1.result.change_pct > `0`",
            ),
            ExecutionStep(
                id=4,
                domain="notifier",
                capability="send_telegram_message",
                params={"message": f"Subiu mais: ${{= {best}}} e ${{3.explanation}}"},
            ),
        ]
    )
    validating = side_by_side(
        {
            "deterministic fan-out (4 steps)": (lambda: validate_plan(fan_out), 5000),
            "LLM plan (4 steps, a condition, a selection)": (lambda: validate_plan(llm_plan), 5000),
        }
    )

    catalog = Catalog(
        [build_service().manifest(), build_notifier().service.manifest(), build_research().service.manifest()]
    )
    tool = texts("pt").tool
    proposal = {
        "steps": [s.model_dump(exclude_defaults=True) for s in llm_plan.steps],
        "combine_mode": "report",
    }
    assert read_proposal(proposal, catalog, tool["parameters"], max_steps=12).plan is not None
    prompt = catalog_json(catalog, "pt")
    local = side_by_side(
        {
            "prompt: the catalog as JSON": (lambda: catalog_json(catalog, "pt"), 200),
            "reading a proposal (4 steps)": (
                lambda: read_proposal(proposal, catalog, tool["parameters"], max_steps=12),
                200,
            ),
        }
    )

    settings = PlannerLlmSettings(
        planner_llm="fallback", planner_llm_base_url="http://127.0.0.1:9/v1", planner_llm_model="m"
    )
    planner = LlmPlanner(settings, lambda: catalog)
    intent = IntentOutput(primary_domain="finance", goal="GET_QUOTE", language="pt")
    execution_intent = ExecutionIntent(domain="finance", capability="get_stock_price")
    plain = PlanRequest("qual a cotação da Petrobras?", "pt", intent, execution_intent, fan_out)
    marked = PlanRequest("se a Apple cair, me mostra a Microsoft", "pt", intent, execution_intent, fan_out)
    assert planner.reason_to_plan(plain) is None and planner.reason_to_plan(marked) is not None
    deciding = side_by_side(
        {
            "plain request (no LLM)": (lambda: planner.reason_to_plan(plain), 2000),
            "request with a condition word (LLM)": (lambda: planner.reason_to_plan(marked), 2000),
        }
    )
    elapsed = time.perf_counter() - started

    def table(title: str, rows: dict[str, float], reference: str, unit: str = "µs") -> list[str]:
        scale = 1000.0 if unit == "ms" else 1.0
        lines = [f"## {title}", "", f"| case | median / call | ratio to {reference} |", "|---|---|---|"]
        for name, value in rows.items():
            shown = name.replace("|", "\\|")
            lines.append(f"| `{shown}` | {value / scale:,.2f} {unit} | {value / rows[reference]:.1f}× |")
        return [*lines, ""]

    report = [
        "# Planning benchmark",
        "",
        "Command: `.venv/bin/python bench/planning_bench.py` (writes this file).",
        "",
        f"Machine: {platform.platform()}, Python {platform.python_version()}. "
        f"Medians of {BATCHES} interleaved batches; total bench time {elapsed:.0f} s. The model's own "
        "time is not in these numbers (it is the endpoint's: seconds for a local 7B model).",
        "",
        *table("(a) Resolving a step's parameters", resolving, "${1.result.price}"),
        "JMESPath expressions are compiled once per text (an LRU cache) and evaluated over the "
        "outputs as one document; the selection's extra cost is building that document (each "
        "output dumped to JSON) and the evaluation.",
        "",
        *table("(b) Validating a plan before it runs", validating, "deterministic fan-out (4 steps)"),
        *table("(c) The LLM planner's local work per plan", local, "reading a proposal (4 steps)", "ms"),
        f"Prompt size: the catalog of the shipped finance, notifier and research domains is "
        f"{len(prompt):,} characters of JSON (about {len(prompt) // 4:,} tokens), the system prompt "
        f"around it {len(texts('pt').system.template):,} characters more.",
        "",
        *table(
            "(d) Does this request need the LLM? (every turn, PLANNER_LLM=fallback)",
            deciding,
            "plain request (no LLM)",
        ),
        "With `PLANNER_LLM=off` (the default) the turn makes one `isinstance` check and nothing else.",
        "",
    ]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(report), encoding="utf-8")
    print("\n".join(report))


if __name__ == "__main__":
    main()
