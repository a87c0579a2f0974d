#!/usr/bin/env bash
# `make test`'s pytest runs, side by side: the suite without browsers and the browser scenarios,
# each in two halves (TEST_HALF=1/2 and 2/2, tests/suite_halves.py), each half on a database and a
# Redis database of its own (the Makefile passes them). The browser runs mostly wait on their
# servers and the other runs on the CPU: four at once keep a two-core machine busy. Each run's
# output goes to var/tests/ and is printed whole when all are done (the browser runs' last, so
# the last line is a summary); the exit code is non-zero when any run failed.
set -u
cd "$(dirname "$0")/.."
# The runs start dozens of Python processes (servers, workers, the bots' thinkers, commands): with
# bytecode caching off (PYTHONDONTWRITEBYTECODE, set on some machines) each compiled the project's
# modules and pytest rewrote the test modules again, 4 % of the CPU of a run without browsers.
unset PYTHONDONTWRITEBYTECODE
mkdir -p var/tests
started=$(date +%s)

ok() { [ "$1" -eq 0 ] || [ "$1" -eq 5 ]; }  # 5: no test selected

names=() pids=() logs=()
start_run() {  # name, database URL, Redis URL, half, pytest arguments...
    local name=$1 database=$2 redis=$3 half=$4
    shift 4
    local log="var/tests/$name.log"
    TEST_HALF=$half E2E_ARTIFACTS=$E2E_ARTIFACTS DATABASE_URL=$database REDIS_URL=$redis \
        "$PY" -m pytest -q -p no:cacheprovider --durations=12 "$@" >"$log" 2>&1 &
    names+=("$name") pids+=($!) logs+=("$log")
}

start_run non-browser-1 "$UNIT_DATABASE_URL" "$UNIT_REDIS_URL" 1/2 -m "not e2e"
start_run non-browser-2 "$UNIT_DATABASE_URL_2" "$UNIT_REDIS_URL_2" 2/2 -m "not e2e"
# shellcheck disable=SC2086  # E2E_PYTEST_ARGS is a list of pytest options
start_run browser-1 "$E2E_DATABASE_URL" "$E2E_REDIS_URL" 1/2 -m e2e tests/e2e $E2E_PYTEST_ARGS
# shellcheck disable=SC2086
start_run browser-2 "$E2E_DATABASE_URL_2" "$E2E_REDIS_URL_2" 2/2 -m e2e tests/e2e $E2E_PYTEST_ARGS
echo "Running the non-browser and the browser suites side by side, each in two halves (logs in"
echo "var/tests/; browser screenshots and server logs in $E2E_ARTIFACTS/)"

failed=0
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"; rc=$?
    echo "== ${names[$i]} (done after $(( $(date +%s) - started )) s) =="
    cat "${logs[$i]}"
    if ! ok "$rc"; then
        echo "${names[$i]} failed (exit code $rc)" >&2
        failed=1
    fi
done
[ "$failed" -eq 0 ]
