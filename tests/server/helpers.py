"""Helpers of the server tests: create tables, read frames, play random legal moves, run real processes."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from meeple.core.registry import load_game
from meeple.server.protocol import (
    AckMessage,
    ChatLine,
    ErrorMessage,
    HelloMessage,
    InvitationMessage,
    PongMessage,
    RematchMessage,
    StateMessage,
    UndoneMessage,
)


def person(running: TestClient, **options: Any) -> TestClient:
    """Another browser of the running app: cookies of its own, the app's event loop (the first client's portal).

    A second ``TestClient`` without the portal runs each request in an event loop of its own, while the app's
    services (locks, events, tasks) belong to the first client's loop: a request that waits on one of them can hang.
    """
    other = TestClient(running.app, **options)
    other.portal = running.portal
    return other


def create(client: TestClient, game: str, seats: list[str], **extra: Any) -> tuple[str, dict[int, str]]:
    """Create a table; return its id and the token of each human seat."""
    body = {"game": game, "params": extra.pop("params", {}), "seats": seats, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["table"], {s["seat"]: s["token"] for s in data["seats"]}


def seed_where(game: str, players: int, seat: int) -> int:
    """The smallest seed whose first decision is ``seat``'s (tests wait only for seats they play)."""
    loaded = load_game(game, players=players)
    return next(seed for seed in range(1000) if loaded.new_initial_state(seed).current_player() == seat)


FRAMES = {
    "hello": HelloMessage,
    "state": StateMessage,
    "error": ErrorMessage,
    "ack": AckMessage,
    "pong": PongMessage,
    "chat": ChatLine,
    "undone": UndoneMessage,
    "rematch": RematchMessage,
    "invitation": InvitationMessage,
}


