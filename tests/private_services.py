"""A Redis and a PostgreSQL of a test's own, to stop and start while the site runs on them
(tests/test_services_restart.py): the PostgreSQL and Redis the suites share are never touched.

`PrivateRedis` is /usr/bin/redis-server on a free port (nothing kept on disk); `PrivatePostgres`
a cluster made with initdb in a temporary folder, run as the `postgres` user (PostgreSQL
refuses to run as root) on a free port with trust authentication. Both restart on the port
they had, as a restarted service does. `missing()` says why they cannot run here, for a skip.
"""

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

REDIS_SERVER = Path("/usr/bin/redis-server")
PG_BIN = Path("/usr/local/bin")
START_TIMEOUT = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def missing() -> str | None:
    """Why the private services cannot run on this machine (None: they can)."""
    if not REDIS_SERVER.exists():
        return f"{REDIS_SERVER} is not installed"
    for name in ("initdb", "pg_ctl", "postgres"):
        if not (PG_BIN / name).exists():
            return f"{PG_BIN / name} is not installed"
    if shutil.which("runuser") is None:
        return "runuser is not installed"
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "there is no postgres user to run PostgreSQL as"
    return None


def _wait_until(ready, what, timeout=START_TIMEOUT):
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start in {timeout} s")
        time.sleep(0.05)


def _accepts(port) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class PrivateRedis:
    def __init__(self):
        self.port = free_port()
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            [str(REDIS_SERVER), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_until(lambda: _accepts(self.port), "redis-server")
        return self

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # as a crash: nothing saved, every connection cut
            self.process.wait(timeout=START_TIMEOUT)
        self.process = None


class PrivatePostgres:
    def __init__(self, database="joker"):
        self.port = free_port()
        self.database = database
        self.folder = Path(tempfile.mkdtemp(prefix="joker-private-pg-"))
        self.data = self.folder / "data"
        user = pwd.getpwnam("postgres")
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        self._as_postgres(PG_BIN / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                          "--no-sync", "--no-instructions")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{self.database}"

    def _as_postgres(self, *command):
        subprocess.run(["runuser", "-u", "postgres", "--", *map(str, command)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self):
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off")
        self._as_postgres(PG_BIN / "pg_ctl", "-D", self.data, "-o", options, "-l", self.folder / "postgres.log",
                          "-w", "-t", str(START_TIMEOUT), "start")
        return self

    def stop(self):
        """Stop it as an administrator does (`pg_ctl stop -m fast`): every session is ended."""
        self._as_postgres(PG_BIN / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")

    def create_database(self):
        self.sql(f'CREATE DATABASE "{self.database}"', database="postgres")

    def sql(self, statement, database=None):
        """Run one statement as the superuser; the rows it returns."""
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname=database or self.database,
                             autocommit=True) as connection:
            cursor = connection.execute(statement)
            return cursor.fetchall() if cursor.description else []

    def terminate_connections(self) -> int:
        """pg_terminate_backend on every other session of the site's database; how many."""
        rows = self.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        f"WHERE datname = '{self.database}' AND pid <> pg_backend_pid()")
        return sum(1 for (ended,) in rows if ended)

    def remove(self):
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass  # not running
        shutil.rmtree(self.folder, ignore_errors=True)
