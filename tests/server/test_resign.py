"""Resign and abort (issue #44, item 4): ``POST /api/tables/{id}/resign`` by a seat.

At two players the other wins at once; otherwise a bot finishes the seat's game for the others; at a rated table the
resigning seat ranks last, and before its first move the table is aborted (nobody rated).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.ratings import MU
from tests.server.conftest import OPEN
from tests.server.helpers import create, next_of, postgres, seed_where
from tests.server.test_accounts import person
from tests.server.test_ratings import _rated_pair


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database the server supports."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 's.db'}"
    else:
        with postgres(tmp_path) as url:
            yield url


def _app(db: str) -> TestClient:
    return TestClient(create_app(ServerConfig(db=db, bot_workers=0, allow_seed=True, **OPEN)))


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _move(ws: Any, frame: dict[str, Any], move_id: str) -> dict[str, Any]:
    """Play the first legal action of ``frame``; the next state frame."""
    action = frame["legal_actions"][0]["code"]
    ws.send_json({"type": "move", "version": frame["version"], "action": action, "move_id": move_id})
    return next_of(ws)


def test_at_two_players_the_other_wins_at_once_and_the_seat_cannot_come_back(db: str) -> None:
    with _app(db) as client:
        table, tokens = create(client, "caprice", ["human", "human"], seed=seed_where("caprice", 2, 0))
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as ws:
            next_of(ws)
            r = client.post(f"/api/tables/{table}/resign", headers=_bearer(tokens[0]))
            assert r.status_code == 200 and r.json() == {"table": table, "seat": 0, "status": "finished"}
            frame = next_of(ws)
            assert (frame["status"], frame["ended"], frame["legal_actions"]) == ("finished", "resigned", [])
            assert frame["seats"][0]["reason"] == "resign"
        view = client.get(f"/api/tables/{table}").json()
        assert (view["status"], view["ended"]) == ("finished", "resigned")
        again = client.post(f"/api/tables/{table}/resign", headers=_bearer(tokens[1]))
        assert again.status_code == 409  # the game is over
        assert client.get(f"/api/tables/{table}/record").status_code == 200  # over: its record opens
        assert client.post(f"/api/tables/{table}/resign").status_code == 403
        assert client.post("/api/tables/nope/resign", headers=_bearer(tokens[0])).status_code == 404


def test_at_three_players_a_bot_finishes_the_resigned_seat_and_its_human_stays_out(db: str) -> None:
    with _app(db) as client:
        seed = seed_where("caprice", 3, 0)
        table, tokens = create(client, "caprice", ["human", "human", "human"], seed=seed)
        with (
            client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as w0,
            client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[2]}") as w2,
        ):
            frame = next_of(w0)
            next_of(w2)
            r = client.post(f"/api/tables/{table}/resign", headers=_bearer(tokens[0]))
            assert r.json()["status"] == "live"
            seen = next_of(w2)
            while seen["version"] == 0:  # the substitute plays seat 0's move
                seen = next_of(w2)
            assert seen["seats"][0]["bot_played"] and seen["seats"][0]["reason"] == "resign"
            assert seen["status"] == "live"
            w0.send_json({"type": "move", "version": frame["version"], "action": 0, "move_id": "late"})
            while (refused := w0.receive_json())["type"] != "error":
                pass
            assert refused["code"] == "not_your_turn" and "resigned" in refused["message"]
            w0.send_json({"type": "return"})  # a resigned seat is not taken back
        view = client.get(f"/api/tables/{table}").json()
        assert view["seats"][0]["reason"] == "resign" and view["seats"][0]["bot_played"]
        assert client.post(f"/api/tables/{table}/resign", headers=_bearer(tokens[0])).status_code == 409


def test_a_rated_seat_that_resigns_ranks_last_and_before_its_first_move_aborts(db: str) -> None:
    with _app(db) as client:
        table, (ann, bea) = _rated_pair(client)
        first = next(p for i, p in enumerate((ann, bea)) if i == _mover(client, table))
        second = bea if first is ann else ann
        r = second.post(f"/api/tables/{table}/resign")  # before its first move: aborted, nobody rated
        assert r.json()["status"] == "aborted"
        view = client.get(f"/api/tables/{table}").json()
        assert (view["status"], view["ended"]) == ("aborted", "no_move")
        assert all("caprice" not in p.get("/api/me").json()["ratings"] for p in (ann, bea))
        table, (cid, dan) = _rated_pair(client, ("Cid", "Dan"))
        mover = _mover(client, table)
        players = (cid, dan)
        with players[mover].websocket_connect(f"/api/tables/{table}/ws") as ws:
            frame = next_of(ws)
            while frame["legal_actions"]:
                frame = _move(ws, frame, f"m{frame['version']}")
        assert players[mover].post(f"/api/tables/{table}/resign").json()["status"] == "finished"
        ratings = [p.get("/api/me").json()["ratings"]["caprice"] for p in players]
        assert ratings[mover]["mu"] < MU < ratings[1 - mover]["mu"]  # the resigning seat ranks last
        assert [r["games"] for r in ratings] == [1, 1]


def _mover(client: TestClient, table: str) -> int:
    """The seat to move of a live table, as its spectator's socket says."""
    with person(client).websocket_connect(f"/api/tables/{table}/ws") as ws:
        frame = next_of(ws)
    found: int = frame["current_player"]
    return found
