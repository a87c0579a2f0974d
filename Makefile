# The two set-up commands are `make run` and `make test`; everything else is a helper.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The suite runs against the real services a production site uses (they run on CI).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/joker
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: install run test test-fast bench messages clean

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

test: install
	scripts/ensure_services.sh
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m pytest -q -m "not e2e"

bench: install
	$(PY) scripts/bench.py

clean:
	rm -rf $(VENV) node_modules var
