# One venv, installed from pyproject.toml; every target works on a fresh machine.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run migrate test lint schemas typecheck unit bench bench-gateway bench-graph bench-intent bench-load compose-check clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@# the shipped catalog's intent model into var/intent-cache: the first `make run` loads it
	$(BIN)/python -m cli.pretrain || echo "warning: no pretrained intent model; the gateway trains it at start"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python -m gateway.storage.migrate

## Start every domain of domains.bootstrap.json and the gateway on 127.0.0.1:$${GATEWAY_PORT:-8000}
## (the gateway migrates the database itself); prints where it is once /ready passes.
run: install
	$(BIN)/python -m cli.launcher

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m shared.schemas --check

## Rewrite the published JSON Schemas (shared/schemas/*.json) from the pydantic models.
schemas: install
	$(BIN)/python -m shared.schemas

typecheck: install
	$(BIN)/mypy shared sdk graph cli gateway intent planner dialogue execution orchestrator domains tests bench

unit: install
	$(BIN)/pytest -q

## The test command: lint, types, then the whole suite (unit + real-process integration).
test: lint typecheck unit

bench: bench-gateway bench-graph bench-intent

bench-gateway: install
	$(BIN)/python bench/gateway_overhead.py

bench-graph: install
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python bench/graph_bench.py

bench-intent: install
	$(BIN)/python bench/intent_eval.py --train ../shared/datasets/clinc150/data_full_train_val.json \
		--eval ../shared/datasets/clinc150/data_full_train_val.json --split val

## Requests/s and p50/p99 at 1/8/32/64 clients: thin hop, one gateway, nginx -> 1 and 3 gateways
## (PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379 and nginx needed; a few minutes).
bench-load: install
	$(BIN)/python bench/load.py

## API_KEYS is mandatory in the compose file (it publishes the gateway): a placeholder to validate it.
compose-check:
	API_KEYS=$${API_KEYS:-compose-check} docker-compose -f docker-compose.yml config -q

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
