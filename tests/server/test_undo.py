"""Undo at a server's table (issue #43 item 5): a seat takes back its own moves of the running turn, never across a
reveal; the undo is an event of the log, so a restart and another process (PostgreSQL) reach the same position; the
readers whose view changed are told (``undone``), the others learn nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.core.state import SPECTATOR
from meeple.server.bots import BotPool
from meeple.server.db import EventRow, make_engine, migrate
from meeple.server.hub import Connection, state_frames
from meeple.server.live import LiveTable, MoveRefused
from meeple.server.protocol import CreateTable
from meeple.server.tables import TableService
from meeple.server.undo import undo_count
from tests.server.helpers import acked, create, next_of, postgres


def _portal(client: TestClient) -> Any:
    """The test client's event loop portal (the app's coroutines run there)."""
    assert client.portal is not None
    return client.portal


def _code(live: LiveTable, kind: str) -> int | None:
    """The code of the seat to move's first legal action of type ``kind``, or None."""
    for action in live.state.legal_actions():
        if action.to_json()["type"] == kind:
            return int(live.state.game.codec.encode(action))
    return None


async def _play_until(service: TableService, live: LiveTable, kind: str, avoid: tuple[str, ...] = ()) -> int:
    """Play the first legal action (not of a type in ``avoid``) until the seat to move may play ``kind``; its seat."""
    for _ in range(500):
        if _code(live, kind) is not None:
            return live.state.current_player()
        seat = live.state.current_player()
        every = live.state.legal_actions()
        legal = [a for a in every if a.to_json()["type"] not in avoid] or every
        await service.submit(live, seat, live.state.game.codec.encode(legal[0]), len(live.log_of(seat)))
    raise AssertionError(f"no {kind} within 500 moves")


def test_a_seat_takes_back_its_move_and_the_others_see_it_taken_back(client: TestClient) -> None:
    table, tokens = create(client, "citadels", ["human"] * 4, params={"players": 4}, seed=3)
    service: TableService = client.app.state.meeple["service"]  # type: ignore[attr-defined]
    portal = _portal(client)
    live = portal.call(service.get, table)
    seat = portal.call(_play_until, service, live, "take_gold")
    other = (seat + 1) % 4
    gold = live.state.observation(seat)["seats"][seat]["gold"]
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[seat]}") as mine,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[other]}") as theirs,
    ):
        first = next_of(mine)
        seen = next_of(theirs)
        log = [tuple(line) for line in seen["log"]]
        gold_move = {"type": "move", "version": first["version"], "action": _code(live, "take_gold"), "move_id": "g"}
        mine.send_json(gold_move)
        acked(mine, "g")
        after_move = next_of(theirs)
        log += [tuple(line) for line in after_move["log"]]
        assert log[-1] == (seat, "take 2 gold")
        mine.send_json({"type": "undo", "version": after_move["version"], "move_id": "u1"})
        acked(mine, "u1")
        assert next_of(theirs, "undone") == {"type": "undone", "seat": seat}
        back = next_of(theirs)
        assert back["version"] == seen["version"] and back["log_start"] <= len(log) - 1
        log = log[: back["log_start"]] + [tuple(line) for line in back["log"]]
        assert log == [tuple(line) for line in live.state.history_texts(other)]  # the taken-back line is gone
        assert back["observation"]["seats"][seat]["gold"] == gold
        # nothing left to take back in this turn: refused with the engine's reason, nothing changed
        mine.send_json({"type": "undo", "version": back["version"], "move_id": "u2"})
        refused = next_of(mine, "error")
        assert refused["code"] == "cannot_undo" and "no move to take back" in refused["message"]
        # a card drawn is a reveal: no undo across it
        draw = {"type": "move", "version": back["version"], "action": _code(live, "draw_cards"), "move_id": "d"}
        mine.send_json(draw)
        acked(mine, "d")
        mine.send_json({"type": "undo", "version": len(live.log_of(seat)), "move_id": "u3"})
        refused = next_of(mine, "error")
        assert refused["code"] == "cannot_undo" and "revealed" in refused["message"]
        # another seat may not undo (not its turn)
        theirs.send_json({"type": "undo", "version": len(live.log_of(other)), "move_id": "u4"})
        assert next_of(theirs, "error")["code"] in ("not_your_turn", "cannot_undo")


def test_an_undo_in_french_and_a_repeated_undo_id(client: TestClient) -> None:
    """Caprice: a piece placed, then the move step: Undo goes back to the placement; sent twice with one id, it is
    applied once; a second undo (nothing left in the turn) is refused in the connection's language."""
    table, tokens = create(client, "caprice", ["human", "human"], seed=4)
    service: TableService = client.app.state.meeple["service"]  # type: ignore[attr-defined]
    live = _portal(client).call(service.get, table)
    seat = _portal(client).call(_play_until, service, live, "move")
    placed = len(live.state.history)
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[seat]}&lang=fr") as ws:
        version = next_of(ws)["version"]
        for _ in range(2):  # the same undo twice: applied once, acknowledged both times
            ws.send_json({"type": "undo", "version": version, "move_id": "same"})
            acked(ws, "same")
        assert len(live.state.history) == placed - 1 and _code(live, "place") is not None
        ws.send_json({"type": "undo", "version": len(live.log_of(seat)), "move_id": "x"})
        refused = next_of(ws, "error")
        assert refused["code"] == "cannot_undo" and "aucun coup" in refused["message"], refused
    with Session(service.engine) as s:
        undos = [e for e in s.scalars(select(EventRow).where(EventRow.table_id == table)) if undo_count(e.action)]
    assert len(undos) == 1 and undos[0].move_id == "same"


