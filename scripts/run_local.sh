#!/usr/bin/env bash
# `make run`: the site with no outside services. Daphne serves HTTP and
# websockets; a local Celery worker (with the beat scheduler embedded) runs the
# clocks, using a broker kept in a folder under var/. What the worker broadcasts
# reaches Daphne's sockets through var/channels.sock (joker_site/local_channel_layer.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8000}"
# Like production unless asked (DEBUG=true make run): no debug pages (a wrong address gets
# the site's own 404 page in its language, not Django's list of every URL), static files
# collected into var/static and served by WhiteNoise, and a secret key of this checkout's
# own, made once and kept in var/ (never the dev key: settings refuse it with DEBUG off).
export DEBUG="${DEBUG:-false}"
# Plain http on 127.0.0.1: no TLS in front, so no redirect to https and no Secure-only cookies
# (with DEBUG off the settings assume a proxy that terminates TLS: docs/deploy.md).
export SECURE_HTTPS="${SECURE_HTTPS:-false}"
if [ -z "${SECRET_KEY:-}" ]; then
    [ -s var/secret_key ] || .venv/bin/python -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
    SECRET_KEY="$(cat var/secret_key)"
    export SECRET_KEY
fi
.venv/bin/python manage.py collectstatic --noinput -v 0
trap 'trap - EXIT INT TERM; kill 0 2>/dev/null' EXIT INT TERM
.venv/bin/celery -A joker_site worker --beat --loglevel=warning --concurrency=1 \
    --schedule var/celerybeat-schedule &
echo "Joker site on http://127.0.0.1:${PORT}/ (Ctrl-C stops it)"
.venv/bin/daphne -b 127.0.0.1 -p "$PORT" joker_site.asgi:application
