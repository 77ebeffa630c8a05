"""The server as real processes: SIGKILL in the middle of many games, two processes on one PostgreSQL, and the
terminal client at a server's table (issue "Play online": crash safety, more than one process, the terminal).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.core.records import replay
from meeple.core.state import SPECTATOR
from meeple.server.db import EventRow, TableRow, make_engine
from tests.server.helpers import RandomSeat, ServerProcess, http_json, postgres, seed_where

GAMES = [("citadels", 4), ("capitol", 3), ("capital_lux_2", 2), ("caprice", 3)]


def _create(url: str, game: str, seats: list[str], seed: int, **extra: Any) -> tuple[str, dict[int, str]]:
    body = {"game": game, "params": {"players": len(seats)}, "seats": seats, "seed": seed, **extra}
    data = http_json(f"{url}/api/tables", body)
    return data["table"], {s["seat"]: s["token"] for s in data["seats"]}


def _log_of(db: str) -> dict[str, tuple[TableRow, list[EventRow]]]:
    engine = make_engine(db)
    try:
        with Session(engine) as s:
            rows = list(s.scalars(select(TableRow)))
            out = {}
            for row in rows:
                events = list(s.scalars(select(EventRow).where(EventRow.table_id == row.id).order_by(EventRow.version)))
                out[row.id] = (row, events)
            s.expunge_all()
            return out
    finally:
        engine.dispose()


def _rebuild(row: TableRow, events: list[EventRow]) -> Any:
    assert [e.version for e in events] == list(range(1, row.version + 1)), "the event log has a gap or a repeat"
    return replay(row.game, row.params, row.seed, [e.action for e in events])


def test_sigkill_in_the_middle_of_many_games_loses_no_committed_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log").start()
    humans: list[tuple[str, RandomSeat]] = []
    bot_tables = []
    for i, (game, n) in enumerate(GAMES * 3):
        seed = seed_where(game, n, 0) + i
        if i % 2:
            table, _ = _create(server.url, game, ["bot:random"] * n, seed)
            bot_tables.append(table)
        else:
            table, tokens = _create(server.url, game, ["human"] + ["bot:random"] * (n - 1), seed)
            seat = RandomSeat(server.url, table, tokens[0], seed=i, pause=0.01)
            seat.start()
            humans.append((table, seat))
    time.sleep(3)
    server.kill()
    for _, seat in humans:
        seat.join(30)
    before = _log_of(db)
    states = {t: _rebuild(row, events) for t, (row, events) in before.items()}
    assert sum(len(e) for _, e in before.values()) > 100, "too few moves were played before the kill"
    for table, seat in humans:  # every acknowledged move is in the log, once
        ids = [e.move_id for e in before[table][1] if e.move_id is not None]
        assert len(ids) == len(set(ids))
        assert set(seat.acked) <= set(ids)
    server = ServerProcess(db, port=server.port, log=tmp_path / "server.log").start()
    try:
        for table, (row, _events) in before.items():
            view = http_json(f"{server.url}/api/tables/{table}")
            state = states[table]
            waiting_for_human = row.status == "live" and not state.is_terminal() and state.current_player() == 0
            if table not in bot_tables and waiting_for_human:  # nothing may move: the table resumes exactly
                assert view["version"] == len(state.history_texts(SPECTATOR))
                assert view["observation"] == json.loads(json.dumps(state.observation(None)))
        again = [RandomSeat(server.url, t, None, seed=0) for t in bot_tables]  # bots resume by themselves
        for seat in again:
            seat.start()
        for seat in again:
            seat.join(120)
            assert seat.finished.is_set(), "a bot table did not resume after the restart"
        after = _log_of(db)
        for table, (_row, events) in before.items():  # the committed prefix is unchanged
            later = after[table][1]
            assert [(e.version, e.action) for e in later[: len(events)]] == [(e.version, e.action) for e in events]
            _rebuild(after[table][0], later)
    finally:
        server.stop()


def test_reconnect_after_a_restart_continues_the_game(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log").start()
    seed = seed_where("citadels", 3, 0)
    table, tokens = _create(server.url, "citadels", ["human", "bot:random", "bot:random"], seed)
    first = RandomSeat(server.url, table, tokens[0], seed=1, pause=0.02)
    first.start()
    time.sleep(2)
    server.kill()
    first.join(30)
    assert first.closed and first.frames
    server = ServerProcess(db, port=server.port, log=tmp_path / "server.log").start()
    try:
        second = RandomSeat(server.url, table, tokens[0], seed=2)
        second.start()
        second.join(120)
        assert second.finished.is_set()
        assert second.frames[0]["log_start"] == 0
        assert second.frames[0]["version"] >= first.frames[-1]["version"]
        record = http_json(f"{server.url}/api/tables/{table}/record")
        assert len(record["actions"]) > 0 and record["returns"]
    finally:
        server.stop()


def test_two_processes_serve_the_same_tables_through_postgresql(tmp_path: Path) -> None:
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            seed = seed_where("capitol", 3, 0)
            table, tokens = _create(a.url, "capitol", ["human", "human", "bot:random"], seed)
            watch_a, watch_b = RandomSeat(a.url, table, None, 0), RandomSeat(b.url, table, None, 0)
            seat0, seat1 = RandomSeat(a.url, table, tokens[0], 1), RandomSeat(b.url, table, tokens[1], 2)
            for client in (watch_a, watch_b, seat0, seat1):
                client.start()
            for client in (watch_a, watch_b, seat0, seat1):
                client.join(240)
                assert client.finished.is_set(), "a client did not see the end of the game"
            assert watch_a.frames[-1]["observation"] == watch_b.frames[-1]["observation"]
            assert http_json(f"{a.url}/api/tables/{table}/record") == http_json(f"{b.url}/api/tables/{table}/record")
            row, events = _log_of(db)[table]
            state = _rebuild(row, events)
            assert state.is_terminal() and watch_a.frames[-1]["returns"] == state.returns()
            assert {e.seat for e in events if not e.by_bot} == {0, 1}
            _race(a, b, tmp_path)
        finally:
            a.stop()
            b.stop()


def _race(a: ServerProcess, b: ServerProcess, tmp_path: Path) -> None:
    """One seat sends the same move to both processes at once, many times: exactly one of each pair applies."""
    from websockets.sync.client import connect

    seed = seed_where("caprice", 2, 0)
    table, tokens = _create(a.url, "caprice", ["human", "bot:random"], seed)
    path = f"/api/tables/{table}/ws?token={tokens[0]}"
    with connect(a.url.replace("http", "ws") + path) as wa, connect(b.url.replace("http", "ws") + path) as wb:
        frames: dict[Any, dict[str, Any]] = {}

        def latest(ws: Any, at_least: int) -> dict[str, Any]:
            while True:
                message = json.loads(ws.recv(timeout=60))
                if message["type"] == "state":
                    frames[ws] = message
                    if message["version"] >= at_least and (message["legal_actions"] or message["status"] != "live"):
                        return message

        state = latest(wa, 0)
        latest(wb, state["version"])
        pairs = 0
        while state["status"] == "live" and pairs < 10:
            code = state["legal_actions"][0]["code"]
            barrier = threading.Barrier(2)

            def send(
                ws: Any, tag: str, version: int = state["version"], code: int = code, barrier: Any = barrier
            ) -> None:
                barrier.wait()
                ws.send(json.dumps({"type": "move", "version": version, "action": code, "move_id": f"{tag}{version}"}))

            threads = [threading.Thread(target=send, args=(ws, tag)) for ws, tag in ((wa, "a"), (wb, "b"))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            state = latest(wa, state["version"] + 1)
            latest(wb, state["version"])
            pairs += 1
    row, events = _log_of(a.db)[table]
    mine = [e for e in events if e.seat == 0]
    assert len({e.move_id[1:] for e in mine if e.move_id}) == len([e for e in mine if e.move_id]), (
        "a move applied twice"
    )
    assert pairs >= 3


def test_the_terminal_plays_a_seat_of_a_servers_table(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", log=tmp_path / "server.log").start()
    try:
        seed = seed_where("caprice", 2, 0)
        table, tokens = _create(server.url, "caprice", ["human", "bot:random"], seed)
        command = [sys.executable, "-m", "meeple", "play", "--server", server.url, "--table", table]
        done = subprocess.run(
            [*command, "--token", tokens[0]], input="1\n" * 400, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "you are seat 0" in done.stdout and "The game is over" in done.stdout
        assert http_json(f"{server.url}/api/tables/{table}")["status"] == "finished"
        watch = subprocess.run(command, input="", capture_output=True, text=True, timeout=60)
        assert watch.returncode == 0 and "you are a spectator" in watch.stdout
        bad = subprocess.run([*command, "--token", "nope"], capture_output=True, text=True, timeout=60)
        assert bad.returncode == 1 and "refused" in bad.stderr + bad.stdout
    finally:
        server.stop()


def test_the_terminal_reconnects_after_its_server_restarts_and_finishes_the_game(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log").start()
    seed = seed_where("citadels", 4, 0)
    table, tokens = _create(server.url, "citadels", ["human", "bot:random", "bot:random", "bot:random"], seed)
    command = [sys.executable, "-m", "meeple", "play", "--server", server.url, "--table", table, "--token", tokens[0]]
    terminal = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert terminal.stdin is not None and terminal.stdout is not None

    def type_moves() -> None:  # a player typing "1" every 50 ms
        with contextlib.suppress(OSError, ValueError):  # the terminal is done: its input is closed
            for _ in range(3000):
                terminal.stdin.write(b"1\n")
                terminal.stdin.flush()
                time.sleep(0.05)

    typing = threading.Thread(target=type_moves, daemon=True)
    typing.start()
    try:
        deadline = time.monotonic() + 120  # the terminal has connected and played (a loaded machine starts it slowly)
        while not any(e.move_id for e in _log_of(db)[table][1]) and time.monotonic() < deadline:
            time.sleep(0.2)
        server.kill()  # mid-game: the terminal must not give up
        time.sleep(1)
        server = ServerProcess(db, port=server.port, log=tmp_path / "server.log").start()
        out, _ = terminal.communicate(timeout=240)
    finally:
        terminal.kill()
        server.stop()
    text = out.decode(errors="replace")
    assert terminal.returncode == 0, text[-3000:]
    assert "Connection lost; reconnecting" in text and "The game is over" in text
    events = _log_of(db)[table][1]
    ids = [e.move_id for e in events if e.move_id is not None]
    assert len(ids) == len(set(ids)) and len(ids) > 5  # the terminal's moves, each once
