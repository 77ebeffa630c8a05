"""Riding out faults, piece by piece: retries, the server's health, outage credit, presence, ack, 503 and 1013.

The whole story with real processes is tests/server/test_fault_injection.py; these tests pin each part down in one
process (issue "Survive the database and the other process").
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from meeple.server import health as health_module
from meeple.server.bots import BotPool
from meeple.server.clock import credit_outage, new_clock, pass_turn, turn_deadline
from meeple.server.db import PresenceRow, make_engine, migrate
from meeple.server.health import DATABASE, LISTEN, SETTLE, Health
from meeple.server.policy import SeatPolicy
from meeple.server.presence import STALE
from meeple.server.protocol import ClockSpec, CreateTable
from meeple.server.retry import is_outage, is_transient, retrying
from meeple.server.services import services_of
from meeple.server.tables import TableService
from tests.server.helpers import FRAMES, create, next_of, seed_where


def _error(orig: Exception) -> OperationalError:
    return OperationalError("SELECT 1", {}, orig)


class _Refused(Exception):
    """A connection refused (psycopg gives it no SQLSTATE)."""


def test_transient_errors_are_told_from_the_others() -> None:
    deadlock = _error(psycopg.errors.DeadlockDetected("deadlock detected"))
    lock_timeout = _error(psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"))
    shutdown = _error(psycopg.errors.AdminShutdown("terminating connection due to administrator command"))
    refused = _error(_Refused("connection refused"))
    assert all(is_transient(e) for e in (deadlock, lock_timeout, shutdown, refused))
    assert not is_outage(deadlock) and not is_outage(lock_timeout)  # the database is fine: lost a race
    assert is_outage(shutdown) and is_outage(refused)
    duplicate = IntegrityError("INSERT", {}, psycopg.errors.UniqueViolation("duplicate key"))
    assert not is_transient(duplicate) and not is_transient(ValueError("a bug"))


def test_retrying_rides_out_transient_errors_and_gives_up_after_its_budget() -> None:
    calls: list[int] = []
    outages: list[int] = []

    async def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise _error(_Refused("connection refused"))
        return "done"

    assert asyncio.run(retrying(flaky, "test", lambda: outages.append(1))) == "done"
    assert len(calls) == 3 and len(outages) == 2

    async def broken() -> None:
        raise _error(psycopg.errors.DeadlockDetected("deadlock detected"))

    start = time.monotonic()
    with pytest.raises(OperationalError):
        asyncio.run(retrying(broken, "test", budget=0.3))
    assert 0.1 < time.monotonic() - start < 2  # 50 ms, 100 ms, then the next wait would pass the budget

    async def bug() -> None:
        calls.append(1)
        raise ValueError("a bug")

    calls.clear()
    with pytest.raises(ValueError, match="a bug"):
        asyncio.run(retrying(bug, "test"))
    assert len(calls) == 1  # never retried


def test_health_records_outages_and_settles_after_them() -> None:
    now = [1000.0]
    health = Health(lambda: now[0])
    assert not health.degraded and health.settle_until() is None
    health.fail(DATABASE)
    now[0] = 1002.0
    health.fail(LISTEN)
    assert health.degraded and health.faults == [DATABASE, LISTEN]
    assert health.presence_cutoff(1002.0, STALE) == 1000.0 - STALE  # rows alive when the outage began stay alive
    now[0] = 1010.0
    assert health.ok(DATABASE) is None  # LISTEN still lost
    now[0] = 1012.0
    assert health.ok(LISTEN) == (1000.0, 1012.0)
    assert not health.degraded
    assert health.paused(990.0, 1100.0) == 12.0 and health.paused(1005.0, 1100.0) == 7.0
    assert health.settle_until() == 1012.0 + SETTLE
    now[0] = 1012.0 + SETTLE + 0.1
    assert health.settle_until() is None
    assert health.presence_cutoff(now[0], STALE) == now[0] - STALE


def test_a_clocks_running_turn_is_credited_with_an_outage_once() -> None:
    clock = new_clock(ClockSpec(initial=100, per_move=30), 2)
    pass_turn(clock, 0, now=1000.0)
    assert turn_deadline(clock) == 1030.0
    assert credit_outage(clock, 990.0, 1010.0)  # only the part inside the turn: 10 s
    assert turn_deadline(clock) == 1040.0
    assert not credit_outage(clock, 995.0, 1008.0)  # reported by the other process too: already credited
    assert credit_outage(clock, 1005.0, 1015.0)  # 5 s more
    assert turn_deadline(clock) == 1045.0
    pass_turn(clock, 1, now=1050.0)  # 50 s of turn, 15 of them the server's: 35 charged
    assert clock["banks"][0] == pytest.approx(65.0) and clock["paused"] == 0.0
    assert not credit_outage(new_clock(ClockSpec(initial=100), 2), 0.0, 10.0)  # no turn running


def _service(tmp_path: Any, now: list[float]) -> TableService:
    engine = make_engine(f"sqlite:///{tmp_path / 'server.db'}")
    migrate(engine)
    policy = SeatPolicy(min_grace=0.0)
    return TableService(engine, BotPool(0), process="me", allow_seed=True, now=lambda: now[0], policy=policy)


def test_a_process_back_from_an_outage_does_not_take_the_others_connections_for_dead(tmp_path: Any) -> None:
    now = [10_000.0]
    service = _service(tmp_path, now)
    service.health.now = lambda: now[0]
    table, _ = service.create(CreateTable(game="caprice", seats=["human", "human"], seed=1))
    with Session(service.engine) as s, s.begin():
        s.add(PresenceRow(table_id=table, seat=1, process="other", connections=1, seen_at=now[0]))
    service.health.fail(DATABASE)
    now[0] += 20  # an outage of 20 s: "other" could not refresh its row either
    service.health.ok(DATABASE)
    now[0] += 1
    assert service.heartbeat() == []  # settling: the row is not judged

    def other() -> int:
        with Session(service.engine) as s:
            return int(s.scalar(select(PresenceRow.connections).where(PresenceRow.process == "other")) or 0)

    assert other() == 1
    rows = service.list_rows()
    assert rows[0][2] == {1: True}  # still counted as connected
    now[0] += SETTLE
    assert service.heartbeat() == [table]  # now "other" is really silent: a dead process
    assert other() == 0


def test_the_heartbeat_writes_this_processs_own_counts_back(tmp_path: Any) -> None:
    """A process that was frozen finds its rows zeroed by the others (or a write of its own failed): it repairs them."""
    now = [10_000.0]
    service = _service(tmp_path, now)
    table, _ = service.create(CreateTable(game="caprice", seats=["human", "human"], seed=1))
    service.connections.change(table, 0, +1)  # a connection whose write failed: only the heartbeat writes it
    service.connections.change(table, 1, +1)
    service.connections.change(table, 1, -1)  # opened and closed: a zero to write, once

    def rows() -> dict[int, tuple[int, float]]:
        with Session(service.engine) as s:
            found = s.execute(select(PresenceRow.seat, PresenceRow.connections, PresenceRow.seen_at))
            return {seat: (n, at) for seat, n, at in found}

    service.heartbeat()
    assert rows() == {0: (1, now[0]), 1: (0, now[0])}
    with Session(service.engine) as s, s.begin():  # another process took this one for dead
        s.execute(update(PresenceRow).values(connections=0))
    now[0] += 5
    service.heartbeat()
    assert rows() == {0: (1, now[0]), 1: (0, 10_000.0)}  # seat 0 is back; seat 1's zero is not written again


def test_a_disconnected_seats_grace_excludes_the_servers_outage(tmp_path: Any) -> None:
    now = [10_000.0]
    service = _service(tmp_path, now)
    service.health.now = lambda: now[0]
    table, _ = service.create(CreateTable(game="caprice", seats=["human", "human"], seed=1, grace=1))
    live = asyncio.run(service.get(table))
    seat = live.mover()
    assert seat is not None and not live.seats[seat].connected
    live.seats[seat].arrived = now[0] - 30  # it came, then left: its grace runs (a seat that never came has none)
    start = live.away_until(seat, now[0])
    service.health.fail(DATABASE)
    now[0] += 12
    service.health.ok(DATABASE)
    assert live.away_until(seat, now[0]) == pytest.approx(start + 12)
    assert live.deadline(now[0]) == pytest.approx(now[0] + SETTLE)  # and nothing falls due while settling


def _both(ws: Any) -> dict[str, dict[str, Any]]:
    """The next ``state`` frame and the next ``ack``, whichever comes first (each checked against its model)."""
    got: dict[str, dict[str, Any]] = {}
    while len(got) < 2:
        message = ws.receive_json()
        FRAMES[message["type"]].model_validate(message)
        if message["type"] in ("state", "ack"):
            got.setdefault(message["type"], message)
    return got


def test_a_move_is_acknowledged_by_an_ack_naming_it_also_when_resent(client: TestClient) -> None:
    table, tokens = create(client, "caprice", ["human", "human"], seed=seed_where("caprice", 2, 0))
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        s = next_of(ws)
        move = {"type": "move", "version": s["version"], "action": s["legal_actions"][0]["code"], "move_id": "m1"}
        ws.send_json(move)
        got = _both(ws)  # the new state and the ack, in either order
        ack = got["ack"]
        assert ack == {"type": "ack", "move_id": "m1", "version": got["state"]["version"]}
        assert ack["version"] == s["version"] + 1
        ws.send_json(move)  # resent after a lost connection, say: not applied again, acknowledged again
        again = _both(ws)
        assert again["ack"] == ack and again["state"]["version"] == ack["version"]
        ws.send_json({"type": "ping"})
        assert next_of(ws, "pong") == {"type": "pong"}


def test_a_deadlock_is_retried_inside_the_server_and_the_move_acknowledged(client: TestClient, monkeypatch) -> None:
    table, tokens = create(client, "caprice", ["human", "human"], seed=seed_where("caprice", 2, 0))
    real = TableService._finish_change
    failures = [2]

    def deadlocking(self: TableService, *args: Any) -> None:
        if failures[0]:
            failures[0] -= 1
            raise _error(psycopg.errors.DeadlockDetected("deadlock detected"))
        real(self, *args)

    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        s = next_of(ws)
        monkeypatch.setattr(TableService, "_finish_change", deadlocking)
        ws.send_json({"type": "move", "version": s["version"], "action": s["legal_actions"][0]["code"], "move_id": "x"})
        got = _both(ws)
        assert got["state"]["version"] == s["version"] + 1 and got["ack"]["move_id"] == "x"
    assert failures == [0]


def test_while_the_database_is_down_rest_answers_503_and_websockets_close_1013(client: TestClient, monkeypatch) -> None:
    table, tokens = create(client, "caprice", ["human", "human"], seed=seed_where("caprice", 2, 0))

    def down(*args: Any, **kwargs: Any) -> Any:
        raise _error(_Refused("connection refused"))

    monkeypatch.setattr(TableService, "list_rows", down)
    monkeypatch.setattr(TableService, "seat_of_token", down)
    answer = client.get("/api/tables")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1013
    service = services_of(client.app).tables
    assert service.degraded
    ready = client.get("/readyz")
    assert ready.status_code == 503 and "database" in ready.text


def test_a_bot_loop_that_meets_a_database_error_goes_on(client: TestClient, monkeypatch) -> None:
    real = TableService._tx_move
    failures = [3]

    def flaky(self: TableService, live: Any, seat: int, action: Any, version: int, move_id: Any, by_bot: bool) -> bool:
        if by_bot and failures[0]:
            failures[0] -= 1
            raise _error(_Refused("connection refused"))
        return real(self, live, seat, action, version, move_id, by_bot)

    monkeypatch.setattr(health_module, "SETTLE", 0.0)
    monkeypatch.setattr("meeple.server.retry.RETRY_BUDGET", 0.1)
    monkeypatch.setattr(TableService, "_tx_move", flaky)
    table, _ = create(client, "caprice", ["bot:random", "bot:random"], seed=3)
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots stopped after a database error"
        time.sleep(0.05)
    assert failures == [0]


def test_the_terminal_resends_a_move_the_server_could_not_commit_and_drops_a_refused_one() -> None:
    from rich.console import Console

    from meeple.cli.online import OnlineSession

    class Socket:
        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        def send(self, text: str) -> None:
            import json

            self.sent.append(json.loads(text))

    socket = Socket()
    session = OnlineSession(Console(quiet=True), input, socket)
    move = {"type": "move", "version": 4, "action": 2, "move_id": "abc"}
    session.unacked = dict(move)
    session._error({"type": "error", "code": "server_error", "message": "try again", "move_id": "abc"})
    assert socket.sent == [move] and session.unacked == move  # the same move, the same move_id, still kept
    session._error({"type": "error", "code": "server_error", "message": "try again", "move_id": "other"})
    assert len(socket.sent) == 1  # not about this move
    session._error({"type": "error", "code": "stale_version", "message": "moved on", "move_id": "abc"})
    assert session.unacked is None and len(socket.sent) == 1  # refused: the next state asks again
