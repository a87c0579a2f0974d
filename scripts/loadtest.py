#!/usr/bin/env python3
"""`make loadtest`: the site in its production shape, under MATCHES concurrent matches.

1. Recreates its own PostgreSQL database (LOADTEST_DATABASE_URL, default
   joker_loadtest on 127.0.0.1) and empties its Redis database
   (LOADTEST_REDIS_URL, default db 13), migrates, makes the bot members, their
   personal access tokens and, for browser-shaped seats, a signed-in session.
2. Starts `scripts/run_prod.py`: WEB_PROCESSES Daphne processes (default 2) on
   one port, a Celery worker and beat, DEBUG off. LOADTEST_TREE names another
   checkout of the site (say, an older commit's worktree) whose run_prod.py and
   manage.py are started instead, with its own .venv when it has one: this
   script measures any tree the same way.
3. Opens every bot's socket (20 handshakes at a time), then plays MATCHES
   matches at once (alternately Japanese to 11 and classic "short"; a slot
   whose match ends starts another) for DURATION seconds (default 60), from
   CLIENT_PROCESSES asyncio processes (default 4; each plays every fourth table):
   800 people's phones do not all stall at once, and when one process running
   every bot was put off the CPU for a tenth of a second, every table's next move
   came in the same instant and the figures measured that burst, not the site;
   - a program seat plays over the JSON protocol (ws/play/, a token);
   - a browser-shaped seat (a BROWSER_SHARE of the seats, default 0) signs in
     with a session cookie and plays on the match page's own socket
     (ws/table/<id>/), receiving the HTML the page swaps in and sending what
     its buttons send;
   - each seat answers a position where it is to act with a random legal
     action, at once (THINK_MS unset: the server is kept as busy as the bots
     can make it) or after a think time drawn from THINK_MS ("1500-4500": a
     random 1.5-4.5 s per move, like people).
   The move clock is CLOCK_SECONDS (default 120, and 15, the shortest, when
   THINK_MS is set, so that the clocks' work happens during the run).
4. Measures, in the steady window (from WARMUP seconds, default a sixth of
   DURATION and at most 10 s, after the last table's match has started: while
   tables are still being created and seated, their first moves meet that work,
   which no site has for all its tables at once; the first matches start one
   after another over START_SPREAD seconds, by default as long), the time from sending an action
   to receiving the position it produced (`p50_ms`...), the time from the
   action to each OTHER seat of the table receiving that position
   (`notice_p50_ms`, `notice_p99_ms`), and, on PINGERS idle connections of
   their own, the round trip of a `ping` the server answers without touching
   the database.
5. Prints `matches`, `moves_per_s`, `p50_ms`, `p95_ms`, `p99_ms`, `errors`,
   `ping_p50_ms`, `ping_p99_ms`, `notice_p50_ms`, `notice_p99_ms`,
   `browser_p99_ms`, `client_lag_p99_ms` (how late the bots' own loops run),
   `html_kb_per_message`, `think_ms`, `browser_share`,
   `clock_seconds`, `steady_s` (after the first ten errors: a program's refused
   action names the version it acted on, the match's version in the refusal and
   the last versions the seat was sent), then stops everything (servers' logs
   stay in var/loadtest/).

HELD_SEARCH="50,100,200,400" runs once per table count, in order (a fresh site
each time), until a run's `p99_ms` or `notice_p99_ms` reaches HELD_P99_MS
(default 200) or it has errors, and prints every run's figures (prefixed with
its count) and `tables_held`: the most tables that ran with both p99s under
the bound (0 when none did). Each run prints `held` (yes/no) on its own too.
"""

import asyncio
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(os.environ.get("LOADTEST_TREE") or ROOT).resolve()  # the site that is started and measured
sys.path.insert(0, str(ROOT))

