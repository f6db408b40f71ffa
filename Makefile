# The two commands a newcomer needs: `make run` and `make test`. Each installs what it needs:
# `make run` the site's own dependencies only, `make test` the test toolchain as well.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
# Development values for the local commands; production sets its own environment. The site's
# address (links in emails, feeds and the sitemap) follows the port `make run` serves on.
DEV := DEBUG=$${DEBUG:-true} SITE_DOMAIN=$${SITE_DOMAIN:-$(HOST):$(PORT)}

# A Python 3.12+: python3.13/python3.12 on PATH, else pyenv's installed versions.
PYTHON ?= $(shell for p in python3.13 python3.12; do \
	  command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null && { command -v $$p; exit 0; }; done; \
	for d in $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]* 2>/dev/null | sort -rV); do \
	  [ -x $$d/bin/python ] && { echo $$d/bin/python; exit 0; }; done)

.PHONY: run test test-fast setup migrate catalog maintainer lint typecheck format bench clean backup restore loadtest

$(PY):
	@if [ -z "$(PYTHON)" ]; then echo "No Python 3.12+ found: install python3.12 or 3.13 (e.g. 'pyenv install 3.13') and retry." >&2; exit 1; fi
	@echo "Creating $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)

# Two installs: what the site needs to run (`make run`), and on top of it the test toolchain
# (dev extras: pytest, Playwright, mypy, locust…, and the HTML validator) for `make test`.
# Quiet and without pip's self-update check: a first run prints only what matters.
PIP := PIP_DISABLE_PIP_VERSION_CHECK=1 $(PY) -m pip install --quiet
$(RUN_STAMP): pyproject.toml | $(PY)
	$(PIP) -e .
	@touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml | $(PY)
	$(PIP) -e '.[dev]'
	@touch $(DEV_STAMP) $(RUN_STAMP)

# The HTML validator (vnu) the tests run with the system Java; a pinned npm package in .tools/
# (not in git: this rule installs it into a fresh clone).
VNU_VERSION := 26.9.27
VNU_STAMP := .tools/.vnu-$(VNU_VERSION)

$(VNU_STAMP):
	@if command -v npm >/dev/null 2>&1; then \
	  mkdir -p .tools && \
	  npm install --no-save --no-audit --no-fund --prefix .tools vnu-jar@$(VNU_VERSION) >/dev/null && touch $(VNU_STAMP); \
	else echo "npm not found: the HTML validation tests will be skipped." >&2; fi

# Everything `make test` needs (kept for those used to it).
setup: $(DEV_STAMP) $(VNU_STAMP)

migrate: $(RUN_STAMP)
	$(DEV) $(PY) manage.py migrate --noinput

catalog: migrate
	$(DEV) $(PY) manage.py load_catalog

run: catalog
	$(DEV) $(PY) manage.py runserver $(HOST):$(PORT)

# The suite runs on every core (pytest-xdist); TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(DEV) $(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The inner loop: everything but the browser tests and the tests marked slow (real servers,
# the relevance audits, backups), which `make test` and CI still run.
test-fast: setup
	$(PY) -m pytest -n $(TEST_WORKERS) -m "not slow and not e2e" $(PYTEST_ARGS)

# Not after `migrate`: a migrate rewrites the site's address from SITE_DOMAIN, which here would be
# this shell's default rather than the address `make run` serves on. The command applies only
# migrations that are pending.
maintainer: $(RUN_STAMP)
	@if [ -z "$(EMAIL)" ]; then echo "Usage: make maintainer EMAIL=you@example.com" >&2; exit 1; fi
	$(DEV) $(PY) manage.py create_maintainer "$(EMAIL)"

# Production: whole-database backup and restore (catalog and readers' data), and the load test.
# A deployment's .env decides (the site's address a restore's migrate writes, the database);
# the development values apply only where there is none.
OPS_ENV := $(if $(wildcard .env),,$(DEV))
backup: $(RUN_STAMP)
	$(OPS_ENV) $(PY) manage.py backup $(if $(FILE),--output "$(FILE)")

restore: $(RUN_STAMP)
	@if [ -z "$(FILE)" ]; then echo "Usage: make restore FILE=readinglist-backup-….json.gz [FORCE=1]" >&2; exit 1; fi
	$(OPS_ENV) $(PY) manage.py restore "$(FILE)" $(if $(FORCE),--force)

# Needs PostgreSQL for figures worth quoting: DATABASE_URL=postgres://… make loadtest
# (it uses Redis at REDIS_URL or 127.0.0.1:6379 when one answers; LOADTEST_ARGS="--cache database")
loadtest: $(DEV_STAMP) migrate
	$(DEV) $(PY) manage.py loadtest $(LOADTEST_ARGS)

lint: $(DEV_STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

# The type check alone: mypy with django-stubs over the files [tool.mypy] in pyproject.toml lists.
typecheck: $(DEV_STAMP)
	$(PY) -m mypy

format: $(DEV_STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# Search benchmark: 100,000 synthetic sources in a separate database (readinglist_bench on the
# same server), never the one DATABASE_URL names. ARGS="--runs 3 --rebuild" to vary it. Then
# "For you" at 10,000 sources (readinglist_bench_foryou); FORYOU_ARGS="--runs 50" to vary it.
# Then goal drafts judged on the shipped catalog (readinglist_bench_paths) and their times, and a
# Markdown import's; PATHS_ARGS="--runs 5" to vary it.
BENCH_DATABASE_URL ?= $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/readinglist)
bench: $(RUN_STAMP)
	DEBUG=true DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench_search $(ARGS)
	# The relevance figures on SQLite too (an in-memory database of the shipped catalog).
	DEBUG=true DATABASE_URL=sqlite:///:memory: $(PY) manage.py bench_search --relevance only
	DEBUG=true DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench_foryou $(FORYOU_ARGS)
	DEBUG=true DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench_paths $(PATHS_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .tools
