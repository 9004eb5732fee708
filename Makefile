# The front door: `make run` serves the embedded default with demo data, `make test` runs the suite.
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV ?= .venv
BIN := $(VENV)/bin
PYTHON := $(BIN)/python
MANAGE := $(PYTHON) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# Test processes (pytest-xdist): one more than the cores, since the browser tests spend
# much of their time waiting on a page. Tests that start servers of their own run on one
# of them, in turn (the "servers" group); WORKERS=0 runs everything in this process.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# Coverage of the service (floor in pyproject.toml); COVERAGE= leaves it out.
COVERAGE ?= --cov --cov-report=term

.PHONY: help venv install run test lint typecheck check migrations-check deploy-check \
        worker beat bench messages compilemessages hadolint clean

help:
	@echo "make run       set up and run the service with demo data at http://$(HOST):$(PORT)"
	@echo "make test      set up and run the test suite"
	@echo "make check     lint, types, import layering, migrations check, deploy check, tests"
	@echo "make worker    a Celery worker (needs REDIS_URL)"
	@echo "make beat      the Celery beat scheduler (needs REDIS_URL)"
	@echo "make bench     the benchmarks under bench/"

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@PY=$$(scripts/find-python) || exit 1; \
	  if [ ! -x $(PYTHON) ]; then echo "creating $(VENV) with $$PY"; $$PY -m venv $(VENV); fi
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -r requirements-dev.txt
	@touch $@

venv install: $(VENV)/.installed

run: $(VENV)/.installed
	DJANGO_SETTINGS_MODULE=config.settings.local $(MANAGE) migrate --noinput
	DJANGO_SETTINGS_MODULE=config.settings.local $(MANAGE) demo --if-empty
	@echo "Organiser logins: http://$(HOST):$(PORT)/admin/  user 'organiser' (Klub Domino Sejahtera) or 'organiser-malang' (Spinner Malang), password 'kelipatan-demo'"
	@echo "Superuser login: user 'admin', password 'kelipatan-admin'"
	DJANGO_SETTINGS_MODULE=config.settings.local $(MANAGE) runserver $(HOST):$(PORT)

test: $(VENV)/.installed
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup $(COVERAGE) $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/hadolint --failure-threshold warning Dockerfile
	$(BIN)/bandit -q --severity-level medium -c pyproject.toml -r allfives league standings ratings pairing matches entrants knockout desk config

typecheck: $(VENV)/.installed
	$(BIN)/mypy --strict allfives
	$(BIN)/mypy config league standings ratings pairing matches entrants knockout desk

migrations-check: $(VENV)/.installed
	DJANGO_SETTINGS_MODULE=config.settings.test $(MANAGE) makemigrations --check --dry-run

deploy-check: $(VENV)/.installed
	DJANGO_SETTINGS_MODULE=config.settings.production \
	  SECRET_KEY=check-deploy-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ \
	  ALLOWED_HOSTS=kelipatan.example $(MANAGE) check --deploy --fail-level WARNING

check: lint typecheck migrations-check deploy-check test

worker: $(VENV)/.installed
	$(BIN)/celery -A config.celery_app worker --loglevel=INFO --concurrency=2

beat: $(VENV)/.installed
	$(BIN)/celery -A config.celery_app beat --loglevel=INFO

bench: $(VENV)/.installed
	@for b in bench/*.py; do echo "== $$b"; \
	  DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/kelipatan} $(PYTHON) $$b || exit 1; done

messages: $(VENV)/.installed
	$(MANAGE) makemessages -l id -l en --ignore=.venv --ignore=staticfiles --no-obsolete

compilemessages: $(VENV)/.installed
	$(MANAGE) compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
