#!/usr/bin/env python3
"""The site in its production shape on one machine (`make run-prod`, docs/deploy.md).

N Daphne processes (HTTP and websockets), a Celery worker (the move clocks) and
Celery beat (the sweeper), against the PostgreSQL and Redis named by
DATABASE_URL and REDIS_URL. Migrations and collectstatic run first.

All Daphne processes serve one port: this launcher opens N listening sockets
on it with SO_REUSEPORT and hands one to each process (`daphne --fd`); the
kernel spreads new connections over them. `--separate-ports` gives process i
the port PORT+i instead (behind a reverse proxy that balances them, or for a
test that must reach a given process).

Stops everything on SIGINT/SIGTERM. A process that dies is started again (a web
process on its own port, while the others go on serving; their clients reconnect
and resync); one that dies more than RESTARTS_PER_MINUTE times in a minute stops
everything, for a supervisor such as systemd to deal with.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RESTARTS_PER_MINUTE = 5


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--web", type=int, default=int(os.environ.get("WEB_PROCESSES", "2")),
                        help="Daphne processes (WEB_PROCESSES, default 2)")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"), help="address to listen on (HOST)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")), help="port (PORT)")
    parser.add_argument("--separate-ports", action="store_true", help="process i listens on PORT+i")
    parser.add_argument("--worker-concurrency", type=int, default=int(os.environ.get("WORKER_CONCURRENCY", "2")),
                        help="Celery worker processes (WORKER_CONCURRENCY, default 2)")
    parser.add_argument("--no-celery", action="store_true", help="web processes only")
    parser.add_argument("--skip-setup", action="store_true", help="no migrate/collectstatic (already done)")
    parser.add_argument("--log-dir", default=os.environ.get("LOG_DIR", ""),
                        help="write each process's output to a file here (default: this terminal)")
    return parser.parse_args()


def _check_environment():
    missing = [name for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY") if not os.environ.get(name)]
    if missing:
        sys.exit(f"run_prod: set {', '.join(missing)} (see docs/deploy.md)")
    os.environ.setdefault("DEBUG", "false")


def _listening_socket(host, port, share=True):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if share:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def _die_with_parent():
    """Linux: the child gets SIGTERM when this launcher dies, however it dies."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Processes:
    def __init__(self, log_dir):
        self.log_dir = Path(log_dir) if log_dir else None
        self.running = {}
        self.starters = {}  # name -> a function that starts the process again
        self.restarts = {}  # name -> when it was restarted (time.monotonic())

    def keep(self, name, starter):
        """Start a process with `starter()`, and again with it whenever it dies."""
        self.starters[name] = starter
        starter()

    def restart(self, name) -> bool:
        """Start a dead process again; False when it keeps dying."""
        now = time.monotonic()
        recent = [at for at in self.restarts.get(name, []) if now - at < 60]
        if len(recent) >= RESTARTS_PER_MINUTE:
            return False
        self.restarts[name] = recent + [now]
        self.starters[name]()
        return True

    def start(self, name, command, pass_fds=()):
        output = None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            output = open(self.log_dir / f"{name}.log", "ab")
        self.running[name] = subprocess.Popen(
            command, cwd=ROOT, pass_fds=pass_fds, stdout=output, stderr=subprocess.STDOUT if output else None,
            stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent,
        )
        if output is not None:
            output.close()

    def first_dead(self):
        for name, process in self.running.items():
            if process.poll() is not None:
                return name, process.returncode
        return None

    def stop(self):
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for process in self.running.values():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)


def main():
    args = _arguments()
    _check_environment()
    manage = [sys.executable, str(ROOT / "manage.py")]
    if not args.skip_setup:
        subprocess.run(manage + ["migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
        subprocess.run(manage + ["collectstatic", "--noinput", "-v", "0"], cwd=ROOT, check=True)

    processes = Processes(args.log_dir)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    # A handshake waits for a database thread under load: give it longer than Daphne's 5 s.
    daphne = [str(BIN / "daphne"), "--proxy-headers", "-v", "1", "--websocket_connect_timeout", "30"]

    def web_starter(i):
        port = args.port + i if args.separate_ports and args.port else args.port

        def start():
            nonlocal port
            # Separate ports: PORT 0 gives each process a free port of its own, kept on restarts.
            sock = _listening_socket(args.host, port, share=not args.separate_ports)
            port = sock.getsockname()[1]
            processes.start(f"web-{i}", daphne + ["--fd", str(sock.fileno()), "joker_site.asgi:application"],
                            pass_fds=(sock.fileno(),))
            sock.close()  # the child holds it now: when it dies the kernel stops sending it connections
            print(f"web-{i}: http://{args.host}:{port}/ pid {processes.running[f'web-{i}'].pid}", flush=True)

        return start

    try:
        for i in range(args.web):
            processes.keep(f"web-{i}", web_starter(i))
        if not args.separate_ports:
            print(f"{args.web} web processes on http://{args.host}:{args.port}/", flush=True)
        if not args.no_celery:
            celery = [str(BIN / "celery"), "-A", "joker_site"]
            worker = celery + ["worker", "--loglevel=warning", "--without-mingle", "--without-gossip",
                               f"--concurrency={args.worker_concurrency}"]
            processes.keep("worker", lambda: processes.start("worker", worker))
            schedule = Path(os.environ.get("JOKER_VAR_DIR", ROOT / "var")) / "celerybeat-schedule"
            beat = celery + ["beat", "--loglevel=warning", "--schedule", str(schedule)]
            processes.keep("beat", lambda: processes.start("beat", beat))
        print("running; Ctrl-C stops everything", flush=True)
        while not stopping:
            dead = processes.first_dead()
            if dead is not None:
                name, code = dead
                if not processes.restart(name):
                    print(f"run_prod: {name} exited with {code} {RESTARTS_PER_MINUTE} times within a minute; "
                          "stopping the rest", file=sys.stderr, flush=True)
                    return 1
                print(f"run_prod: {name} exited with {code}; started it again", file=sys.stderr, flush=True)
            time.sleep(0.5)
        return 0
    finally:
        processes.stop()


if __name__ == "__main__":
    sys.exit(main())
