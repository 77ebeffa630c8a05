"""Rated tables, ratings, profiles and leaderboards (issue #34, item 6).

A rated game between accounts updates each account's openskill rating for that game when it ends, once; profiles
and leaderboards show ratings and finished games only.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.rewards import competition_ranks
from meeple.server.app import ServerConfig, create_app
from meeple.server.ratings import MU, SIGMA, new_ratings, ordinal, rate_table
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import next_of, play_to_end
from tests.server.test_accounts import person, sign_up


def _play_both(client: TestClient, table: str, players: list[TestClient]) -> list[dict[str, Any]]:
    """Each player's session plays its bound seat to the end (first legal moves), in a thread each; the last frames."""
    finals: list[dict[str, Any]] = [{} for _ in players]
    errors: list[BaseException] = []

    def play(i: int, person: TestClient) -> None:
        try:
            with person.websocket_connect(f"/api/tables/{table}/ws") as ws:
                assert ws.receive_json()["seat"] is not None
                finals[i] = play_to_end(ws, next_of(ws))[-1]
        except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(i, p)) for i, p in enumerate(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    return finals


def _rated_pair(client: TestClient, names: tuple[str, str] = ("Ann", "Bea")) -> tuple[str, list[TestClient]]:
    people = [sign_up(person(client), n) for n in names]
    seats = [p.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}) for p in people]
    assert [s.status_code for s in seats] == [201, 201], [s.text for s in seats]
    table = seats[0].json()["table"]
    assert seats[1].json()["table"] == table
    return table, people


def test_a_rated_game_between_accounts_updates_both_ratings_once(client: TestClient, tmp_path: Path) -> None:
    table, people = _rated_pair(client)
    view = client.get(f"/api/tables/{table}").json()
    assert view["rated"] and view["status"] == "live" and [s["account"] for s in view["seats"]] == ["Ann", "Bea"]
    final = _play_both(client, table, people)[0]
    assert final["status"] == "finished"
    returns = final["returns"]
    me = [p.get("/api/me").json()["ratings"]["caprice"] for p in people]
    assert [r["games"] for r in me] == [1, 1]
    winner = 0 if returns[0] > returns[1] else 1
    assert me[winner]["mu"] > MU > me[1 - winner]["mu"]  # openskill moved them apart
    assert all(r["sigma"] < SIGMA for r in me) and all(r["rating"] == ordinal(r["mu"], r["sigma"]) for r in me)
    # a retried end rates nothing twice
    service = services_of(client.app).tables
    with service.engine.begin() as conn:
        assert rate_table(conn, table, "caprice", [1, 2], 0.0) is False
    assert [p.get("/api/me").json()["ratings"]["caprice"] for p in people] == me
    profile = client.get("/api/players/ann").json()  # any case
    assert profile["username"] == "Ann" and profile["ratings"]["caprice"] == me[0]
    assert profile["games"][0]["table"] == table and profile["games"][0]["rated"] is True
    assert profile["games"][0]["replay"] == f"/tables/{table}/replay-view"
    assert client.get(profile["games"][0]["record"]).status_code == 200  # the link works: the game is over
    board = client.get("/api/leaderboard/caprice").json()
    assert board["total"] == 2 and [e["username"] for e in board["entries"]] == [
        ["Ann", "Bea"][winner],
        ["Ann", "Bea"][1 - winner],
    ]
    assert [e["rank"] for e in board["entries"]] == [1, 2]


def test_ratings_survive_a_restart_and_are_not_given_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(create_app(ServerConfig(db=url, bot_workers=0, **OPEN))) as client:
        table, people = _rated_pair(client, ("Cid", "Dee"))
        _play_both(client, table, people)
        before = client.get("/api/leaderboard/caprice").json()
    with TestClient(create_app(ServerConfig(db=url, bot_workers=0, **OPEN))) as client:
        assert client.get(f"/api/tables/{table}").json()["status"] == "finished"  # reloaded from its log
        assert client.get("/api/leaderboard/caprice").json() == before
        assert [e["games"] for e in before["entries"]] == [1, 1]


