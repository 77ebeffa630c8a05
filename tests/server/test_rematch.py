"""Rematch: a seat of a finished table offers it, the others accept, the rematch starts (issue #44, item 1).

Against the running app and its real database: SQLite, and PostgreSQL with two processes (the offer made on one and
accepted on the other, each told by its ``rematch`` message).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from meeple.server.app import ServerConfig, create_app
from meeple.server.db import TableRow
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import create, next_of, play_to_end, postgres
from tests.server.test_accounts import person, sign_up
from tests.server.test_ratings import _play_both, _rated_pair


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database the server supports."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 's.db'}"
    else:
        with postgres(tmp_path) as url:
            yield url


def _app(db: str, **quotas: Any) -> TestClient:
    config = ServerConfig(
        db=db, bot_workers=0, allow_seed=True, **{**OPEN, "quotas": Quotas(rate_limits=False, **quotas)}
    )
    return TestClient(create_app(config))


def _message(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (any other skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def test_a_rated_rematch_is_offered_accepted_and_started_with_the_seats_rotated(db: str) -> None:
    with _app(db) as client:
        table, (ann, bea) = _rated_pair(client)
        assert _play_both(client, table, [ann, bea])[0]["status"] == "finished"
        before = client.get(f"/api/tables/{table}").json()
        with bea.websocket_connect(f"/api/tables/{table}/ws") as ws:
            next_of(ws)
            offer = ann.post(f"/api/tables/{table}/rematch")
            assert offer.status_code == 201, offer.text
            new = offer.json()
            assert set(new) == {"table", "seat", "token"} and new["seat"] == 1  # seat 0 plays seat 1: rotated
            told = _message(ws, "rematch")
            assert told == {
                "type": "rematch",
                "of": table,
                "table": new["table"],
                "status": "waiting",
                "ended": None,
                "offered_by": 0,
                "accepted": [0],
                "waiting_for": [1],
                "lapse_at": told["lapse_at"],
            }
            assert told["lapse_at"] > time.time() + 200  # five minutes by default
            view = client.get(f"/api/tables/{new['table']}").json()
            assert view["status"] == "waiting" and view["rated"] is True
            assert view["clock"]["spec"] == before["clock"]["spec"] and view["game"] == "caprice"
            assert [(s["account"], s["open"], s["invited"]) for s in view["seats"]] == [
                (None, True, "Bea"),
                ("Ann", False, None),
            ]
            stranger = sign_up(person(client), "Cid")
            assert stranger.post(f"/api/tables/{table}/rematch").status_code == 403  # no seat at the finished table
            joined = stranger.post(f"/api/tables/{new['table']}/join", json={})
            assert joined.status_code == 409 and "reserved" in joined.json()["detail"]
            assert ann.post(f"/api/tables/{table}/rematch").status_code == 409  # accepted already
            accept = bea.post(f"/api/tables/{table}/rematch")
            assert accept.status_code == 200, accept.text
            assert accept.json()["table"] == new["table"] and accept.json()["seat"] == 0
            assert accept.json()["token"] != new["token"]
            started = _message(ws, "rematch")
            assert started["status"] == "live" and started["accepted"] == [0, 1] and started["waiting_for"] == []
        view = client.get(f"/api/tables/{new['table']}").json()
        assert view["status"] == "live" and [s["account"] for s in view["seats"]] == ["Bea", "Ann"]
        assert bea.post(f"/api/tables/{table}/rematch").status_code == 409  # it started
        assert _play_both(client, new["table"], [bea, ann])[0]["status"] == "finished"
        assert [p.get("/api/me").json()["ratings"]["caprice"]["games"] for p in (ann, bea)] == [2, 2]


def test_an_unrated_rematch_keeps_bots_clock_and_guests_and_starts_when_the_guests_accept(db: str) -> None:
    with _app(db) as client:
        guest = person(client)
        table, tokens = create(
            guest,
            "caprice",
            [{"player": "human", "name": "Guest A"}, "bot:random", "human"],
            clock={"initial": 600, "increment": 5},
            grace=90,
        )
        other = person(client)
        with (
            guest.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws0,
            other.websocket_connect(f"/api/tables/{table}/ws?token={tokens[2]}") as ws2,
        ):
            assert _both(ws0, ws2)["status"] == "finished"
        unseated = person(client).post(f"/api/tables/{table}/rematch")
        assert unseated.status_code == 403
        offer = other.post(f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {tokens[2]}"})
        assert offer.status_code == 201 and offer.json()["seat"] == 0  # seat 2 of 3 plays seat 0
        view = client.get(f"/api/tables/{offer.json()['table']}").json()
        assert [s["player"] for s in view["seats"]] == ["human", "open", "bot:random"]  # the bot kept, rotated
        assert (view["clock"]["spec"]["initial"], view["clock"]["spec"]["increment"], view["grace"]) == (600, 5, 90)
        assert not view["rated"] and view["status"] == "waiting"
        joined = person(client).post(f"/api/tables/{offer.json()['table']}/join", json={"name": "Zed"})
        assert joined.status_code == 409  # the guest's seat is reserved for the finished seat's holder
        accept = guest.post(f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert accept.status_code == 200 and accept.json()["seat"] == 1
        view = client.get(f"/api/tables/{offer.json()['table']}").json()
        assert view["status"] == "live" and view["seats"][1]["name"] == "Guest A"  # the same person, the same name


def _both(ws0: Any, ws2: Any) -> dict[str, Any]:
    """Two guests' sockets play their seats (first legal moves) until the game ends; the last frame."""
    frames = {0: next_of(ws0), 2: next_of(ws2)}
    n = 0
    while frames[0]["status"] == "live":
        for seat, ws in ((0, ws0), (2, ws2)):
            state = frames[seat]
            if state["status"] == "live" and state["legal_actions"]:
                n += 1
                assert n < 3000
                action = state["legal_actions"][0]["code"]
                ws.send_json({"type": "move", "version": state["version"], "action": action, "move_id": f"m{n}"})
        for seat, ws in ((0, ws0), (2, ws2)):
            frames[seat] = _latest(ws, frames[seat])
    return frames[0]


