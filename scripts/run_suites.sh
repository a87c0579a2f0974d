#!/usr/bin/env bash
# `make test`'s two pytest runs, side by side: the suite without browsers and the browser
# scenarios, each on its own database and Redis DB (the Makefile passes them). Each run's
# output goes to var/tests/ and is printed whole when both are done (the browser run's last, so
# its summary is the last line); the exit code is non-zero when either run failed.
set -u
cd "$(dirname "$0")/.."
mkdir -p var/tests
unit_log=var/tests/non-browser.log
e2e_log=var/tests/browser.log
started=$(date +%s)

ok() { [ "$1" -eq 0 ] || [ "$1" -eq 5 ]; }  # 5: no test selected

DATABASE_URL=$UNIT_DATABASE_URL REDIS_URL=$UNIT_REDIS_URL \
    "$PY" -m pytest -q -p no:cacheprovider -m "not e2e" >"$unit_log" 2>&1 &
unit_pid=$!
# shellcheck disable=SC2086  # E2E_PYTEST_ARGS is a list of pytest options
E2E_ARTIFACTS=$E2E_ARTIFACTS DATABASE_URL=$E2E_DATABASE_URL REDIS_URL=$E2E_REDIS_URL \
    "$PY" -m pytest -q -p no:cacheprovider -m e2e tests/e2e $E2E_PYTEST_ARGS >"$e2e_log" 2>&1 &
e2e_pid=$!
echo "Running the non-browser and the browser suites side by side (logs in var/tests/;"
echo "browser screenshots and server logs in $E2E_ARTIFACTS/)"

wait "$unit_pid"; unit_rc=$?
echo "== The suite without browsers ($(( $(date +%s) - started )) s) =="
cat "$unit_log"
wait "$e2e_pid"; e2e_rc=$?
echo "== The browser scenarios ($(( $(date +%s) - started )) s) =="
cat "$e2e_log"

ok "$unit_rc" || echo "The suite without browsers failed (exit code $unit_rc)" >&2
ok "$e2e_rc" || echo "The browser scenarios failed (exit code $e2e_rc)" >&2
ok "$unit_rc" && ok "$e2e_rc"