MATCHES = int(os.environ.get("MATCHES", "50"))
DURATION = float(os.environ.get("DURATION", "60"))
WEB_PROCESSES = int(os.environ.get("WEB_PROCESSES", "2"))
CLIENT_PROCESSES = max(1, int(os.environ.get("CLIENT_PROCESSES", "4")))
PINGERS = int(os.environ.get("PINGERS", "4"))
PING_INTERVAL = float(os.environ.get("PING_INTERVAL", "0.1"))
DATABASE_URL = os.environ.get("LOADTEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/joker_loadtest")
REDIS_URL = os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/13")
THINK_MS = os.environ.get("THINK_MS", "").strip()
BROWSER_SHARE = float(os.environ.get("BROWSER_SHARE", "0"))
CLOCK_SECONDS = int(os.environ.get("CLOCK_SECONDS") or (15 if THINK_MS else 120))
WARMUP = float(os.environ.get("WARMUP") or min(10.0, DURATION / 6))
# The tables' first matches start one after another over this many seconds (players arrive
# over time; all at once, the start's work and the first moves' clocks would meet).
START_SPREAD = float(os.environ.get("START_SPREAD") or min(10.0, DURATION / 6))
HELD_SEARCH = [int(n) for n in os.environ.get("HELD_SEARCH", "").replace(" ", "").split(",") if n]
HELD_P99_MS = float(os.environ.get("HELD_P99_MS", "200"))
MOVE_TIMEOUT = 30.0  # a position that does not come within this counts as an error
LOG_DIR = ROOT / "var" / "loadtest"


def variants():
    return (("japanese", 2, {"target": 11, "clock_seconds": CLOCK_SECONDS}),
            ("classic", 4, {"game_type": "short", "clock_seconds": CLOCK_SECONDS}))


VARIANTS = variants()


def think_range():
    """(low, high) seconds of a seat's think time per move, or None (at once)."""
    if not THINK_MS:
        return None
    low, _, high = THINK_MS.partition("-")
    low = float(low) / 1000
    return low, (float(high) / 1000 if high else low)


THINK = think_range()


def log(text):
    print(text, file=sys.stderr, flush=True)


def tree_python():
    """The tree's own interpreter when it has a .venv, else this one."""
    own = TREE / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


# --- the database and the bot members ------------------------------------------------------

