"""`make run` needs no outside services: SQLite, an in-memory channel layer the
worker reaches over a local socket, and a broker in a folder. Prove the site starts
that way and answers, and that what the Celery worker does (a clock's move, the end
of a grace time) reaches the web process's sockets within two seconds."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websockets
from django.utils.dateparse import parse_datetime
from e2e.site_server import SiteServer

from joker_site.local_channel_layer import LocalSocketChannelLayer, socket_path_for

ROOT = Path(__file__).resolve().parent.parent


def _embedded_env(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env["JOKER_VAR_DIR"] = str(tmp_path)
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_embedded_settings_use_sqlite_memory_layer_and_folder_broker(tmp_path):
    code = (
        "import django, json; from django.conf import settings; django.setup();"
        "print(json.dumps([settings.DATABASES['default']['ENGINE'],"
        " settings.CHANNEL_LAYERS['default']['BACKEND'], settings.CELERY_BROKER_URL,"
        " settings.CELERY_BROKER_TRANSPORT]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_embedded_env(tmp_path) | {"DJANGO_SETTINGS_MODULE": "joker_site.settings"},
        capture_output=True, text=True, check=True,
    ).stdout
    assert "sqlite3" in out and "LocalSocketChannelLayer" in out and "filesystem://" in out
    assert "joker_site.file_broker:Transport" in out  # messages renamed into the queue whole


@pytest.mark.timeout_sensitive
def test_embedded_site_migrates_and_serves_home_page(tmp_path):
    env = _embedded_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    assert (tmp_path / "db.sqlite3").exists()
    port = _free_port()
    daphne = subprocess.Popen(
        [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port), "joker_site.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        body = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ka/", timeout=2) as response:
                    assert response.status == 200
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(0.1)
        assert body is not None, daphne.stderr.read1().decode() if daphne.poll() is not None else "no answer"
        assert '<html lang="ka" ' in body
    finally:
        daphne.terminate()
        daphne.wait(10)


@pytest.mark.asyncio
async def test_local_layer_hands_a_message_sent_elsewhere_to_the_process_serving_sockets(tmp_path):
    hub = LocalSocketChannelLayer(directory=tmp_path)
    channel = await hub.new_channel()  # a consumer starts here: this layer becomes the hub
    await hub.group_add("table-1", channel)
    worker = LocalSocketChannelLayer(directory=tmp_path)  # like the Celery worker's: no consumers
    await worker.group_send("table-1", {"type": "table.changed", "table": 1, "version": 3})
    received = await asyncio.wait_for(hub.receive(channel), 2)
    assert received == {"type": "table.changed", "table": 1, "version": 3}
    assert worker.groups == {} and worker.channels == {}  # nothing was kept where nobody listens
    await hub.close()


@pytest.mark.asyncio
async def test_local_layer_takes_over_a_socket_file_left_by_a_killed_process(tmp_path):
    import socket

    left_behind = socket.socket(socket.AF_UNIX)
    left_behind.bind(socket_path_for(tmp_path))
    left_behind.close()  # the file stays, nobody listens
    worker = LocalSocketChannelLayer(directory=tmp_path)
    await worker.group_send("table-1", {"type": "table.changed"})  # no hub: delivered locally, to nobody
    hub = LocalSocketChannelLayer(directory=tmp_path)
    channel = await hub.new_channel()
    await hub.group_add("table-1", channel)
    await worker.group_send("table-1", {"type": "table.changed", "version": 4})
    assert await asyncio.wait_for(hub.receive(channel), 2) == {"type": "table.changed", "version": 4}
    await hub.close()


def test_local_layer_socket_moves_to_the_temp_folder_when_the_var_path_is_too_long(tmp_path):
    deep = tmp_path / ("a-long-folder-name-" * 8)
    assert socket_path_for(tmp_path).startswith(str(tmp_path))
    assert len(socket_path_for(deep)) <= 100 and socket_path_for(deep) == socket_path_for(deep)


# Two members with access tokens at a Japanese table whose move clock is CLOCK_SECONDS.
CLOCK_SECONDS = 4
GRACE_SECONDS = 2
LIVE_WITHIN_SECONDS = 2.0
SET_UP_A_MATCH = f"""
import json
from accounts.tokens import create_token
from games.services import tables
from games.services.tables import TableSettings
from tests.factories import make_player

tamar, levan = make_player("tamar"), make_player("levan")
table = tables.create_table(tamar, TableSettings(variant="japanese", clock_seconds={CLOCK_SECONDS}))
tables.sit(table.pk, levan)
print(json.dumps({{"table": table.pk, "tokens": [create_token(p.user, "bot")[1] for p in (tamar, levan)]}}))
"""


@pytest.fixture
def embedded_site(tmp_path):
    server = SiteServer(database_url=None, redis_url=None, log_dir=tmp_path,
                        settings_overrides={"DISCONNECT_GRACE_SECONDS": GRACE_SECONDS}, embedded=True)
    site = server.start()
    yield site
    server.stop()


async def _program(site, token):
    return await websockets.connect(site.url.replace("http", "ws") + "/ws/play/",
                                    additional_headers={"Authorization": f"Bearer {token}"})


async def _next_state(program, until, timeout=30):
    """The next `state` frame for which until(frame) holds, and when it arrived (time.time())."""
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(await asyncio.wait_for(program.recv(), max(0.1, deadline - time.monotonic())))
        if frame["type"] == "state" and until(frame):
            return frame, time.time()


def _timestamp(iso):
    return parse_datetime(iso).timestamp()


@pytest.mark.timeout_sensitive
@pytest.mark.asyncio
async def test_embedded_worker_clock_move_and_forfeit_reach_the_sockets_within_two_seconds(embedded_site):
    match_at = json.loads(embedded_site.run_python(SET_UP_A_MATCH).strip().splitlines()[-1])
    sockets = [await _program(embedded_site, token) for token in match_at["tokens"]]
    for program in sockets:
        await program.send(json.dumps({"type": "resync", "table": match_at["table"]}))
    first = [await _next_state(program, lambda frame: True) for program in sockets]
    deadline = _timestamp(first[0][0]["turn_deadline"])

    # Nobody moves: the worker's clock makes the declarer's trump choice, and both programs see it.
    moved = [await _next_state(program, lambda frame: frame["version"] >= 2) for program in sockets]
    lateness = [arrived - deadline for _frame, arrived in moved]
    assert all(frame["version"] == 2 for frame, _arrived in moved)
    print(f"clock move seen {lateness} s after the deadline")
    assert max(lateness) < LIVE_WITHIN_SECONDS, f"the clock's move reached the programs {lateness} s late"

    # Seat 1 goes away: when its grace runs out the worker ends the match, and seat 0 sees it.
    await sockets[1].close()
    gone, _arrived = await _next_state(sockets[0], lambda frame: frame["seats"][1]["grace_until"])
    grace_end = _timestamp(gone["seats"][1]["grace_until"])
    over, arrived = await _next_state(sockets[0], lambda frame: frame["status"] != "running")
    assert over["status"] == "finished" and over["view"]["winner"] == [0] and over["view"]["end"]["reason"] == "forfeit"
    print(f"forfeit seen {arrived - grace_end:.3f} s after the grace end")
    assert arrived - grace_end < LIVE_WITHIN_SECONDS, f"the forfeit reached the program {arrived - grace_end} s late"
    await sockets[0].close()
