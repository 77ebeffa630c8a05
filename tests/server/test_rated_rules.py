"""Rated tables play by the server's rules, and a rating reflects only the account's own human's moves.

Issue 41, item 7: the creator of a rated table set its grace, substitute and clock (a seat whose account never came
was played to the end by the ``hard`` bot and its rating rose); a rated quick match had no clock, so a losing player
could stall. Rated tables now get the server's rules (:mod:`meeple.server.rated`), a rated seat that the substitute
must play forfeits (ranks last; before its first move the table is aborted) and a waiting player may claim against an
away player. Tests on SQLite and PostgreSQL, as tests/server/test_ratings.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.records import GameRecord
from meeple.core.rewards import finish_ranks
from meeple.server.app import ServerConfig, create_app
from meeple.server.endings import rating_ranks
from meeple.server.protocol import ClockSpec
from meeple.server.quotas import Quotas
from meeple.server.rated import RatedRules
from meeple.server.ratings import MU, SIGMA, new_ratings
from meeple.web import create_web_app
from tests.server.helpers import next_of, postgres
from tests.server.test_accounts import person, sign_up


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database the server supports."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 's.db'}"
    else:
        with postgres(tmp_path) as url:
            yield url


def _app(db: str, rules: RatedRules | None = None, web: bool = False) -> TestClient:
    config = ServerConfig(db=db, bot_workers=0, quotas=Quotas(rate_limits=False), rated=rules or RatedRules())
    return TestClient(create_web_app(config) if web else create_app(config))


def _rated(client: TestClient, names: list[str], game: str = "caprice") -> tuple[str, list[TestClient]]:
    """Accounts ``names`` meet at one rated quick-match table; its id and each one's client (seat i is names[i])."""
    people = [sign_up(person(client), n) for n in names]
    answers = [p.post("/api/quickmatch", json={"game": game, "players": len(names), "rated": True}) for p in people]
    assert all(a.status_code == 201 for a in answers), [a.text for a in answers]
    assert [a.json()["seat"] for a in answers] == list(range(len(names)))
    return answers[0].json()["table"], people


def test_rated_tables_play_by_the_servers_rules_and_the_lobby_shows_them(db: str) -> None:
    with _app(db) as client:  # the defaults: two minutes per move, 120 s of grace, the medium substitute
        host = sign_up(person(client), "Host")
        body = {"game": "caprice", "seats": ["human", "open"], "rated": True}
        table = host.post("/api/tables", json=body).json()["table"]
        view = client.get(f"/api/tables/{table}").json()
        assert view["clock"]["spec"] == {"initial": None, "increment": 0.0, "per_move": 120.0}
        assert (view["grace"], view["substitute"]) == (120.0, "medium")
        listed = next(t for t in client.get("/api/tables").json() if t["table"] == table)
        assert (listed["clock"]["spec"]["per_move"], listed["grace"], listed["substitute"]) == (120.0, 120.0, "medium")
        for other in ({"clock": {"initial": 1}}, {"grace": 0.5}, {"grace": None}, {"substitute": "hard"}):
            r = host.post("/api/tables", json={**body, **other})
            assert r.status_code == 422 and "a rated table plays by this server's rules" in r.text, (other, r.text)
        same = host.post("/api/tables", json={**body, "grace": 120, "substitute": "medium"})
        assert same.status_code == 201  # the rules themselves may be given
        quick = sign_up(person(client), "Quick").post(
            "/api/quickmatch", json={"game": "citadels", "players": 3, "rated": True}
        )
        quick_view = client.get(f"/api/tables/{quick.json()['table']}").json()
        assert quick_view["clock"]["spec"]["per_move"] == 120.0 and quick_view["grace"] == 120.0
        unrated = host.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"], "grace": 60}).json()
        own = client.get(f"/api/tables/{unrated['table']}").json()
        assert (own["clock"], own["grace"]) == (None, 60.0)  # an unrated table keeps its creator's choices


def _player(
    client: TestClient, table: str, stop: Callable[[dict[str, Any], int], bool], done: list[dict[str, Any]]
) -> threading.Thread:
    """A thread that plays ``client``'s seat (first legal moves) until ``stop(state, own_moves)`` or the game's end.

    The last state is appended to ``done``; the socket stays open (connected) until the game is over or aborted.
    """

    def run() -> None:
        moves = 0
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            state = next_of(ws)
            stopped = False
            while state["status"] == "live":
                if state["legal_actions"] and not stopped:
                    if stop(state, moves):
                        stopped = True
                    else:
                        moves += 1
                        code = state["legal_actions"][0]["code"]
                        ws.send_json(
                            {"type": "move", "version": state["version"], "action": code, "move_id": str(moves)}
                        )
                state = next_of(ws)
            done.append(state)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _ratings(people: list[TestClient]) -> list[dict[str, Any]]:
    return [p.get("/api/me").json()["ratings"].get("caprice", {}) for p in people]


