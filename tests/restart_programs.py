"""The production shape and a bot program for the restart tests (tests/test_restarts.py,
tests/test_services_restart.py). `Launcher` runs scripts/run_prod.py (two web processes on
ports of their own, a Celery worker and beat) and reads what it prints. A `Program`
plays a Japanese match over the JSON protocol against one of the site's web processes,
reconnects to the other when its connection is lost, and sends an act the server answered
`unavailable` again after the hint."""

import asyncio
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import websockets
from e2e.site_server import DIE_WITH_PARENT

ROOT = Path(__file__).resolve().parent.parent
WEB_LINE = re.compile(r"web-(\d+): http://127\.0\.0\.1:(\d+)/ pid (\d+)")


class Launcher:
    """scripts/run_prod.py as a child process, its output read as it comes."""

    def __init__(self, env, log_dir):
        self.lines = []
        self.process = subprocess.Popen(
            [sys.executable, "-c", DIE_WITH_PARENT, sys.executable, str(ROOT / "scripts" / "run_prod.py"),
             "--web", "2", "--port", "0", "--separate-ports", "--skip-setup", "--worker-concurrency", "1",
             "--log-dir", str(log_dir)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def web(self):
        """{process index: (port, pid)} as last announced."""
        found = {}
        for line in list(self.lines):
            match = WEB_LINE.search(line)
            if match:
                found[int(match.group(1))] = (int(match.group(2)), int(match.group(3)))
        return found

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Program:
    """A bot program that reconnects: on a lost connection it tries the other web process,
    resyncs its table and plays on; an act it is not sure went through it sends again,
    the same action against the same version (the server refuses it if it was applied)."""

    def __init__(self, launcher, token, table_id, home, *, comes_back=True, stays_away=None, pace=0.0,
                 silent_at=lambda version: False):
        self.launcher, self.token, self.table_id, self.home = launcher, token, table_id, home
        self.pace = pace  # seconds it thinks before each act
        self.silent_at = silent_at  # versions it lets the move clock play for it
        self.errors = []  # the codes of the errors it was answered
        self.acked = set()  # versions whose act the server answered with the next position
        self.resign_at = None  # resign once the match reaches this version
        self.resigned = False
        self.last_state = None
        self.retry_hints = []  # `params.retry_after` of each `unavailable`
        self.first_home = home
        self.comes_back, self.stays_away = comes_back, stays_away  # stays_away(): a coroutine to wait for
        self.versions = []  # of every state received, in order
        self.sent = {}  # version -> the action sent against it
        self.final = None
        self.reconnected_to = []
        self.socket = None

    async def _connect(self):
        for _attempt in range(100):
            port = self.launcher.web()[self.home][0]
            try:
                self.socket = await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/play/", open_timeout=10,
                    additional_headers={"Authorization": f"Bearer {self.token}"})
            except (TimeoutError, OSError, websockets.InvalidHandshake):
                self.home = 1 - self.home
                await asyncio.sleep(0.2)
                continue
            await self.socket.send(json.dumps({"type": "resync", "table": self.table_id}))
            return
        raise AssertionError("could not reach any web process")

    async def _come_back(self) -> bool:
        """After a lost connection: reconnect to the other web process (False: this program
        does not come back)."""
        if not self.comes_back:
            return False
        if self.stays_away is not None:
            await self.stays_away()
        self.home = 1 - self.home
        await self._connect()
        self.reconnected_to.append(self.home)
        return True

    async def play(self, rng):
        await self._connect()
        acted = set()  # versions acted on over this connection
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(self.socket.recv(), 90))
            except websockets.ConnectionClosed:
                if not await self._come_back():
                    return
                acted = set()
                continue
            if frame["type"] == "error":
                self.errors.append(frame["code"])
                if frame["code"] == "unavailable":  # the database away: the same act again, later
                    self.retry_hints.append(frame.get("params", {}).get("retry_after"))
                    await self._send_again_later(frame)
                continue
            if frame["type"] != "state":
                continue
            self.versions.append(frame["version"])
            if frame.get("id") in self.sent:
                self.acked.add(frame["id"])  # the answer to its act: the move was taken
            if frame["status"] != "running":
                self.final = frame
                await self.socket.close()
                return
            version, legal = frame["version"], frame["view"]["legal_actions"]
            self.last_state = frame
            if self.resign_at is not None and version >= self.resign_at and not self.resigned:
                self.resigned = True
                await self.socket.send(json.dumps({"type": "resign", "match": frame["match"]}))
                continue
            if legal and version not in acted and not self.silent_at(version):
                acted.add(version)
                if self.pace:
                    await asyncio.sleep(self.pace)
                action = self.sent.get(version) or {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                self.sent[version] = action
                try:
                    await self.socket.send(json.dumps(
                        {"type": "act", "match": frame["match"], "version": version, "action": action, "id": version}))
                except websockets.ConnectionClosed:  # the process died between the position and the act
                    if not await self._come_back():
                        return
                    acted = set()  # the resync brings the position again, and the same act goes out

    async def _send_again_later(self, error):
        """An act answered `unavailable`: after the hint, the same action at the same version (the
        server refuses it as stale if it was taken before the connection broke)."""
        version = error.get("id")
        if error.get("in_reply_to") == "resync":
            again = {"type": "resync", "table": self.table_id}
        elif error.get("in_reply_to") == "act" and version in self.sent:
            again = {"type": "act", "match": self.last_state["match"], "version": version,
                     "action": self.sent[version], "id": version}
        else:
            return
        await asyncio.sleep(error.get("params", {}).get("retry_after", 1))
        try:
            await self.socket.send(json.dumps(again))
        except websockets.ConnectionClosed:
            pass  # the reading loop reconnects and resyncs


async def every_program_done(playing, timeout):
    """Wait for the programs' tasks: each must see its match end within `timeout` seconds, and
    a program's own failure is raised here."""
    done, pending = await asyncio.wait(playing, timeout=timeout)
    for task in pending:
        task.cancel()
    for task in done:
        task.result()
    assert not pending, "some programs never saw their match end"
