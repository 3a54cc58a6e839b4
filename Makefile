# Two entry points for a fresh machine: `make sample` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup sample test lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## Full refresh on the bundled sample (no network) and print the headline table.
sample: $(STAMP)
	$(BIN)/rltrack refresh --sample

## The test suite (what CI runs).
test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf data dbt_project/target dbt_project/logs
