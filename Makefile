# The two set-up commands are `make run` and `make test`; everything else is a helper.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The suite runs against the real services a production site uses (they run on CI).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/joker
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
# `make test` runs the browser suite beside the other one, on a database and Redis DB of its own.
TEST_E2E_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/joker_e2e
TEST_E2E_REDIS_URL ?= redis://127.0.0.1:6379/1
# ... and each suite in two halves side by side (scripts/run_suites.sh): the second halves' own.
TEST_DATABASE_URL_2 ?= postgres://postgres@127.0.0.1:5432/joker_2
TEST_REDIS_URL_2 ?= redis://127.0.0.1:6379/2
TEST_E2E_DATABASE_URL_2 ?= postgres://postgres@127.0.0.1:5432/joker_e2e_2
TEST_E2E_REDIS_URL_2 ?= redis://127.0.0.1:6379/3
# Browser tests drive Debian's chromium-headless-shell: Chromium's own engine without the
# browser's window, the build Playwright itself uses for headless runs, at about 60 % of the full
# browser's CPU (docs/testing.md). Playwright's own browser download is not used. The full
# chromium comes with it: its fonts stay as they were, and scripts/make_app_icons.py uses it.
CHROMIUM := /usr/lib/chromium/chromium-headless-shell
E2E_ARTIFACTS := test-artifacts/e2e

.PHONY: install run run-prod loadtest test test-fast test-e2e bench messages clean

$(VENV)/.installed: requirements.lock
	test -x $(PY) || python3.11 -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# gettext's msgfmt compiles the checked-in .po catalogues.
messages: $(VENV)/.installed
	@command -v msgfmt >/dev/null || { (apt-get update -qq && apt-get install -y -qq gettext) >/dev/null; }
	$(PY) manage.py compilemessages --ignore=.venv --ignore=node_modules -v 0

install: $(VENV)/.installed node_modules/.installed messages

run: install
	$(PY) manage.py migrate --noinput -v 0
	PORT=$(PORT) scripts/run_local.sh

# The production shape on one machine (docs/deploy.md): WEB_PROCESSES Daphne processes on PORT,
# a Celery worker and beat; DATABASE_URL, REDIS_URL and SECRET_KEY come from the environment.
run-prod: install
	PORT=$(PORT) $(PY) scripts/run_prod.py

# MATCHES concurrent bot matches over the JSON protocol against the production shape (docs/protocol.md).
MATCHES ?= 50
loadtest: install
	scripts/ensure_services.sh
	MATCHES=$(MATCHES) $(PY) scripts/loadtest.py

# Quiet when it works, the whole apt output when it does not.
$(CHROMIUM):
	@echo "Installing Debian's chromium-headless-shell for the browser tests"
	@out=$$( (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell) 2>&1 ) \
		|| { echo "$$out"; echo "Could not install chromium-headless-shell (needs root and Debian's archive)" >&2; exit 1; }

# The browser run; the folder is printed first so pytest's summary stays the last line.
define run_browser_tests
	@echo "Browser tests: screenshots and server logs go to $(CURDIR)/$(E2E_ARTIFACTS)/"
	E2E_ARTIFACTS=$(E2E_ARTIFACTS) DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) \
		$(PY) -m pytest -q -m e2e tests/e2e $(E2E_PYTEST_ARGS) || [ $$? -eq 5 ]
endef

# Four pytest runs at once, each suite in two halves (Playwright's sync API and pytest-asyncio
# clash in one process, and the browser runs mostly wait on their servers): scripts/run_suites.sh
# prints each run's output whole, the browser runs' last, and fails if any failed. Exit code 5
# (no test selected) is not a failure.
test: install $(CHROMIUM)
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/lint-imports --no-cache >/dev/null || $(VENV)/bin/lint-imports --no-cache
	scripts/ensure_services.sh
	PY=$(PY) E2E_ARTIFACTS=$(E2E_ARTIFACTS) \
		UNIT_DATABASE_URL=$(TEST_DATABASE_URL) UNIT_REDIS_URL=$(TEST_REDIS_URL) \
		UNIT_DATABASE_URL_2=$(TEST_DATABASE_URL_2) UNIT_REDIS_URL_2=$(TEST_REDIS_URL_2) \
		E2E_DATABASE_URL=$(TEST_E2E_DATABASE_URL) E2E_REDIS_URL=$(TEST_E2E_REDIS_URL) \
		E2E_DATABASE_URL_2=$(TEST_E2E_DATABASE_URL_2) E2E_REDIS_URL_2=$(TEST_E2E_REDIS_URL_2) \
		E2E_PYTEST_ARGS="$(E2E_PYTEST_ARGS)" scripts/run_suites.sh

# The browser tests alone (E2E_PYTEST_ARGS="-k language -x" narrows them).
test-e2e: install $(CHROMIUM)
	scripts/ensure_services.sh
	$(run_browser_tests)

bench: install
	$(PY) scripts/bench.py
	$(PY) scripts/bench_bot.py
	$(PY) scripts/bench_levels.py
	$(PY) scripts/bench_bot_beside.py
	$(PY) scripts/bench_arena.py

clean:
	rm -rf $(VENV) node_modules var
