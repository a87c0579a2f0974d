#!/usr/bin/env bash
# The test suite needs the PostgreSQL and Redis that CI machines run on
# 127.0.0.1; start them if they are installed but stopped.
set -u
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no || true
fi
for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && exit 0
    sleep 1
done
echo "PostgreSQL or Redis on 127.0.0.1 is not answering" >&2
exit 1