def _latest(ws: Any, last: dict[str, Any]) -> dict[str, Any]:
    """The next state frame of ``ws`` that may ask for a move (or ends the game)."""
    while True:
        frame = next_of(ws)
        if frame["status"] != "live" or frame["legal_actions"] or frame["version"] != last["version"]:
            return frame


def test_a_rematch_offer_lapses_and_a_declined_one_ends_at_once(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        table, (ann, bea) = _rated_pair(client)
        _play_both(client, table, [ann, bea])
        new = ann.post(f"/api/tables/{table}/rematch").json()["table"]
        engine = services_of(client.app).engine
        with engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == new).values(lapse_at=time.time() - 1))
        for _ in range(100):  # the sweeper looks four times a second
            view = client.get(f"/api/tables/{new}").json()
            if view["status"] != "waiting":
                break
            time.sleep(0.05)
        assert (view["status"], view["ended"]) == ("aborted", "lapsed")
        refused = bea.post(f"/api/tables/{table}/rematch")
        assert refused.status_code == 409 and "over" in refused.json()["detail"]
        # another finished game: Bea declines its rematch from her invitations
        second, (cid, dan) = _rated_pair(client, ("Cid", "Dan"))
        _play_both(client, second, [cid, dan])
        offered = cid.post(f"/api/tables/{second}/rematch").json()["table"]
        invitations = dan.get("/api/me/invitations").json()
        assert [(i["table"], i["rematch_of"], i["by"], i["seat"]) for i in invitations] == [(offered, second, "Cid", 0)]
        assert dan.delete(f"/api/me/invitations/{offered}").json() == {"table": offered, "declined": True}
        view = client.get(f"/api/tables/{offered}").json()
        assert (view["status"], view["ended"]) == ("aborted", "declined")
        assert dan.get("/api/me/invitations").json() == []
        assert dan.delete(f"/api/me/invitations/{offered}").status_code == 404


def test_a_rematch_is_only_for_a_finished_table(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        table, tokens = create(client, "caprice", ["human", "human"])
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        r = client.post(f"/api/tables/{table}/rematch", headers=auth)
        assert r.status_code == 409 and "finished" in r.json()["detail"]
        assert client.post("/api/tables/nope/rematch", headers=auth).status_code == 404
        assert person(client).post(f"/api/tables/{table}/rematch").status_code == 403


def test_players_who_block_one_another_get_no_rematch(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        table, (ann, bea) = _rated_pair(client)
        _play_both(client, table, [ann, bea])
        assert bea.put("/api/me/blocks/ann").status_code == 200
        r = ann.post(f"/api/tables/{table}/rematch")
        assert r.status_code == 409 and "no rematch" in r.json()["detail"]
        assert "block" not in r.json()["detail"]  # who blocked whom is not said


def test_a_single_player_table_with_bots_starts_its_rematch_at_once(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        table, tokens = create(client, "caprice", ["human", "bot:random"])
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
            assert play_to_end(ws, next_of(ws))[-1]["status"] == "finished"
        r = client.post(f"/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 201 and r.json()["seat"] == 1
        new = r.json()["table"]
        view = client.get(f"/api/tables/{new}").json()
        assert view["status"] == "live" and view["seats"][0]["player"] == "bot:random"
        with client.websocket_connect(f"/api/tables/{new}/ws?token={r.json()['token']}") as ws:
            frame = next_of(ws)
            while not frame["legal_actions"]:  # the bot plays its moves (if it is first) until the human's turn
                frame = next_of(ws)
            assert frame["status"] == "live" and frame["seat"] == 1


def test_a_rematch_counts_in_the_offerers_table_quota(tmp_path: Path) -> None:
    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 's.db'}",
        bot_workers=0,
        **{**OPEN, "quotas": Quotas(max_tables_per_address=2, tables_per_minute=100, joins_per_minute=100)},
    )
    with TestClient(create_app(config)) as client:
        ended = [create(client, "caprice", ["human", "human"]) for _ in range(2)]
        for table, seats in ended:  # both end at once: seat 0 resigns
            done = client.post(f"/api/tables/{table}/resign", headers=_bearer(seats[0]))
            assert done.json()["status"] == "finished"
        create(client, "caprice", ["human", "human"])  # one live table of this address
        (first, tokens), (second, others) = ended
        assert client.post(f"/api/tables/{first}/rematch", headers=_bearer(tokens[0])).status_code == 201
        past = client.post(f"/api/tables/{second}/rematch", headers=_bearer(others[0]))
        assert past.status_code == 429 and "Retry-After" in past.headers
        assert "at most 2" in past.json()["detail"]
        view = client.get(f"/api/tables/{second}").json()
        assert view["status"] == "finished"  # nothing half-made: no rematch, the table as it was
        assert client.post(f"/api/tables/{second}/rematch", headers=_bearer(others[1])).status_code == 429


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