def next_of(ws: Any, kind: str = "state") -> dict[str, Any]:
    """The next message of type ``kind`` (others are skipped); every message read must match its protocol model."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        FRAMES[message["type"]].model_validate(message)
        if message["type"] == kind:
            return message


def acked(ws: Any, move_id: str) -> None:
    """Read frames until the ``ack`` of ``move_id``; a refusal or a server error fails the test (never waits on)."""
    while True:
        frame = ws.receive_json()
        assert frame["type"] != "error", frame
        if frame["type"] == "ack" and frame["move_id"] == move_id:
            return


def play_to_end(ws: Any, first: dict[str, Any], limit: int = 5000) -> list[dict[str, Any]]:
    """Play the first legal action at every turn of this seat until the game is over; return every frame seen."""
    frames = [first]
    state = first
    n = 0
    while state["status"] == "live":
        if state["legal_actions"]:
            n += 1
            assert n < limit, "the game does not end"
            a = state["legal_actions"][n % len(state["legal_actions"])]
            ws.send_json({"type": "move", "version": state["version"], "action": a["code"], "move_id": f"m{n}"})
        state = next_of(ws)
        frames.append(state)
    return frames


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http_json(url: str, body: dict[str, Any] | None = None, timeout: float = 30) -> Any:
    """GET (or POST ``body``) a JSON URL."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def wait_for_server(url: str, seconds: float = 60) -> None:
    """Wait until a server answers ``GET /api/games``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            http_json(f"{url}/api/games")
            return
        except OSError:
            assert time.monotonic() < deadline, f"no server at {url} after {seconds} s"
            time.sleep(0.1)


class ServerProcess:
    """``meeple serve`` as a real process on a free port (started, waited for, killed)."""

    def __init__(
        self,
        db: str,
        port: int | None = None,
        log: Path | None = None,
        workers: int = 1,
        options: tuple[str, ...] = ("--allow-bot-specs", "--allow-bot-tables", "--no-rate-limits", "--min-grace", "0"),
        src: Path | None = None,
        nofile: int | None = None,
    ) -> None:
        """``options``: extra ``meeple serve`` options (by default: any bot, bot tables, no quotas, any grace).

        ``nofile``: the process's file descriptor limit (``RLIMIT_NOFILE``, soft and hard), if it is to be lowered.
        """
        self.options = options
        self.nofile = nofile
        self.db = db
        self.src = (
            src
            if src is not None
            else (Path(os.environ["MEEPLE_SERVER_SRC"]) if "MEEPLE_SERVER_SRC" in os.environ else None)
        )
        """Another source tree to run (``PYTHONPATH``), e.g. an older version to measure; ``MEEPLE_SERVER_SRC`` sets it
        for every server a test starts (to check that a running-process test fails on an older tree)."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.workers = workers
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        command = [sys.executable, "-m", "meeple", "serve", "--port", str(self.port), "--db", self.db]
        command += ["--allow-seed", "--bot-workers", str(self.workers), *self.options]
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        # a session of its own: kill() takes the bot worker processes down with the server, as a crash would
        env = dict(os.environ, PYTHONPATH=str(self.src)) if self.src is not None else None
        limit = None if self.nofile is None else functools.partial(_limit_descriptors, self.nofile)
        self.proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env, preexec_fn=limit
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the server exited ({self.proc.returncode}); see {self.log}"
            with contextlib.suppress(OSError):
                http_json(f"{self.url}/api/games")
                return self
            time.sleep(0.1)
        raise AssertionError("the server did not start within 60 s")

    def freeze(self) -> None:
        """SIGSTOP the server process (its bot workers run on): a frozen process, holding what it held."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT after :meth:`freeze`."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                pass
        self.kill()  # and whatever is left of its process group


def _limit_descriptors(count: int) -> None:
    """Lower this (child) process's ``RLIMIT_NOFILE`` to ``count``, soft and hard, before it runs the server."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def descriptors(pid: int) -> int:
    """The file descriptors process ``pid`` has open now (Linux: ``/proc/PID/fd``)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def _pg_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if found:
        return str(found[-1])
    path = shutil.which(name)
    assert path, f"PostgreSQL's {name} is not installed (Debian: apt-get install postgresql)"
    return path


class Postgres:
    """A throw-away PostgreSQL cluster of Debian's package that a test can stop, start and query (faults).

    As root, the cluster lives in a fresh directory of ``/tmp`` owned by the ``postgres`` user (PostgreSQL refuses
    to run as root, and pytest's own temporary directories are closed to other users); else in ``base``.
    """

    def __init__(self, base: Path) -> None:
        self.as_user: list[str] = []
        self.owned = os.geteuid() == 0
        if self.owned:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            base = Path(tempfile.mkdtemp(prefix="meeple-pg-"))
            shutil.chown(base, "postgres")
        self.base = base
        self.data, self.sockets, self.log = base / "pgdata", base / "pgsock", base / "pg.log"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        """The SQLAlchemy URL of the cluster."""

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self.as_user, *command], capture_output=True, text=True)
        assert done.returncode == 0, f"{command[0]} failed: {done.stdout}{done.stderr}"

    def init(self) -> None:
        """Create the cluster and start it."""
        self._run("mkdir", "-p", str(self.sockets))
        self._run(_pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust")
        self.start()

    def start(self) -> None:
        """Start the server (and wait until it accepts connections)."""
        options = f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off"
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: clients are disconnected; ``immediate``: as a crash)."""
        command = [*self.as_user, _pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"]
        subprocess.run(command, capture_output=True)

    def execute(self, query: str) -> list[tuple[Any, ...]]:
        """Run one SQL statement in its own connection; return its rows."""
        import psycopg

        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            cursor = conn.execute(query)
            return list(cursor.fetchall()) if cursor.description else []

    def server_log(self) -> str:
        """The server's log so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def remove(self) -> None:
        """Stop the server as a crash would, and remove its files."""
        self.stop("immediate")
        if self.owned:
            shutil.rmtree(self.base, ignore_errors=True)


@contextlib.contextmanager
def postgres_cluster(base: Path) -> Iterator[Postgres]:
    """Start a throw-away PostgreSQL (:class:`Postgres`); stop it and remove its files at the end."""
    cluster = Postgres(base)
    try:
        cluster.init()
        yield cluster
    finally:
        cluster.remove()


@contextlib.contextmanager
def postgres(base: Path) -> Iterator[str]:
    """Start a throw-away PostgreSQL (Debian's package); yield its SQLAlchemy URL; stop it and remove its files."""
    with postgres_cluster(base) as cluster:
        yield cluster.url


class RandomSeat(threading.Thread):
    """A WebSocket client that plays random legal moves for one seat and follows the client's duties (docs/server.md).

    A move is acknowledged only by an ``ack`` frame naming its ``move_id`` (``acks="version"``: by a state frame
    with a higher version, as clients of servers without ``ack`` did; for measuring old servers). The client pings
    (a frozen server is noticed within ``ping_timeout`` seconds), reconnects after a lost connection (to the next of
    ``urls``: a load balancer's job in production), and resends an unacknowledged move with its ``move_id`` after a
    reconnection or a ``server_error``. It gives up after ``give_up`` seconds without a successful connection.

    Attributes:
        acked: the acknowledged ``move_id``, in order.
        ack_times: ``(time.time(), move_id)`` of each acknowledgement.
        errors: every ``error`` frame received, with the time it came (``"at"``).
        drops: when connections were lost (``ConnectionClosed``, a ping timeout, a 1013 close).
        refused: when connection attempts failed.
    """

    def __init__(
        self,
        url: str | list[str],
        table: str,
        token: str | None,
        seed: int,
        pause: float = 0.0,
        give_up: float = 5.0,
        acks: str = "frame",
        ping_timeout: float = 2.0,
        ssl_context: Any = None,
    ) -> None:
        super().__init__(daemon=True)
        self.ssl_context = ssl_context  # for wss:// (an https url): the context that trusts the server's CA
        urls = [url] if isinstance(url, str) else list(url)
        path = f"/api/tables/{table}/ws" + (f"?token={token}" if token else "")
        self.ws_urls = [f"{u.replace('http', 'ws', 1)}{path}" for u in urls]
        self.ws_url = self.ws_urls[0]
        self.rng = random.Random(seed)
        self.pause = pause
        self.give_up = give_up
        self.acks = acks
        self.ping_timeout = ping_timeout
        self.acked: list[str] = []
        self.ack_times: list[tuple[float, str]] = []
        self.frames: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.drops: list[float] = []
        self.refused: list[float] = []
        self.finished = threading.Event()
        self.stop = threading.Event()
        self.closed = False
        self.sent_at = 0.0
        self.pending: dict[str, Any] | None = None
        """The move sent and not yet acknowledged (resent as it is after a reconnection or a server_error)."""

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.sync.client import connect

        turn, last_ok = 0, time.monotonic()
        while not self.finished.is_set() and not self.stop.is_set():
            url = self.ws_urls[turn % len(self.ws_urls)]
            try:
                with connect(
                    url,
                    open_timeout=5,
                    ping_interval=1.0,
                    ping_timeout=self.ping_timeout,
                    close_timeout=1.0,
                    ssl=self.ssl_context,
                ) as ws:
                    last_ok = time.monotonic()
                    self._play(ws)
                    last_ok = time.monotonic()
            except (ConnectionClosed, TimeoutError):
                self.drops.append(time.time())
                last_ok = time.monotonic()  # it was up until now
            except (OSError, InvalidHandshake):
                self.refused.append(time.time())
            if self.finished.is_set() or self.stop.is_set():
                break
            if time.monotonic() - last_ok > self.give_up:
                self.closed = True
                return
            turn += 1
            time.sleep(0.1)

    def _play(self, ws: Any) -> None:
        first = True
        while not self.stop.is_set():
            try:
                message = json.loads(ws.recv(timeout=1.0))
            except TimeoutError:
                if self.pending is not None and time.monotonic() - self.sent_at > 10:  # no answer: ask again
                    self._send(ws)
                continue
            kind = message["type"]
            if kind == "error":
                self._error(ws, message)
            elif kind == "ack":
                if self.pending is not None and message["move_id"] == self.pending["move_id"]:
                    version = self.pending["version"]
                    self._acknowledged()
                    last = self.frames[-1] if self.frames else None
                    if last is not None and last["legal_actions"] and last["version"] > version:
                        self._move(ws, last)  # the state after the move came before its ack
            elif kind == "state":
                self.frames.append(message)
                if first and self.pending is not None:  # a reconnection: resend the unacknowledged move
                    self._send(ws)
                first = False
                if self.acks == "version" and self.pending is not None and message["version"] > self.pending["version"]:
                    self._acknowledged()
                if message["status"] == "finished":
                    self.finished.set()
                    return
                if message["legal_actions"] and self.pending is None:
                    self._move(ws, message)

    def _acknowledged(self) -> None:
        assert self.pending is not None
        self.acked.append(self.pending["move_id"])
        self.ack_times.append((time.time(), self.pending["move_id"]))
        self.pending = None

    def _error(self, ws: Any, message: dict[str, Any]) -> None:
        self.errors.append({**message, "at": time.time()})
        if self.pending is None or message.get("move_id") not in (None, self.pending["move_id"]):
            return
        if message["code"] == "server_error":  # not committed: resend the same move a moment later
            time.sleep(0.3)
            self._send(ws)
        else:  # refused (the table moved on): choose again from the state that follows
            self.pending = None

    def _move(self, ws: Any, message: dict[str, Any]) -> None:
        if self.pause:
            time.sleep(self.pause)
        action = self.rng.choice(message["legal_actions"])
        move_id = f"{self.rng.getrandbits(48):x}"
        self.pending = {"type": "move", "version": message["version"], "action": action["code"], "move_id": move_id}
        self._send(ws)

    def _send(self, ws: Any) -> None:
        self.sent_at = time.monotonic()
        ws.send(json.dumps(self.pending))
