# Boundary Lab: two commands for a newcomer.
#   make lab    create .venv, install requirements.txt, open JupyterLab on the first lesson
#   make test   same set-up, then lint, types (mypy) and every test (unit, property, widgets, notebooks,
#               real browser)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# mitmproxy (the real-proxy tests) lives in a venv of its own: it pins an h11 older than the course's.
MITM_VENV := .venv-mitmproxy
MITM_STAMP := $(MITM_VENV)/.installed

.PHONY: lab test lint bench outputs exercises workshop venv mitmproxy clean-venv

# nbval re-runs every notebook in the current environment and compares its outputs with the stored ones.
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

venv: $(STAMP)

# Re-install only when requirements.txt or pyproject.toml changed since the last install.
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	# lesson_lib is importable from this checkout (notebooks, tests, kernels) through a .pth file.
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'boundary_lab.pth').write_text(str(pathlib.Path.cwd()) + '\\n')"
	touch $(STAMP)

mitmproxy: $(MITM_STAMP)

$(MITM_STAMP): requirements-mitmproxy.txt
	test -x $(MITM_VENV)/bin/python || $(PYTHON) -m venv $(MITM_VENV)
	$(MITM_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MITM_VENV)/bin/python -m pip install --quiet -r requirements-mitmproxy.txt
	touch $(MITM_STAMP)

# tools/lab.py trusts the course's notebooks (so their stored widgets draw on open), takes JupyterLab's
# settings from tools/lab_config/ (no news pop-up, no update check), then starts JupyterLab on lesson 00.
lab: $(STAMP) $(MITM_STAMP)
	$(BIN)/python tools/lab.py

test: $(STAMP) $(MITM_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m pytest -n 2 --dist loadfile $(NBVAL) tests notebooks

lint: $(STAMP)
	$(BIN)/ruff check .

# Re-execute every notebook in a fresh kernel and store its outputs (and widget state).
outputs: $(STAMP) $(MITM_STAMP)
	$(BIN)/python tools/run_notebooks.py

# Generate the learner copies of the exercises from the solution notebooks, then execute them.
exercises: $(STAMP)
	$(BIN)/python tools/make_exercises.py

# Serve the widget lessons as code-free apps (Voila) on 127.0.0.1, for a projector.
workshop: $(STAMP)
	$(BIN)/python tools/workshop.py

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean-venv:
	rm -rf $(VENV) $(MITM_VENV)

# The wheelhouse (issue 28, offline): every wheel requirements.txt and requirements-mitmproxy.txt pin, the
# course's own wheel and, when $(WHEELHOUSE_NPM)/package.json exists, an npm cache of its lock, in one
# git-ignored folder with a manifest (sha256) and README.txt saying how to install with no network
# (tools/wheelhouse.py; tests/test_wheelhouse.py installs from it inside `unshare -n`).
WHEELHOUSE ?= wheelhouse
WHEELHOUSE_NPM ?= hub
.PHONY: wheelhouse
wheelhouse: $(STAMP)
	$(BIN)/python tools/wheelhouse.py --out $(WHEELHOUSE) --npm $(WHEELHOUSE_NPM)

# The classroom hub (issue 28): `make hub LEARNERS=3` or `LEARNERS=alice,bob` [PORT=8000] [HUB_ROOT=...]
# [PROGRESS=1: the learners' progress records on], as root. tools/hub.py checks the arguments first (before
# anything is written), then npm ci installs the pinned configurable-http-proxy in hub/, then tools/hub.py
# makes the hub root, one OS account per learner and runs JupyterHub until Ctrl-C (docs/instructor.md, "A
# classroom hub").
LEARNERS ?=
PORT ?= 0
HUB_ROOT ?= /srv/boundary-lab-hub
PROGRESS ?=
HUB_OPTIONS = --learners "$(LEARNERS)" --port "$(PORT)" --root "$(HUB_ROOT)" $(if $(PROGRESS),--progress)
.PHONY: hub
hub: $(STAMP)
	$(BIN)/python tools/hub.py --check $(HUB_OPTIONS)
	cd hub && npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python tools/hub.py $(HUB_OPTIONS)