def test_a_seat_out_of_time_forfeits_ranks_last_and_the_bot_finishes_the_game(db: str) -> None:
    rules = RatedRules(clock=ClockSpec(per_move=3), grace=60, substitute="random")
    with _app(db, rules) as client:
        table, people = _rated(client, ["Ann", "Bea"])
        done: list[dict[str, Any]] = []
        ann = _player(people[0], table, lambda s, n: False, done)
        bea = _player(people[1], table, lambda s, n: n >= 1, done)  # one move of her own, then she stalls
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table}").json()["seats"][1]["forfeit"] is None:
            assert time.monotonic() < deadline, "Bea's turn did not run out"
            time.sleep(0.2)
        settled = _ratings(people)  # two players, one forfeited: decided now
        assert [r["games"] for r in settled] == [1, 1]
        assert settled[0]["mu"] > MU > settled[1]["mu"]
        expected = new_ratings([(MU, SIGMA)] * 2, [1, 2])
        assert [r["mu"] for r in settled] == [pytest.approx(m, abs=1e-4) for m, _ in expected]
        ann.join(120)
        bea.join(120)
        view = client.get(f"/api/tables/{table}").json()
        assert view["status"] == "finished"  # the substitute finished Bea's game
        assert (view["seats"][1]["forfeit"], view["seats"][1]["bot_played"]) == ("time", True)
        assert _ratings(people) == settled  # whatever the bot did for Bea, rated once, at the forfeit


def test_a_seat_gone_before_its_first_move_aborts_the_rated_table(db: str) -> None:
    rules = RatedRules(clock=ClockSpec(per_move=1.5), grace=60, substitute="hard")
    with _app(db, rules) as client:
        table, people = _rated(client, ["Ann", "Bea"])
        done: list[dict[str, Any]] = []
        threads = [
            _player(people[0], table, lambda s, n: False, done),
            _player(people[1], table, lambda s, n: True, done),
        ]
        for t in threads:
            t.join(60)
        view = client.get(f"/api/tables/{table}").json()
        assert (view["status"], view["ended"]) == ("aborted", "no_move")
        assert _ratings(people) == [{}, {}]  # nobody rated: the sock puppet that never plays gives nothing


def test_a_waiting_player_claims_against_an_away_player(db: str) -> None:
    rules = RatedRules(clock=ClockSpec(per_move=600), grace=600, substitute="random", claim_after=1.0)
    with _app(db, rules) as client:
        table, people = _rated(client, ["Ann", "Bea"])
        url = f"/api/tables/{table}/claim"
        assert client.post(url).status_code == 403  # a spectator
        assert people[0].post("/api/tables/nope/claim").status_code == 404
        turns: list[dict[str, Any]] = []
        # Ann and Bea play until Bea has made a move and it is her turn again, then Bea leaves
        ann = _player(people[0], table, lambda s, n: False, turns)
        with people[1].websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            state, moved = next_of(ws), 0
            while moved < 1 or not state["legal_actions"]:
                if state["legal_actions"]:
                    code = state["legal_actions"][0]["code"]
                    ws.send_json({"type": "move", "version": state["version"], "action": code, "move_id": "b"})
                    moved += 1
                state = next_of(ws)
            early = people[0].post(url)
            assert early.status_code == 409 and "connected" in early.json()["detail"]  # Bea is there
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{table}").json()["seats"][1]["connected"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        early = people[0].post(url)  # Bea just left: the claim opens claim_after seconds later
        assert early.status_code == 409 and "you may claim in" in early.json()["detail"]
        assert 1 <= int(early.headers["Retry-After"]) <= 2
        assert people[1].post(url).json()["detail"] == "nobody else is to move"  # Bea's own turn: no claim
        time.sleep(1.2)
        claimed = people[0].post(url)
        assert claimed.status_code == 200 and claimed.json() == {"table": table, "forfeit": 1, "status": "live"}
        view = client.get(f"/api/tables/{table}").json()
        assert (view["seats"][1]["forfeit"], view["seats"][1]["bot_played"]) == ("claim", True)
        assert people[0].post(url).status_code == 409  # nothing left to claim
        assert [r["games"] for r in _ratings(people)] == [1, 1]
        assert _ratings(people)[0]["mu"] > _ratings(people)[1]["mu"]
        ann.join(120)
        assert client.get(f"/api/tables/{table}").json()["status"] == "finished"


