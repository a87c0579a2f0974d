#!/usr/bin/env bash
# `make run`: the site with no outside services. Daphne serves HTTP and
# websockets; a local Celery worker (with the beat scheduler embedded) runs the
# clocks, using a broker kept in a folder under var/. What the worker broadcasts
# reaches Daphne's sockets through var/channels.sock (joker_site/local_channel_layer.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${PORT:-8000}"
trap 'trap - EXIT INT TERM; kill 0 2>/dev/null' EXIT INT TERM
.venv/bin/celery -A joker_site worker --beat --loglevel=warning --concurrency=1 \
    --schedule var/celerybeat-schedule &
echo "Joker site on http://127.0.0.1:${PORT}/ (Ctrl-C stops it)"
.venv/bin/daphne -b 127.0.0.1 -p "$PORT" joker_site.asgi:application