async def _undo_between_processes(db: str) -> None:
    engine = make_engine(db)
    migrate(engine)
    a = TableService(engine, BotPool(0), process="a", allow_seed=True)
    b = TableService(engine, BotPool(0), process="b", allow_seed=True)
    table, _tokens = a.create(CreateTable(game="citadels", seats=["human"] * 4, params={"players": 4}, seed=3))
    live = await a.get(table)
    seat = await _play_until(a, live, "take_gold")
    await a.submit(live, seat, _code(live, "take_gold") or 0, len(live.log_of(seat)))
    cached = await b.get(table)  # another process holds the table before the undo
    assert cached.state.history == live.state.history
    version = len(live.log_of(seat))
    with pytest.raises(MoveRefused) as stale:
        await a.undo(live, seat, version - 1, "old")
    assert stale.value.code == "stale_version"
    assert await a.undo(live, seat, version, "u")
    await b.sync(cached)  # what a notification (or the next use) does there
    fresh = await TableService(engine, BotPool(0), process="c", allow_seed=True).get(table)  # a restart
    for other in (cached, fresh):
        assert other.state.history == live.state.history
        assert other.by_bot == live.by_bot and other.version == live.version
        assert [(t.seat, dict(t.kept), t.seen) for t in other.takebacks] == [
            (t.seat, dict(t.kept), t.seen) for t in live.takebacks
        ]
    # the game goes on from the position taken back, in every process
    await a.submit(live, seat, _code(live, "draw_cards") or 0, len(live.log_of(seat)))
    await b.sync(cached)
    assert cached.state.history == live.state.history
    engine.dispose()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_an_undo_is_an_event_that_a_restart_and_another_process_replay(tmp_path: Path, database: str) -> None:
    if database == "sqlite":
        asyncio.run(_undo_between_processes(f"sqlite:///{tmp_path / 'server.db'}"))
        return
    with postgres(tmp_path / "pg") as url:
        asyncio.run(_undo_between_processes(url))


async def _hidden_undo(tmp_path: Path) -> tuple[LiveTable, int, dict[str, Any]]:
    engine = make_engine(f"sqlite:///{tmp_path / 'server.db'}")
    migrate(engine)
    service = TableService(engine, BotPool(0), allow_seed=True)
    table, _ = service.create(CreateTable(game="capitol", seats=["human"] * 3, params={"players": 3}, seed=5))
    live = await service.get(table)
    seat = await _play_until(service, live, "add_to_bid", avoid=("seal_bid", "add_to_bid"))
    for _ in range(2):  # two cards into the sealed bid, one at a time: hidden steps for the other seats
        await service.submit(live, seat, _code(live, "add_to_bid") or 0, len(live.log_of(seat)))
    conns = {p: Connection(None, None if p == SPECTATOR else p) for p in (*range(3), SPECTATOR)}
    state_frames(live, list(conns.values()), force=set(conns.values()))
    for conn in conns.values():
        conn.frame, conn.pending = None, type(conn.pending)()
    before = {p: live.state.history_texts(p) for p in conns}
    assert await service.undo(live, seat, len(live.log_of(seat)), "u")
    state_frames(live, list(conns.values()))
    sent = {p: [*conn.pending, *([conn.frame] if conn.frame else [])] for p, conn in conns.items()}
    engine.dispose()
    return live, seat, {"before": before, "sent": sent}


def test_an_undo_hidden_from_a_seat_tells_it_nothing(tmp_path: Path) -> None:
    """Capitol: a sealed bid entered card by card; taking the second card back changes nothing the others see, so
    they are sent nothing at all (no ``undone``, no frame, no log note): the number of hidden steps stays hidden."""
    live, seat, found = asyncio.run(_hidden_undo(tmp_path))
    note = live.takebacks[-1]
    assert seat in note.seen
    for p, messages in found["sent"].items():
        if p == seat:
            assert {"type": "undone", "seat": seat} in messages
            continue
        assert p not in note.seen and messages == [], (p, messages)
        assert live.state.history_texts(p) == found["before"][p]


def test_the_terminal_takes_its_move_back_at_a_servers_table(tmp_path: Path) -> None:
    """``meeple play --server``: "undo" at a decision sends the undo; the server takes the move back (an undo event
    with the terminal's id) or refuses with the engine's reason, and the game goes on to its end."""
    import subprocess
    import sys

    from tests.server.helpers import ServerProcess, http_json, seed_where

    db = f"sqlite:///{tmp_path / 'server.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log").start()
    try:
        body = {"game": "caprice", "seats": ["human", "bot:random"], "seed": seed_where("caprice", 2, 0)}
        answer = http_json(f"{server.url}/api/tables", body)
        table, token = answer["table"], answer["seats"][0]["token"]
        command = [sys.executable, "-m", "meeple", "play", "--server", server.url, "--table", table, "--token", token]
        typed = "".join("undo\n" if k % 3 == 2 else "1\n" for k in range(600))
        done = subprocess.run(command, input=typed, capture_output=True, text=True, timeout=240)
        out = done.stdout + done.stderr
        assert done.returncode == 0, out[-3000:]
        assert "Taken back: you are at your previous decision again." in out and "The game is over" in out
        engine = make_engine(db)
        with Session(engine) as s:
            events = list(s.scalars(select(EventRow).where(EventRow.table_id == table)))
        engine.dispose()
        undos = [e for e in events if undo_count(e.action)]
        assert undos and all(e.seat == 0 and e.move_id for e in undos)
    finally:
        server.stop()
