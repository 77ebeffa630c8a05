"""Helpers of the server tests: create tables, read frames, play random legal moves, run real processes."""

from __future__ import annotations

import contextlib
import json
import os
import random
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
from meeple.server.protocol import ChatLine, ErrorMessage, HelloMessage, StateMessage


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


FRAMES = {"hello": HelloMessage, "state": StateMessage, "error": ErrorMessage, "chat": ChatLine}


def next_of(ws: Any, kind: str = "state") -> dict[str, Any]:
    """The next message of type ``kind`` (others are skipped); every message read must match its protocol model."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        FRAMES[message["type"]].model_validate(message)
        if message["type"] == kind:
            return message


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


def http_json(url: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST ``body``) a JSON URL."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
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
        options: tuple[str, ...] = ("--allow-bot-specs", "--allow-bot-tables", "--no-rate-limits"),
    ) -> None:
        """``options``: extra ``meeple serve`` options (by default: any bot, bot tables, no quotas)."""
        self.options = options
        self.db = db
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
        self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the server exited ({self.proc.returncode}); see {self.log}"
            with contextlib.suppress(OSError):
                http_json(f"{self.url}/api/games")
                return self
            time.sleep(0.1)
        raise AssertionError("the server did not start within 60 s")

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


def _pg_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if found:
        return str(found[-1])
    path = shutil.which(name)
    assert path, f"PostgreSQL's {name} is not installed (Debian: apt-get install postgresql)"
    return path


@contextlib.contextmanager
def postgres(base: Path) -> Iterator[str]:
    """Start a throw-away PostgreSQL (Debian's package); yield its SQLAlchemy URL; stop it and remove its files.

    As root, the cluster lives in a fresh directory of ``/tmp`` owned by the ``postgres`` user (PostgreSQL refuses
    to run as root, and pytest's own temporary directories are closed to other users); else in ``base``.
    """
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        base = Path(tempfile.mkdtemp(prefix="meeple-pg-"))
        shutil.chown(base, "postgres")
    data, sockets = base / "pgdata", base / "pgsock"
    port = free_port()

    def run(*command: str) -> None:
        done = subprocess.run([*as_user, *command], capture_output=True, text=True)
        assert done.returncode == 0, f"{command[0]} failed: {done.stdout}{done.stderr}"

    try:
        run("mkdir", "-p", str(sockets))
        run(_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust")
        options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off"
        run(_pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(base / "pg.log"), "-w", "start")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, _pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        if as_user:
            shutil.rmtree(base, ignore_errors=True)


class RandomSeat(threading.Thread):
    """A WebSocket client that plays random legal moves for one seat, remembering which moves were acknowledged.

    A move is acknowledged when a ``state`` frame with a higher version arrives: the server commits before it
    broadcasts, so an acknowledged move is in the database.
    """

    def __init__(self, url: str, table: str, token: str | None, seed: int, pause: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.ws_url = f"{url.replace('http', 'ws', 1)}/api/tables/{table}/ws" + (f"?token={token}" if token else "")
        self.rng = random.Random(seed)
        self.pause = pause
        self.acked: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.finished = threading.Event()
        self.closed = False

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        try:
            with connect(self.ws_url, open_timeout=30) as ws:
                self._play(ws)
        except (ConnectionClosed, OSError, TimeoutError):
            self.closed = True

    def _play(self, ws: Any) -> None:
        sent: tuple[str, int] | None = None
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "error":
                self.errors.append(message)
                sent = None
                continue
            if message["type"] != "state":
                continue
            self.frames.append(message)
            if sent is not None and message["version"] > sent[1]:
                self.acked.append(sent[0])
                sent = None
            if message["status"] == "finished":
                self.finished.set()
                return
            if message["legal_actions"] and sent is None:
                if self.pause:
                    time.sleep(self.pause)
                action = self.rng.choice(message["legal_actions"])
                move_id = f"{self.rng.getrandbits(48):x}"
                move = {"type": "move", "version": message["version"], "action": action["code"], "move_id": move_id}
                ws.send(json.dumps(move))
                sent = (move_id, message["version"])