def test_no_claim_at_an_unrated_table(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]})
        table, token = r.json()["table"], r.json()["seats"][0]["token"]
        answer = client.post(f"/api/tables/{table}/claim", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 409 and "rated" in answer.json()["detail"]


def test_three_players_the_forfeit_ranks_last_the_others_by_the_game(tmp_path: Path) -> None:
    rules = RatedRules(clock=ClockSpec(per_move=600), grace=1.0, substitute="random")
    with _app(f"sqlite:///{tmp_path / 's.db'}", rules) as client:
        table, people = _rated(client, ["Ann", "Bea", "Cid"])
        done: list[dict[str, Any]] = []
        players = [_player(p, table, lambda s, n: False, done) for p in people[:2]]
        with people[2].websocket_connect(f"/api/tables/{table}/ws") as ws:  # Cid moves once, then leaves
            ws.receive_json()
            state = next_of(ws)
            while not state["legal_actions"]:
                state = next_of(ws)
            code = state["legal_actions"][0]["code"]
            ws.send_json({"type": "move", "version": state["version"], "action": code, "move_id": "c"})
            while next_of(ws)["version"] <= state["version"]:
                pass
        for t in players:
            t.join(120)
        view = client.get(f"/api/tables/{table}").json()
        assert view["status"] == "finished" and view["seats"][2]["forfeit"] == "away"
        record = GameRecord.from_json(client.get(f"/api/tables/{table}/record").json())
        ranks = rating_ranks([False, False, True], finish_ranks(record.replay()))
        assert ranks is not None and ranks[2] == 3 and sorted(ranks[:2]) == [1, 2]
        expected = new_ratings([(MU, SIGMA)] * 3, ranks)
        got = [p.get("/api/me").json()["ratings"]["caprice"]["mu"] for p in people]
        assert got == [pytest.approx(m, abs=1e-4) for m, _ in expected]


@pytest.mark.parametrize(
    ("forfeits", "finish", "ranks"),
    [
        ([False, True], None, [1, 2]),  # two players, one forfeited: decided at once
        ([False, False, True], None, None),  # two still play: not decided before the end
        ([False, False, True], [2, 1, 1], [2, 1, 3]),  # the forfeited seat's own result does not count
        ([True, False, True, False], [1, 2, 3, 2], [3, 1, 3, 1]),  # forfeits tie last; a tie stays a tie
        ([True, True], None, [1, 1]),  # every seat forfeited (settle() then rates nobody)
    ],
)
def test_rating_ranks(forfeits: list[bool], finish: list[int] | None, ranks: list[int] | None) -> None:
    assert rating_ranks(forfeits, finish) == ranks


def test_the_table_page_shows_the_rules_in_both_languages(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}", web=True) as client:
        table, people = _rated(client, ["Ann", "Bea"])
        for lang, words in (
            ("en", ["2 min per move", "out of time or 2 min away: forfeit, the medium bot plays on"]),
            ("fr", ["2 min par coup", "hors délai ou 2 min d’absence : forfait, le bot moyen continue"]),
        ):
            page = people[0].get(f"/tables/{table}?lang={lang}").text
            lobby = client.get(f"/?lang={lang}").text
            for w in words:
                assert w in page and w in lobby, (lang, w)


def test_meeple_serve_takes_the_rated_rules_and_the_minimum_grace(tmp_path: Path) -> None:
    """``--rated-clock``, ``--rated-grace``, ``--rated-substitute`` and ``--min-grace`` reach a running server."""
    import http.cookiejar
    import json
    import urllib.error
    import urllib.request

    from tests.server.helpers import ServerProcess

    options = ("--rated-clock", "90s", "--rated-grace", "61", "--rated-substitute", "easy", "--min-grace", "5")
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=options).start()
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
            data = json.dumps(body).encode()
            request = urllib.request.Request(f"{server.url}{path}", data, {"Content-Type": "application/json"})
            try:
                with opener.open(request, timeout=30) as r:
                    return int(r.status), json.loads(r.read())
            except urllib.error.HTTPError as exc:
                return int(exc.code), json.loads(exc.read())

        assert post("/api/accounts", {"username": "Rita", "password": "a long enough password"})[0] == 201
        status, made = post("/api/tables", {"game": "caprice", "seats": ["human", "open"], "rated": True})
        assert status == 201
        with opener.open(f"{server.url}/api/tables/{made['table']}", timeout=30) as r:
            view = json.loads(r.read())
        assert (view["clock"]["spec"]["per_move"], view["grace"], view["substitute"]) == (90.0, 61.0, "easy")
        assert post("/api/tables", {"game": "caprice", "seats": ["human", "human"], "grace": 4})[0] == 422
        assert post("/api/tables", {"game": "caprice", "seats": ["human", "human"], "grace": 5})[0] == 201
    finally:
        server.stop()