def recreate_postgres(url):
    """Drop and create the PostgreSQL database `url` names (scripts/bench_moves.py too)."""
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def recreate_database():
    recreate_postgres(DATABASE_URL)
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def server_environment():
    env = dict(os.environ)
    env.update(DATABASE_URL=DATABASE_URL, REDIS_URL=REDIS_URL, SECRET_KEY="loadtest-only-secret", DEBUG="false",
               SECURE_HTTPS="false",  # plain http on 127.0.0.1, no proxy in front (docs/deploy.md)
               JOKER_VAR_DIR=str(LOG_DIR / "var"), LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


# Run by the measured tree's own manage.py (its models, its session engine): prints one JSON
# line, the raw tokens and, for the browser seats, their session cookies.
MAKE_BOTS = """
import json, random, sys
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from accounts.models import AccessToken, Player
from accounts.tokens import TOKEN_PREFIX, hash_token
count, browsers = {count}, set({browsers})
User = get_user_model()
users = User.objects.bulk_create([User(username=f"bot{{i:04d}}", password="!") for i in range(count)])
Player.objects.bulk_create([Player(user=u) for u in users])
raw = [f"{{TOKEN_PREFIX}}loadtest-{{i:04d}}-{{random.SystemRandom().getrandbits(64):016x}}" for i in range(count)]
AccessToken.objects.bulk_create([
    AccessToken(user=u, name="loadtest", token_hash=hash_token(t), prefix=t[:12]) for u, t in zip(users, raw)])
store = import_module(settings.SESSION_ENGINE).SessionStore
sessions = {{}}
for i in sorted(browsers):
    user = User.objects.get(pk=users[i].pk)
    session = store()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    sessions[i] = session.session_key
print("LOADTEST " + json.dumps({{"tokens": raw, "sessions": sessions, "cookie": settings.SESSION_COOKIE_NAME}}))
"""


def make_bots(count, browsers):
    """`count` members with a token each (and a session for the seats in `browsers`), made in
    bulk by the measured tree's manage.py: (tokens, {seat number: session key}, cookie name)."""
    code = MAKE_BOTS.format(count=count, browsers=sorted(browsers))
    done = subprocess.run([tree_python(), str(TREE / "manage.py"), "shell", "-c", code], cwd=TREE,
                          env=server_environment(), check=True, capture_output=True, text=True)
    line = next(line for line in done.stdout.splitlines() if line.startswith("LOADTEST "))
    made = json.loads(line[len("LOADTEST "):])
    return made["tokens"], {int(k): v for k, v in made["sessions"].items()}, made["cookie"]


# --- the servers -----------------------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_site(port):
    python = tree_python()
    env = server_environment()
    subprocess.run([python, str(TREE / "manage.py"), "migrate", "--noinput", "-v", "0"], cwd=TREE, env=env,
                   check=True)
    return subprocess.Popen(
        [python, str(TREE / "scripts" / "run_prod.py"), "--web", str(WEB_PROCESSES), "--port", str(port),
         "--skip-setup", "--log-dir", str(LOG_DIR / "logs")],
        cwd=TREE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
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

class SteadyWindow:
    """When the steady window opens, shared by the bots' processes (made before they fork):
    WARMUP s after the last table of all of them started. Until then tables are still being
    created and seated, and their first moves meet that work (the first reads, every piece
    drawn anew). Both clocks are the machine's monotonic one, the same in every process."""

    def __init__(self, tables):
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.tables = tables
        self._started = context.Value("i", 0)
        self._from = context.RawValue("d", float("inf"))  # time.perf_counter(): sent before it, left out
        self._from_monotonic = context.RawValue("d", float("nan"))

    def table_started(self):
        with self._started.get_lock():
            self._started.value += 1
            if self._started.value == self.tables:
                self._from_monotonic.value = time.monotonic() + WARMUP
                self._from.value = time.perf_counter() + WARMUP

    @property
    def steady_from(self):
        return self._from.value

    @property
    def steady_from_monotonic(self):
        value = self._from_monotonic.value
        return None if math.isnan(value) else value  # not open yet


class Measures:
    """What one process of bots measured (`merged` adds up the processes')."""

    def __init__(self, window):
        self.window = window
        self.move_ms = []
        self.browser_move_ms = []
        self.notice_ms = []
        self.ping_ms = []
        self.client_lag_ms = []
        self.errors = []
        self.html_bytes = 0
        self.html_messages = 0
        self.matches_started = 0
        self.matches_finished = 0

    def steady(self, sent):
        return sent >= self.window.steady_from

    def table_started(self):
        """A slot's first match began; the steady window opens WARMUP s after the last one."""
        self.window.table_started()

    def __getstate__(self):  # sent back to the parent without the shared window
        return {k: v for k, v in self.__dict__.items() if k != "window"}

    @staticmethod
    def merged(parts):
        total = Measures.__new__(Measures)
        for name, value in vars(parts[0]).items():
            if isinstance(value, list):
                setattr(total, name, [item for part in parts for item in getattr(part, name)])
            elif isinstance(value, int):
                setattr(total, name, sum(getattr(part, name) for part in parts))
            else:
                setattr(total, name, value)
        return total


class TableMoves:
    """The last action sent at one table: (the version it was made against, when, by which seat)."""

    def __init__(self):
        self.last = None


class Seat:
    """One seat at one table: acts whenever it is to act (after its think time, if any)."""

    browser = False

    def __init__(self, measures, rng, deadline, table_moves):
        self.measures = measures
        self.rng = rng
        self.deadline = deadline
        self.table_moves = table_moves
        self.sent_at = None  # (version sent, when) of the action awaiting its position
        self.noticed = -1  # the last action of another seat whose position this seat has timed

    def saw(self, version):
        """A position of `version` arrived: time our own action's, or another seat's notice."""
        now = time.perf_counter()
        if self.sent_at is not None and version > self.sent_at[0]:
            if self.measures.steady(self.sent_at[1]):
                (self.measures.browser_move_ms if self.browser else self.measures.move_ms).append(
                    (now - self.sent_at[1]) * 1000)
            self.sent_at = None
        last = self.table_moves.last
        if last is not None and last[2] is not self and version > last[0] and last[0] > self.noticed:
            self.noticed = last[0]
            if self.measures.steady(last[1]):
                self.measures.notice_ms.append((now - last[1]) * 1000)

    async def think(self):
        if THINK is not None:
            await asyncio.sleep(self.rng.uniform(*THINK))

    def sending(self, version):
        self.sent_at = (version, time.perf_counter())
        self.table_moves.last = (version, self.sent_at[1], self)

    async def receive_raw(self, timeout):
        return await asyncio.wait_for(self.socket.recv(), timeout)

    async def play(self):
        """Until the match ends (True) or the run does (False).

        Every move at the table brings every seat a position, so a seat that hears
        nothing for MOVE_TIMEOUT while the run goes on has a stalled match (a lost
        notice, a dead consumer): that counts as an error too. With think times a
        table is quiet while its seat to act thinks: the wait allows for it."""
        quiet = MOVE_TIMEOUT + (THINK[1] if THINK else 0)
        while True:
            now = time.monotonic()
            if self.sent_at is not None:
                timeout = MOVE_TIMEOUT  # our own move's position must come
            elif now < self.deadline:
                timeout = min(quiet, self.deadline - now + 2)  # the next move, or the end of the run
            else:
                return False
            try:
                raw = await self.receive_raw(timeout)
            except TimeoutError:
                if self.sent_at is None and time.monotonic() >= self.deadline:
                    return False  # the run ended while the others were to act
                waited = "its own move's position" if self.sent_at is not None else "any move at its table"
                raise TimeoutError(f"no position for {timeout:.0f} s (waiting for {waited})") from None
            done = await self.handle(raw)
            if done:
                return True


class ProgramSeat(Seat):
    """A program over the JSON protocol (ws/play/, a token)."""

    def __init__(self, socket, measures, rng, deadline, table_moves):
        super().__init__(measures, rng, deadline, table_moves)
        self.socket = socket
        self.acted_on = self.match_id = None  # the version and match of this seat's last action (a refusal's line names them)
        self.seen = []  # the versions of the last positions received

    async def send(self, message):
        await self.socket.send(json.dumps(message))

    async def receive(self, timeout=MOVE_TIMEOUT):
        return json.loads(await asyncio.wait_for(self.socket.recv(), timeout))

    async def handle(self, raw):
        message = json.loads(raw)
        kind = message["type"]
        if kind == "error":
            at = ""
            if message.get("version") is not None:  # a refusal made under the match's lock says where it was
                at = (f" (match {self.match_id}: acted on version {self.acted_on}, the match at {message['version']}, "
                      f"seen {self.seen})")
            self.measures.errors.append(f"{message['code']}: {message['message']}{at}")
            return False
        if kind != "state":
            return False
        self.saw(message["version"])
        self.seen = (self.seen + [message["version"]])[-4:]
        if message["status"] != "running":
            return True
        legal = message["view"]["legal_actions"]
        if not legal or self.sent_at is not None or time.monotonic() >= self.deadline:
            return False
        await self.think()
        if time.monotonic() >= self.deadline:
            return False
        action = {k: v for k, v in self.rng.choice(legal).items() if k != "seat"}
        self.acted_on, self.match_id = message["version"], message["match"]
        self.sending(message["version"])
        await self.send({"type": "act", "match": message["match"], "version": message["version"],
                         "action": action})
        return False


MATCH_DIV = re.compile(r'<div id="match"[^>]*\bdata-version="(\d+)"[^>]*\bdata-phase="(\w+)"')
BUTTON_VALUES = re.compile(r"ws-send hx-vals='(\{[^']*\})'")
ERROR_TEXT = re.compile(r'<div id="match-error"[^>]*>([^<]+)</div>')


class BrowserSeat(Seat):
    """A match page's socket (ws/table/<id>/, a session cookie): it receives the HTML the
    page swaps in and sends what the page's buttons send (their hx-vals)."""

    browser = True

    def __init__(self, socket, measures, rng, deadline, table_moves):
        super().__init__(measures, rng, deadline, table_moves)
        self.socket = socket

    async def handle(self, raw):
        html = raw if isinstance(raw, str) else raw.decode()
        self.measures.html_bytes += len(html.encode())
        self.measures.html_messages += 1
        error = ERROR_TEXT.search(html)
        if error and error.group(1).strip():
            self.measures.errors.append(f"page: {error.group(1).strip()}")
        shown = MATCH_DIV.search(html)
        if shown is None:
            return False  # the waiting room, an error alone
        version, phase = int(shown.group(1)), shown.group(2)
        self.saw(version)
        if phase == "game_over":
            return True
        actions = [values for values in (json.loads(v) for v in BUTTON_VALUES.findall(html))
                   if values.get("type") == "act"]
        if not actions or self.sent_at is not None or time.monotonic() >= self.deadline:
            return False
        await self.think()
        if time.monotonic() >= self.deadline:
            return False
        action = self.rng.choice(actions)
        self.sending(version)
        await self.socket.send(json.dumps(action))
        return False


async def connect(url, token):
    import websockets

    return await websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"},
                                    max_size=2 ** 22, ping_interval=None, open_timeout=MOVE_TIMEOUT)


async def connect_page(url, origin, cookie):
    import websockets

    return await websockets.connect(url, additional_headers={"Cookie": cookie, "Origin": origin},
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


async def match_slot(index, sockets, browsers, site, measures, deadline):
    """Plays matches of one variant back to back until the run's time is up. `browsers`:
    {seat: session cookie} of the seats that play through the match page's socket (their
    program socket only takes the seat, and is closed once the page's socket is open)."""
    variant, _seats, options = VARIANTS[index % 2]
    rng = random.Random(index)
    pages = []
    first_match = True
    await asyncio.sleep(START_SPREAD * index / max(measures.window.tables, 1))
    try:
        while time.monotonic() < deadline:
            creator = ProgramSeat(sockets[0], measures, rng, deadline, None)
            await creator.send({"type": "create_table", "variant": variant, "options": options})
            room = await creator.receive()
            if room["type"] != "table":
                measures.errors.append(f"create_table: {room}")
                return
            table_id = room["table"]
            # The last seat to join starts the match and its clock: the pages open before it
            # (a page must find its seat taken), so that no seat's first position waits while
            # other pages open; in the first seconds of a run hundreds do.
            moves = TableMoves()
            players = [None] * len(sockets)
            joining = sorted(range(1, len(sockets)), key=lambda seat: seat not in browsers)
            if 0 in browsers:  # the creator sits already
                players[0] = await open_page(site, table_id, browsers[0], measures, rng, deadline, moves)
                pages.append(players[0].socket)
            for seat in joining:
                await sockets[seat].send(json.dumps({"type": "join_table", "table": table_id, "seat": seat}))
                if seat in browsers or seat != joining[-1]:
                    await _seated(sockets[seat])
                if seat == joining[-1]:
                    break
                if seat in browsers:
                    players[seat] = await open_page(site, table_id, browsers[seat], measures, rng, deadline, moves)
                    pages.append(players[seat].socket)
            if joining[-1] in browsers:  # every other seat is a browser's: its page opens last
                players[joining[-1]] = await open_page(site, table_id, browsers[joining[-1]], measures, rng,
                                                       deadline, moves)
                pages.append(players[joining[-1]].socket)
            measures.matches_started += 1
            for seat, sock in enumerate(sockets):
                if players[seat] is None:
                    players[seat] = ProgramSeat(sock, measures, rng, deadline, moves)
            for seat in browsers:  # the page holds the seat now
                await sockets[seat].close()
            if first_match:
                measures.table_started()
                first_match = False
            finished = await asyncio.gather(*(player.play() for player in players))
            for page in pages:
                await page.close()
            pages = []
            if all(finished) and time.monotonic() < deadline:
                measures.matches_finished += 1
                # The browsers' program sockets come back for the next table.
                for seat in browsers:
                    sockets[seat] = await connect(site["play"], site["tokens"][index][seat])
            else:
                if all(finished):
                    measures.matches_finished += 1
                break
    except (TimeoutError, OSError, Exception) as error:
        measures.errors.append(f"slot {index}: {type(error).__name__}: {error}")
    finally:
        for s in [*sockets, *pages]:
            await s.close()


async def open_page(site, table_id, cookie, measures, rng, deadline, moves):
    async with HANDSHAKES:
        page = await connect_page(f"{site['ws']}/ws/table/{table_id}/?lang=ka", site["origin"], cookie)
    return BrowserSeat(page, measures, rng, deadline, moves)


async def _seated(sock):
    """Wait for the answer to a join (the table, or the match it started)."""
    while True:
        message = json.loads(await asyncio.wait_for(sock.recv(), MOVE_TIMEOUT))
        if message["type"] in ("table", "state"):
            return
        if message["type"] == "error":
            raise RuntimeError(f"join_table: {message['code']}: {message['message']}")


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
            if measures.steady(sent):
                measures.ping_ms.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(PING_INTERVAL * random.uniform(0.5, 1.5))
    except (TimeoutError, OSError, Exception) as error:
        measures.errors.append(f"pinger: {type(error).__name__}: {error}")
    finally:
        await socket.close()


async def client_lag(measures, deadline):
    """How late this process's own loop wakes from a short sleep: every time measured above
    includes it, so a figure is the site's only while this stays small."""
    while time.monotonic() < deadline:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_PROBE_S)
        if measures.steady(asked):
            measures.client_lag_ms.append((time.perf_counter() - asked - LAG_PROBE_S) * 1000)


LAG_PROBE_S = 0.01
HANDSHAKES = None


def seat_plan(matches):
    """[(first token index, seats)] per slot and the set of browser-shaped seat numbers (spread
    evenly over the seats: a BROWSER_SHARE of them)."""
    plan, taken, browsers, share = [], 0, set(), 0.0
    for index in range(matches):
        seats = VARIANTS[index % 2][1]
        plan.append((taken, seats))
        for n in range(taken, taken + seats):
            share += BROWSER_SHARE
            if share >= 1 - 1e-9:
                browsers.add(n)
                share -= 1
        taken += seats
    return plan, taken, browsers


async def run_bots(port, tokens, sessions, cookie_name, plan, taken, client, window, barrier):
    """The tables of bots' process number `client` (every CLIENT_PROCESSES-th slot) and, in
    the first, the pingers. Opens every socket first, then (once every process has) plays for
    DURATION: the run measures the matches, not a storm of hundreds of handshakes in the
    same seconds (a real site's players arrive over minutes)."""
    global HANDSHAKES
    HANDSHAKES = asyncio.Semaphore(max(1, 20 // CLIENT_PROCESSES))
    url = f"ws://127.0.0.1:{port}/ws/play/"
    slot_tokens = [tokens[first:first + seats] for first, seats in plan]
    site = {"ws": f"ws://127.0.0.1:{port}", "origin": f"http://127.0.0.1:{port}", "play": url,
            "tokens": slot_tokens}
    opening = time.monotonic()
    measures = Measures(window)
    mine = range(client, len(plan), CLIENT_PROCESSES)
    slot_sockets = dict(zip(mine, await asyncio.gather(*(open_sockets(f"slot {i}", url, slot_tokens[i], measures)
                                                          for i in mine))))
    pinger_sockets = await asyncio.gather(*(open_sockets("pinger", url, [tokens[taken + i]], measures)
                                            for i in range(PINGERS if client == 0 else 0)))
    if client == 0:
        log(f"loadtest: {taken + PINGERS} sockets open in {time.monotonic() - opening:.1f} s "
            f"({CLIENT_PROCESSES} processes of bots)")
    await asyncio.to_thread(barrier.wait, 600)  # every process's sockets are open
    started = time.monotonic()
    deadline = started + DURATION
    slots = []
    for i, sockets in slot_sockets.items():
        if sockets:
            first = plan[i][0]
            browsers = {seat: f"{cookie_name}={sessions[first + seat]}" for seat in range(plan[i][1])
                        if first + seat in sessions}
            slots.append(match_slot(i, sockets, browsers, site, measures, deadline))
    pingers = [pinger(sockets[0], measures, deadline) for sockets in pinger_sockets if sockets]
    await asyncio.gather(*slots, *pingers, client_lag(measures, deadline))
    opened = window.steady_from_monotonic
    if opened is None:  # some table never started: nothing was measured
        return measures, 1e-9
    # No move is sent after the deadline.
    return measures, max(min(time.monotonic(), deadline) - opened, 1e-9)


def play(port, tokens, sessions, cookie_name, plan, taken):
    """Runs the bots in CLIENT_PROCESSES processes: (their measures merged, the steady seconds)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    window = SteadyWindow(len(plan))
    barrier = context.Barrier(CLIENT_PROCESSES)
    results = context.Queue()

    def bots(client):
        try:
            results.put(asyncio.run(run_bots(port, tokens, sessions, cookie_name, plan, taken, client, window,
                                             barrier)))
        except BaseException as error:
            results.put(f"{type(error).__name__}: {error}")

    processes = [context.Process(target=bots, args=(client,)) for client in range(CLIENT_PROCESSES)]
    for process in processes:
        process.start()
    parts, failures = [], []
    try:
        while len(parts) < len(processes) and not failures:  # one failed: the run is over
            outcome = results.get(timeout=DURATION + 30 * 60)
            if isinstance(outcome, str):
                failures.append(outcome)
            else:
                parts.append(outcome)
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
    if failures:
        raise RuntimeError(f"a process of bots failed: {failures}")
    measures = Measures.merged([part for part, _steady in parts])
    return measures, max(steady for _part, steady in parts)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run(matches):
    """One run at `matches` tables on a fresh site: its figures, in print order."""
    plan, taken, browsers = seat_plan(matches)
    seats_needed = taken + PINGERS
    log(f"loadtest: {matches} matches, {DURATION:.0f} s, {WEB_PROCESSES} web processes, tree {TREE}, "
        f"database {DATABASE_URL}, redis {REDIS_URL}, think {THINK_MS or 'none'}, "
        f"{len(browsers)} browser seats, clock {CLOCK_SECONDS} s")
    recreate_database()
    port = free_port()
    site = start_site(port)
    try:
        tokens, sessions, cookie_name = make_bots(seats_needed, browsers)
        wait_until_listening(port, site)
        log(f"loadtest: site up on 127.0.0.1:{port}; playing")
        measures, steady = play(port, tokens, sessions, cookie_name, plan, taken)
    finally:
        stop_site(site)
    for error in measures.errors[:10]:
        log(f"error: {error}")
    moves = len(measures.move_ms) + len(measures.browser_move_ms)
    log(f"loadtest: {measures.matches_started} matches started, {measures.matches_finished} finished, "
        f"{moves} moves in the steady {steady:.1f} s; load average {os.getloadavg()[0]:.1f}")
    every_move = measures.move_ms + measures.browser_move_ms
    p99, notice_p99 = percentile(every_move, 99), percentile(measures.notice_ms, 99)
    held = bool(every_move) and not measures.errors and p99 < HELD_P99_MS and notice_p99 < HELD_P99_MS
    return {
        "matches": f"{matches}",
        "moves_per_s": f"{moves / steady:.1f}",
        "p50_ms": f"{percentile(every_move, 50):.1f}",
        "p95_ms": f"{percentile(every_move, 95):.1f}",
        "p99_ms": f"{p99:.1f}",
        "errors": f"{len(measures.errors)}",
        "ping_p50_ms": f"{percentile(measures.ping_ms, 50):.1f}",
        "ping_p99_ms": f"{percentile(measures.ping_ms, 99):.1f}",
        "notice_p50_ms": f"{percentile(measures.notice_ms, 50):.1f}",
        "notice_p99_ms": f"{notice_p99:.1f}",
        "browser_p99_ms": f"{percentile(measures.browser_move_ms, 99):.1f}",
        "client_lag_p99_ms": f"{percentile(measures.client_lag_ms, 99):.1f}",
        "html_kb_per_message": f"{measures.html_bytes / max(measures.html_messages, 1) / 1024:.1f}",
        "think_ms": THINK_MS or "0",
        "browser_share": f"{BROWSER_SHARE:g}",
        "clock_seconds": f"{CLOCK_SECONDS}",
        "steady_s": f"{steady:.1f}",
        "held": "yes" if held else "no",
    }


if __name__ == "__main__":
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    if not HELD_SEARCH:
        figures = run(MATCHES)
        for name, value in figures.items():
            print(f"{name}: {value}")
        sys.exit(1 if figures["errors"] != "0" else 0)
    tables_held = 0
    for count in HELD_SEARCH:
        figures = run(count)
        for name, value in figures.items():
            print(f"{count}_{name}: {value}", flush=True)
        if figures["held"] != "yes":
            break
        tables_held = count
    print(f"tables_held: {tables_held}")