def test_rated_tables_seat_only_logged_in_players_and_no_bots(client: TestClient) -> None:
    guest = person(client)
    body = {"game": "caprice", "seats": ["human", "open"], "rated": True}
    assert guest.post("/api/tables", json=body).status_code == 401
    assert (
        guest.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True, "name": "G"}).status_code
        == 401
    )
    host = sign_up(person(client), "Host")
    for seats in (["human", "bot:random"], ["human", "human"], ["open", "open"]):
        r = host.post("/api/tables", json={**body, "seats": seats})
        assert r.status_code == 422 and "rated" in r.text, (seats, r.text)
    table = host.post("/api/tables", json=body).json()["table"]
    r = guest.post(f"/api/tables/{table}/join", json={"name": "Guest"})
    assert r.status_code == 401 and "log in" in r.json()["detail"]
    assert host.post(f"/api/tables/{table}/start").status_code == 409  # no bots in a rated table's seats
    assert host.post(f"/api/tables/{table}/join", json={}).status_code == 409  # nobody sits twice
    assert sign_up(person(client), "Joiner").post(f"/api/tables/{table}/join", json={}).status_code == 201
    assert client.get(f"/api/tables/{table}").json()["status"] == "live"


def test_a_rated_quick_match_is_never_filled_with_bots(tmp_path: Path) -> None:
    from meeple.server.quotas import Quotas

    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0, quotas=Quotas(rate_limits=False, quickmatch_wait=0.0)
    )
    with TestClient(create_app(config)) as client:
        rated = sign_up(person(client), "Patient").post(
            "/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}
        )
        table = rated.json()["table"]
        guest = person(client).post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "G"})
        assert guest.json()["table"] != table  # rated and unrated players meet apart
        import time

        time.sleep(1.0)  # past the (zero) wait: the sweeper fills unrated tables only
        assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"
        assert client.get(f"/api/tables/{guest.json()['table']}").json()["status"] == "live"


def test_openskill_ranks_ties_and_player_counts() -> None:
    prior = [(MU, SIGMA)] * 3
    tied = new_ratings(prior, [1, 1, 3])
    assert tied[0] == pytest.approx(tied[1]) and tied[0][0] > MU > tied[2][0]
    alone = new_ratings(prior, [1, 2, 3])
    assert alone[0][0] > alone[1][0] > alone[2][0]
    assert competition_ranks([(1.0, 30), (0.0, 12), (0.0, 12), (0.0, 5)]) == [1, 2, 2, 4]
    four = new_ratings([(MU, SIGMA)] * 4, [1, 2, 2, 4])
    assert four[1] == pytest.approx(four[2]) and len(four) == 4


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("limit=0", 422),
        ("limit=101", 422),
        ("offset=-1", 422),
        ("offset=100001", 422),
        ("limit=100&offset=100000", 200),
    ],
)
def test_the_leaderboard_is_paginated_within_bounds(client: TestClient, query: str, status: int) -> None:
    assert client.get(f"/api/leaderboard/caprice?{query}").status_code == status


def test_unknown_players_and_games_are_404(client: TestClient) -> None:
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/" + "x" * 300).status_code == 404
    assert client.get("/api/leaderboard/chess").status_code == 404
    page = client.get("/api/leaderboard/caprice").json()
    assert page == {"game": "caprice", "total": 0, "limit": 50, "offset": 0, "entries": []}


def test_a_rated_game_on_postgresql(tmp_path: Path) -> None:
    """The same on PostgreSQL: the rated quick match meets under its advisory and row locks, the end rates once."""
    from tests.server.helpers import postgres

    with postgres(tmp_path) as url, TestClient(create_app(ServerConfig(db=url, bot_workers=0, **OPEN))) as client:
        table, people = _rated_pair(client, ("Pia", "Quin"))
        final = _play_both(client, table, people)[0]
        assert final["status"] == "finished"
        board = client.get("/api/leaderboard/caprice").json()
        assert board["total"] == 2 and [e["games"] for e in board["entries"]] == [1, 1]
        winner = "Pia" if final["returns"][0] > final["returns"][1] else "Quin"
        assert board["entries"][0]["username"] == winner
