"""Something to look at (issue #44, item 7): ratings on the seats of rated tables, final ranks, profile statistics
and rating history, and the lobby's filters — against the running app on its SQLite database.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from meeple.server.results import PROVISIONAL_GAMES
from tests.server.helpers import create, next_of, person, play_to_end
from tests.server.test_accounts import sign_up
from tests.server.test_ratings import _play_both, _rated_pair


def test_a_rated_games_seats_show_ratings_and_its_end_fills_ranks_statistics_and_history(client: TestClient) -> None:
    table, people = _rated_pair(client)
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [(s["rating"], s["provisional"]) for s in seats] == [(0.0, True), (0.0, True)]  # the prior, few games
    final = _play_both(client, table, people)[0]
    assert final["status"] == "finished"
    returns = final["returns"]
    winner = 0 if returns[0] > returns[1] else 1
    ranks = [1 if s == winner else 2 for s in range(2)]
    after = client.get(f"/api/tables/{table}").json()["seats"]
    for seat, person_ in zip(after, people, strict=True):
        mine = person_.get("/api/me").json()["ratings"]["caprice"]
        assert seat["rating"] == mine["rating"] and seat["provisional"] is (mine["games"] < PROVISIONAL_GAMES)
    for name, rank in zip(("Ann", "Bea"), ranks, strict=True):
        profile = client.get(f"/api/players/{name}").json()
        stats = profile["stats"]["caprice"]
        assert stats["games"] == 1 and stats["ranked"] == 1 and stats["average_rank"] == rank
        assert stats["wins"] == (1 if rank == 1 else 0)
        assert [(p["rank"], p["table"]) for p in stats["history"]] == [(rank, table)]
        assert stats["history"][0]["rating"] == profile["ratings"]["caprice"]["rating"]
        game = profile["games"][0]
        assert game["rank"] == rank and [p["rank"] for p in game["players"]] == ranks


def test_an_unrated_game_counts_in_statistics_without_rating_history(client: TestClient) -> None:
    ann = sign_up(person(client), "Ann")
    table, _ = create(ann, "caprice", ["human", "bot:random"])
    assert all(
        s["rating"] is None and s["provisional"] is None for s in client.get(f"/api/tables/{table}").json()["seats"]
    )
    with ann.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.receive_json()
        final = play_to_end(ws, next_of(ws))[-1]
    assert final["status"] == "finished"
    stats = client.get("/api/players/Ann").json()["stats"]["caprice"]
    rank = client.get("/api/players/Ann").json()["games"][0]["rank"]
    assert rank in (1, 2) and stats == {
        "games": 1,
        "wins": 1 if rank == 1 else 0,
        "ranked": 1,
        "average_rank": float(rank),
        "history": [],
    }


def test_the_lobby_filters_by_game_player_count_rated_and_waiting(client: TestClient) -> None:
    def at(n: int) -> TestClient:  # a browser of its own address: the lobby lists 3 tables per creator address
        return person(client, client=(f"10.0.0.{n}", 5000))

    two, _ = create(at(1), "caprice", ["human", "bot:random"])
    four, _ = create(at(2), "citadels", ["human", "bot:random", "bot:random", "bot:random"], params={"players": 4})
    waiting, _ = create(at(3), "caprice", ["human", "open", "open"], params={"players": 3})
    ann = sign_up(at(4), "Ann")
    rated = ann.post("/api/quickmatch", json={"game": "capitol", "players": 2, "rated": True}).json()["table"]

    def listed(query: str) -> set[str]:
        r = client.get(f"/api/tables?{query}")
        assert r.status_code == 200, r.text
        return {t["table"] for t in r.json()}

    assert listed("") == {two, four, waiting, rated}
    assert listed("game=caprice") == {two, waiting}
    assert listed("players=2") == {two, rated}
    assert listed("game=caprice&players=3") == {waiting}
    assert listed("rated=true") == {rated}
    assert listed("rated=false") == {two, four, waiting}
    assert listed("status=waiting") == {waiting, rated}
    assert listed("status=waiting&rated=false") == {waiting}
    assert listed("game=capitol&players=4") == set()
    for bad in ("game=chess", "players=0", "players=17", "rated=perhaps", "game=" + "x" * 65):
        r = client.get(f"/api/tables?{bad}")
        assert r.status_code == 422, bad
        assert "x" * 41 not in r.text  # never echoes more than 40 characters
    assert "caprice" in client.get("/api/tables?game=chess").json()["detail"]  # says which games there are
