"""Quick match and chat with two ``meeple serve`` processes on one PostgreSQL (issue #41, items 16 and 17).

Real processes, Debian's PostgreSQL started by the test: quick match for every (game, player count, rated) kind the
lobby offers, asked of one process and then of the other; chat lines sent in bursts by several writers connected to
both processes, read by readers connected to both.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.registry import load_game, registered_games
from meeple.server.lobby import quickmatch_lock
from tests.server.helpers import ServerProcess, postgres

GAMES = ("citadels", "capitol", "capital_lux_2", "caprice")
"""The four games the lobby offers (other tests may register toy games in the same process)."""


def _kinds() -> list[tuple[str, int, bool]]:
    """Every (game, player count, rated) a quick match may be asked for: 30 with the four games."""
    assert set(GAMES) <= set(registered_games())
    out = []
    for game in GAMES:
        for players in range(1, 10):
            try:
                if load_game(game, players=players).num_players != players:
                    continue
            except MeepleError:
                continue
            out += [(game, players, False), (game, players, True)]
    return out


def _post(url: str, body: dict[str, Any], cookie: str | None = None) -> tuple[int, Any, str | None]:
    """POST JSON; return the status, the JSON answer and the session cookie the answer sets (if any)."""
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = f"meeple_session={cookie}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, text, cookies = answer.status, answer.read(), answer.headers.get_all("set-cookie") or []
    except urllib.error.HTTPError as exc:
        status, text, cookies = exc.code, exc.read(), []
    session = next((c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("meeple_session=")), None)
    return status, json.loads(text), session


def test_the_quick_match_lock_key_is_a_signed_32_bit_value_for_every_kind() -> None:
    for game, players, rated in _kinds():
        key = f"{game}/{players}" + ("/rated" if rated else "")
        assert -(2**31) <= quickmatch_lock(key) < 2**31, key


def test_quick_match_of_every_kind_meets_across_two_processes_on_postgresql(tmp_path: Path) -> None:
    """Each kind asked of process A then of process B: both seated at one table (a solo game: one table each; a
    rated solo game: 422 as on SQLite), never a server error."""
    kinds = _kinds()
    assert len(kinds) == 30
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            sessions = []
            for server, name in ((a, "ann"), (b, "bob")):
                status, _, session = _post(
                    f"{server.url}/api/accounts", {"username": name, "password": "quick-match-of-every-kind"}
                )
                assert status == 201 and session
                sessions.append(session)
            failures = []
            for game, players, rated in kinds:
                answers = []
                # the guests' names are not the accounts' (a guest may not take a username: issue #44, item 9)
                for server, who, session in ((a, "Amy", sessions[0]), (b, "Ben", sessions[1])):
                    body = {"game": game, "players": players, "rated": rated, **({} if rated else {"name": who})}
                    answers.append(_post(f"{server.url}/api/quickmatch", body, session if rated else None)[:2])
                statuses = [status for status, _ in answers]
                if players == 1 and rated:
                    expected = [422, 422]  # a rated table needs open seats: refused, not a server error
                else:
                    expected = [201, 201]
                if statuses != expected:
                    failures.append((game, players, rated, answers))
                    continue
                if players > 1:
                    (_, first), (_, second) = answers
                    if (second["table"], first["seat"], second["seat"]) != (first["table"], 0, 1):
                        failures.append((game, players, rated, answers))
            assert not failures, failures
            for log in ("a.log", "b.log"):
                assert "Traceback" not in (tmp_path / log).read_text(errors="replace")
        finally:
            a.stop()
            b.stop()


class _Reader(threading.Thread):
    """A WebSocket at a table that keeps every chat frame it is sent, and sends its own ``lines`` in one burst."""

    def __init__(self, url: str, lines: list[str], start: threading.Event) -> None:
        super().__init__(daemon=True)
        self.url, self.lines, self.go = url, lines, start
        self.ready, self.done = threading.Event(), threading.Event()
        self.got: list[tuple[int | None, str]] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        from websockets.sync.client import connect

        try:
            with connect(self.url, open_timeout=30, max_size=None) as ws:
                while json.loads(ws.recv(timeout=30))["type"] != "state":
                    pass
                self.ready.set()
                self.go.wait(60)
                for text in self.lines:  # a burst: no waiting between lines
                    ws.send(json.dumps({"type": "chat", "text": text}))
                while not self.done.is_set():
                    try:
                        message = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if message["type"] == "chat":
                        self.got.append((message["seat"], message["text"]))
                    elif message["type"] == "error":
                        raise AssertionError(message)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc


def test_every_chat_line_reaches_every_reader_once_and_in_order_across_two_processes(tmp_path: Path) -> None:
    """Eight writers (seats and spectators, half on each process) send 25 lines each in bursts; twelve connections
    (the writers and four silent readers) must each receive the 200 stored lines exactly once, in the stored order."""
    writers, lines_each = 8, 25
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            status, created, _ = _post(f"{a.url}/api/tables", {"game": "caprice", "seats": ["human", "human"]})
            assert status == 201
            table = created["table"]
            tokens = [s["token"] for s in created["seats"]]
            go = threading.Event()
            clients = []
            for k in range(writers + 4):
                server = (a, b)[k % 2]
                query = f"?token={tokens[k % 2]}" if k < 4 else ""  # two seats and spectators, on both processes
                url = server.url.replace("http", "ws", 1) + f"/api/tables/{table}/ws{query}"
                lines = [f"w{k}-{i}" for i in range(lines_each)] if k < writers else []
                clients.append(_Reader(url, lines, go))
            for client in clients:
                client.start()
            for client in clients:
                assert client.ready.wait(60), client.error
            go.set()
            total = writers * lines_each
            stored = _stored_chat(db, table, total, 60)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and any(len(c.got) < total for c in clients):
                time.sleep(0.2)
            time.sleep(1.0)  # a line sent twice would come now
            for client in clients:
                client.done.set()
                client.join(10)
            for k, client in enumerate(clients):
                assert client.error is None, client.error
                missing = len([line for line in stored if line not in client.got])
                assert client.got == stored, f"connection {k}: {len(client.got)} lines, {missing} missing"
        finally:
            a.stop()
            b.stop()


def _stored_chat(db: str, table: str, total: int, seconds: float) -> list[tuple[int | None, str]]:
    """The table's chat lines as stored, in id order, once all ``total`` are there."""
    import psycopg

    conninfo = db.replace("postgresql+psycopg://", "postgresql://")
    deadline = time.monotonic() + seconds
    while True:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            rows = conn.execute("SELECT seat, text FROM chat WHERE table_id = %s ORDER BY id", (table,)).fetchall()
        if len(rows) >= total or time.monotonic() > deadline:
            assert len(rows) == total, f"{len(rows)} of {total} lines stored"
            return [(seat, text) for seat, text in rows]
        time.sleep(0.2)
