#!/usr/bin/env python3
"""`make loadtest`: the site in its production shape, under MATCHES concurrent bot matches.

1. Recreates its own PostgreSQL database (LOADTEST_DATABASE_URL, default
   joker_loadtest on 127.0.0.1) and empties its Redis database
   (LOADTEST_REDIS_URL, default db 13), migrates, makes the bot members and
   their personal access tokens.
2. Starts `scripts/run_prod.py`: WEB_PROCESSES Daphne processes (default 2) on
   one port, a Celery worker and beat, DEBUG off.
3. Opens every bot's socket (20 handshakes at a time), then plays MATCHES
   matches at once (alternately Japanese to 11 and classic "short"; a slot
   whose match ends starts another) for DURATION seconds (default 60) with bot
   programs over the JSON protocol on loopback, in this one asyncio process. Each bot answers every position where it is to act with a random
   legal action at once (no thinking time: the server is kept as busy as the
   bots can make it).
4. Measures the time from sending an action to receiving the position it
   produced, and, on PINGERS idle connections of their own in the same run, the
   round trip of a `ping` the server answers without touching the database.
5. Prints `matches`, `moves_per_s`, `p50_ms`, `p95_ms`, `p99_ms`, `errors`,
   `ping_p50_ms`, `ping_p99_ms`, then stops everything (servers' logs stay in
   var/loadtest/).
"""

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MATCHES = int(os.environ.get("MATCHES", "50"))
DURATION = float(os.environ.get("DURATION", "60"))
WEB_PROCESSES = int(os.environ.get("WEB_PROCESSES", "2"))
PINGERS = int(os.environ.get("PINGERS", "4"))
PING_INTERVAL = float(os.environ.get("PING_INTERVAL", "0.1"))
DATABASE_URL = os.environ.get("LOADTEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/joker_loadtest")
REDIS_URL = os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/13")
MOVE_TIMEOUT = 30.0  # a position that does not come within this counts as an error
LOG_DIR = ROOT / "var" / "loadtest"
VARIANTS = (("japanese", 2, {"target": 11, "clock_seconds": 120}),
            ("classic", 4, {"game_type": "short", "clock_seconds": 120}))


def log(text):
    print(text, file=sys.stderr, flush=True)


# --- the database and the bot members ------------------------------------------------------

def recreate_database():
    import psycopg

    parts = urllib.parse.urlsplit(DATABASE_URL)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def server_environment():
    env = dict(os.environ)
    env.update(DATABASE_URL=DATABASE_URL, REDIS_URL=REDIS_URL, SECRET_KEY="loadtest-only-secret", DEBUG="false",
               JOKER_VAR_DIR=str(LOG_DIR / "var"), LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
    return env


def make_bots(count):
    """`count` members with a token each, made in bulk straight through the ORM."""
    os.environ.update(server_environment())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "joker_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from accounts.models import AccessToken, Player
    from accounts.tokens import TOKEN_PREFIX, hash_token

    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"bot{i:04d}", password="!") for i in range(count)])
    Player.objects.bulk_create([Player(user=u) for u in users])
    raw = [f"{TOKEN_PREFIX}loadtest-{i:04d}-{random.SystemRandom().getrandbits(64):016x}" for i in range(count)]
    AccessToken.objects.bulk_create([
        AccessToken(user=u, name="loadtest", token_hash=hash_token(t), prefix=t[:12]) for u, t in zip(users, raw)
    ])
    from django.db import connections

    connections.close_all()
    return raw


# --- the servers -----------------------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_site(port):
    manage = [sys.executable, str(ROOT / "manage.py")]
    env = server_environment()
    subprocess.run(manage + ["migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "run_prod.py"), "--web", str(WEB_PROCESSES), "--port", str(port),
         "--skip-setup", "--log-dir", str(LOG_DIR / "logs")],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )


def wait_until_listening(port, site, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if site.poll() is not None:
            raise SystemExit(f"the site stopped (exit {site.returncode}); see {LOG_DIR / 'logs'}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                pass
            time.sleep(2)  # every web process, not just the first, has to be up
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the site did not start")


def stop_site(site):
    if site.poll() is None:
        site.send_signal(signal.SIGTERM)
        try:
            site.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(site.pid, signal.SIGKILL)


# --- the bots --------------------------------------------------------------------------------

class Measures:
    def __init__(self):
        self.move_ms = []
        self.ping_ms = []
        self.errors = []
        self.matches_started = 0
        self.matches_finished = 0


class Bot:
    """One program at one table: acts at once whenever it is to act."""

    def __init__(self, socket, measures, rng, deadline):
        self.socket = socket
        self.measures = measures
        self.rng = rng
        self.deadline = deadline
        self.sent_at = None  # (version sent, when) of the action awaiting its position

    async def send(self, message):
        await self.socket.send(json.dumps(message))

    async def receive(self, timeout=MOVE_TIMEOUT):
        return json.loads(await asyncio.wait_for(self.socket.recv(), timeout))

    async def play(self):
        """Until the match ends (True) or the run does (False).

        Every move at the table brings every seat a position, so a seat that hears
        nothing for MOVE_TIMEOUT while the run goes on has a stalled match (a lost
        notice, a dead consumer): that counts as an error too."""
        while True:
            now = time.monotonic()
            if self.sent_at is not None:
                timeout = MOVE_TIMEOUT  # our own move's position must come
            elif now < self.deadline:
                timeout = min(MOVE_TIMEOUT, self.deadline - now + 2)  # the next move, or the end of the run
            else:
                return False
            try:
                message = await self.receive(timeout)
            except TimeoutError:
                if self.sent_at is None and time.monotonic() >= self.deadline:
                    return False  # the run ended while the others were to act
                waited = "its own move's position" if self.sent_at is not None else "any move at its table"
                raise TimeoutError(f"no position for {MOVE_TIMEOUT:.0f} s (waiting for {waited})") from None
            kind = message["type"]
            if kind == "error":
                self.measures.errors.append(f"{message['code']}: {message['message']}")
                continue
            if kind != "state":
                continue
            if self.sent_at is not None and message["version"] > self.sent_at[0]:
                self.measures.move_ms.append((time.perf_counter() - self.sent_at[1]) * 1000)
                self.sent_at = None
            if message["status"] != "running":
                return True
            legal = message["view"]["legal_actions"]
            if not legal or self.sent_at is not None or time.monotonic() >= self.deadline:
                continue
            action = {k: v for k, v in self.rng.choice(legal).items() if k != "seat"}
            self.sent_at = (message["version"], time.perf_counter())
            await self.send({"type": "act", "match": message["match"], "version": message["version"],
                             "action": action})


async def connect(url, token):
    import websockets

    return await websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"},
                                    max_size=2 ** 22, ping_interval=None, open_timeout=MOVE_TIMEOUT)


async def open_sockets(label, url, tokens, measures):
    """One program's socket per token (None, and an error, when one cannot be opened)."""
    sockets = []
    try:
        async with HANDSHAKES:  # hundreds of sockets opening in the same instant is no real site's load
            for token in tokens:
                sockets.append(await connect(url, token))
        return sockets
    except (TimeoutError, OSError, Exception) as error:
        measures.errors.append(f"{label}: {type(error).__name__}: {error}")
        for s in sockets:
            await s.close()
        return None


async def match_slot(index, sockets, measures, deadline):
    """Plays matches of one variant back to back until the run's time is up."""
    variant, _seats, options = VARIANTS[index % 2]
    rng = random.Random(index)
    try:
        bots = [Bot(s, measures, rng, deadline) for s in sockets]
        while time.monotonic() < deadline:
            await bots[0].send({"type": "create_table", "variant": variant, "options": options})
            room = await bots[0].receive()
            if room["type"] != "table":
                measures.errors.append(f"create_table: {room}")
                return
            for seat, bot in enumerate(bots[1:], start=1):
                await bot.send({"type": "join_table", "table": room["table"], "seat": seat})
            measures.matches_started += 1
            finished = await asyncio.gather(*(bot.play() for bot in bots))
            if all(finished):
                measures.matches_finished += 1
            else:
                break
    except (TimeoutError, OSError, Exception) as error:
        measures.errors.append(f"slot {index}: {type(error).__name__}: {error}")
    finally:
        for s in sockets:
            await s.close()


async def pinger(socket, measures, deadline):
    try:
        n = 0
        while time.monotonic() < deadline:
            n += 1
            sent = time.perf_counter()
            await socket.send(json.dumps({"type": "ping", "id": n}))
            reply = json.loads(await asyncio.wait_for(socket.recv(), MOVE_TIMEOUT))
            if reply != {"type": "pong", "id": n}:
                measures.errors.append(f"ping: {reply}")
            measures.ping_ms.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(PING_INTERVAL * random.uniform(0.5, 1.5))
    except (TimeoutError, OSError, Exception) as error:
        measures.errors.append(f"pinger: {type(error).__name__}: {error}")
    finally:
        await socket.close()


HANDSHAKES = None


async def run_bots(port, tokens):
    """Opens every socket first, then plays for DURATION: the run measures the matches,
    not a storm of hundreds of handshakes in the same seconds (a real site's players
    arrive over minutes)."""
    global HANDSHAKES
    HANDSHAKES = asyncio.Semaphore(20)
    url = f"ws://127.0.0.1:{port}/ws/play/"
    measures = Measures()
    slot_tokens, taken = [], 0
    for index in range(MATCHES):
        seats = VARIANTS[index % 2][1]
        slot_tokens.append(tokens[taken:taken + seats])
        taken += seats
    opening = time.monotonic()
    slot_sockets = await asyncio.gather(*(open_sockets(f"slot {i}", url, t, measures)
                                          for i, t in enumerate(slot_tokens)))
    pinger_sockets = await asyncio.gather(*(open_sockets("pinger", url, [tokens[taken + i]], measures)
                                            for i in range(PINGERS)))
    log(f"loadtest: {taken + PINGERS} sockets open in {time.monotonic() - opening:.1f} s")
    started = time.monotonic()
    deadline = started + DURATION
    slots = [match_slot(i, sockets, measures, deadline) for i, sockets in enumerate(slot_sockets) if sockets]
    pingers = [pinger(sockets[0], measures, deadline) for sockets in pinger_sockets if sockets]
    await asyncio.gather(*slots, *pingers)
    return measures, time.monotonic() - started


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


if __name__ == "__main__":
    seats_needed = sum(VARIANTS[i % 2][1] for i in range(MATCHES)) + PINGERS
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    log(f"loadtest: {MATCHES} matches, {DURATION:.0f} s, {WEB_PROCESSES} web processes, "
        f"database {DATABASE_URL}, redis {REDIS_URL}")
    recreate_database()
    port = free_port()
    site = start_site(port)
    try:
        tokens = make_bots(seats_needed)
        wait_until_listening(port, site)
        log(f"loadtest: site up on 127.0.0.1:{port}; playing")
        measures, elapsed = asyncio.run(run_bots(port, tokens))
    finally:
        stop_site(site)
    for error in measures.errors[:10]:
        log(f"error: {error}")
    log(f"loadtest: {measures.matches_started} matches started, {measures.matches_finished} finished, "
        f"{len(measures.move_ms)} moves in {elapsed:.1f} s; load average {os.getloadavg()[0]:.1f}")
    print(f"matches: {MATCHES}")
    print(f"moves_per_s: {len(measures.move_ms) / elapsed:.1f}")
    print(f"p50_ms: {percentile(measures.move_ms, 50):.1f}")
    print(f"p95_ms: {percentile(measures.move_ms, 95):.1f}")
    print(f"p99_ms: {percentile(measures.move_ms, 99):.1f}")
    print(f"errors: {len(measures.errors)}")
    print(f"ping_p50_ms: {percentile(measures.ping_ms, 50):.1f}")
    print(f"ping_p99_ms: {percentile(measures.ping_ms, 99):.1f}")
    sys.exit(1 if measures.errors else 0)
