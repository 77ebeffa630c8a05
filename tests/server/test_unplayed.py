"""Tables nobody plays: never bot-played, aborted after the no-start window, and unable to fill the server.

Issue 41, item 2 ("tables of bots by another name": a human seat nobody ever opens plus a tiny ``grace`` was
bot-played from the first turn; a minimum grace) and item 3 ("unplayed tables squat the server": such tables stayed
live for 14 days and filled ``--max-tables``; unstarted tables count apart, the oldest go first, IPv6 per /56).
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import BUILTIN_GAMES, game_class
from meeple.server.app import ServerConfig, create_app
from meeple.server.policy import SeatPolicy
from meeple.server.protocol import CreateTable
from meeple.server.quotas import Quotas
from meeple.web import create_web_app
from tests.server.helpers import ServerProcess, create, next_of, postgres, seed_where
from tests.server.test_accounts import person, sign_up

NO_START = 1.5
"""The no-start window of these tests, in seconds (``--no-start-minutes`` is 5 by default)."""


def _config(db: str, **quotas: Any) -> ServerConfig:
    policy = SeatPolicy(any_bot=True, min_grace=0.0)
    limits = Quotas(**{"rate_limits": False, "no_start_minutes": NO_START / 60, **quotas})
    return ServerConfig(db=db, bot_workers=0, allow_seed=True, policy=policy, quotas=limits)


def _wait(client: TestClient, table: str, what: Any, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        view: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if what(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.1)


def _two_players(game: str) -> int:
    """The smallest count of a game with at least two players (Capital Lux 2 has a solo game)."""
    return max(2, game_class(game).min_players)


CASES = [
    (game, n, first)
    for game in BUILTIN_GAMES  # the lobby's games (another test may register a toy game in this worker)
    for n in sorted({_two_players(game), game_class(game).max_players})
    for first in (0, n - 1)
]
"""Every game at its smallest and largest table, the human seat (0) first to move or the last bot first."""


@pytest.mark.parametrize(("game", "n", "first"), CASES)
def test_a_human_seat_nobody_opens_is_never_bot_played_and_its_table_is_aborted(
    tmp_path: Path, game: str, n: int, first: int
) -> None:
    seed = seed_where(game, n, first)
    with TestClient(create_app(_config(f"sqlite:///{tmp_path / 's.db'}"))) as client:
        seats = ["human"] + ["bot:random"] * (n - 1)
        table, _ = create(client, game, seats, seed=seed, grace=0.001, substitute="hard")
        time.sleep(NO_START * 0.6)  # hundreds of grace periods: the attack had the substitute play at once
        view = client.get(f"/api/tables/{table}").json()
        assert not view["seats"][0]["bot_played"] and view["status"] == "live"
        human_turn = view["version"]  # the bots played up to the human's first turn, if they were first
        ended = _wait(client, table, lambda v: v["status"] != "live")
        assert (ended["status"], ended["ended"]) == ("aborted", "no_show")
        assert ended["version"] == human_turn and not ended["seats"][0]["bot_played"]
        assert client.get(f"/api/tables/{table}/record").status_code == 200  # over: its record opens
        listed = next(t for t in client.get("/api/tables").json() if t["table"] == table)
        assert (listed["status"], listed["ended"]) == ("aborted", "no_show")


def test_a_seat_that_came_is_bot_played_after_its_grace_but_not_before_it_came(tmp_path: Path) -> None:
    seed = seed_where("caprice", 2, 0)
    with TestClient(create_app(_config(f"sqlite:///{tmp_path / 's.db'}", no_start_minutes=5))) as client:
        table, tokens = create(client, "caprice", ["human", "bot:random"], seed=seed, grace=0.3, substitute="random")
        time.sleep(1.0)
        assert client.get(f"/api/tables/{table}").json()["version"] == 0  # never came: waits
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
            ws.receive_json()
            next_of(ws)
        view = _wait(client, table, lambda v: v["version"] > 2)  # came and left: after 0.3 s a bot plays it
        assert view["seats"][0]["bot_played"] and view["seats"][0]["reason"] == "away"


def test_the_operators_tables_wait_for_their_players(tmp_path: Path) -> None:
    with TestClient(create_app(_config(f"sqlite:///{tmp_path / 's.db'}"))) as client:
        service = client.app.state.meeple["service"]  # type: ignore[attr-defined]
        seed = seed_where("caprice", 2, 0)
        table, _ = service.create(CreateTable(game="caprice", seats=["human", "bot:random"], seed=seed, grace=0.01))
        time.sleep(NO_START * 2)
        view = client.get(f"/api/tables/{table}").json()
        assert view["status"] == "live" and view["version"] == 0 and not view["seats"][0]["bot_played"]


@pytest.mark.parametrize(("grace", "status"), [(0.001, 422), (29.9, 422), (30, 201), (None, 201)])
def test_a_grace_below_the_minimum_is_refused(tmp_path: Path, grace: float | None, status: int) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0)  # the defaults: --min-grace 30
    with TestClient(create_app(config)) as client:
        r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"], "grace": grace})
        assert r.status_code == status, r.text
        if status == 422:
            assert "grace: at least 30 seconds" in r.json()["detail"]


def _from(running: TestClient, host: str) -> TestClient:
    other = person(running, client=(host, 5000))
    return other


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database the server supports."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 's.db'}"
    else:
        with postgres(tmp_path) as url:
            yield url


def test_an_unplayed_rated_table_is_aborted_says_so_everywhere_and_rates_nobody(db: str) -> None:
    with TestClient(create_web_app(_config(db))) as client:
        ann, bea = sign_up(person(client), "Ann"), sign_up(person(client), "Bea")
        seats = [p.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}) for p in (ann, bea)]
        table = seats[0].json()["table"]
        assert [s.status_code for s in seats] == [201, 201] and seats[1].json()["table"] == table
        with ann.websocket_connect(f"/api/tables/{table}/ws") as ws:  # Ann comes and plays her turns; Bea never
            assert ws.receive_json()["seat"] == 0
            state = next_of(ws)
            while state["status"] == "live":
                if state["legal_actions"]:
                    code = state["legal_actions"][0]["code"]
                    ws.send_json({"type": "move", "version": state["version"], "action": code, "move_id": "m"})
                state = next_of(ws)
            assert (state["status"], state["ended"]) == ("aborted", "no_show")
        view = client.get(f"/api/tables/{table}").json()
        assert (view["status"], view["ended"]) == ("aborted", "no_show") and not view["seats"][1]["bot_played"]
        listed = next(t for t in client.get("/api/tables").json() if t["table"] == table)
        assert (listed["status"], listed["ended"]) == ("aborted", "no_show")
        mine = ann.get("/api/me/tables").json()
        assert [(t["table"], t["status"], t["ended"]) for t in mine] == [(table, "aborted", "no_show")]
        assert ann.get("/api/me").json()["ratings"] == {} and bea.get("/api/me").json()["ratings"] == {}
        assert client.get("/api/leaderboard/caprice").json()["total"] == 0
        for lang, words in (("en", "a player never came to the table"), ("fr", "un joueur n’est jamais venu")):
            assert words in ann.get(f"/tables/{table}?lang={lang}").text
            assert words in ann.get(f"/me/tables?lang={lang}").text
            assert words in client.get(f"/?lang={lang}").text


def test_unstarted_tables_count_apart_and_the_oldest_goes_first(db: str) -> None:
    limits = {"rate_limits": True, "max_tables": 2, "max_unstarted_tables": 3, "tables_per_minute": 100}
    with TestClient(create_app(_config(db, no_start_minutes=5, **limits))) as client:
        service = client.app.state.meeple["service"]  # type: ignore[attr-defined]
        operator, _ = service.create(CreateTable(game="caprice", seats=["human", "open"]))  # never made room for
        body = {"game": "caprice", "seats": ["human", "open"]}
        waiting = [_from(client, f"10.0.0.{i}").post("/api/tables", json=body).json()["table"] for i in (1, 2)]
        # three unstarted now (the operator's too): the next one aborts the oldest of an address
        newer = _from(client, "10.0.0.3").post("/api/tables", json=body)
        assert newer.status_code == 201
        first = client.get(f"/api/tables/{waiting[0]}").json()
        assert (first["status"], first["ended"]) == ("aborted", "server_full")
        assert client.get(f"/api/tables/{operator}").json()["status"] == "waiting"
        # quick match makes room the same way
        quick = _from(client, "10.0.0.4").post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Q"})
        assert quick.status_code == 201
        assert client.get(f"/api/tables/{waiting[1]}").json()["status"] == "aborted"
        # started tables (a human came) count against --max-tables
        for i in (5, 6):
            start = _from(client, f"10.0.0.{i}")
            table, tokens = create(start, "caprice", ["human", "bot:random"])
            with start.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
                ws.receive_json()
                next_of(ws)
        full = _from(client, "10.0.0.7").post("/api/tables", json=body)
        assert full.status_code == 429 and "this server is full" in full.text


def _post(url: str, body: dict[str, Any], address: str) -> int:
    data = __import__("json").dumps(body).encode()
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=30) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def squat(url: str, addresses: int = 3, tables: int = 20) -> tuple[float, list[int]]:
    """The issue's attack, scaled down: ``addresses`` × ``tables`` tables nobody opens (each its own address).

    Returns the seconds it took and the HTTP statuses of the creations.
    """
    started = time.perf_counter()
    body = {"game": "caprice", "seats": ["human", "bot:medium"]}
    codes = [_post(f"{url}/api/tables", body, f"10.9.{a}.1") for a in range(addresses) for _ in range(tables)]
    return time.perf_counter() - started, codes


def newcomer(url: str) -> tuple[int, int]:
    """What a new player from another address gets once the server is squatted: a table, and a quick match."""
    table = _post(f"{url}/api/tables", {"game": "caprice", "seats": ["human", "bot:medium"]}, "10.8.0.1")
    quick = _post(f"{url}/api/quickmatch", {"game": "caprice", "players": 2, "name": "Newcomer"}, "10.8.0.2")
    return table, quick


SQUAT_OPTIONS = ("--forwarded-allow-ips", "127.0.0.1", "--max-tables", "60", "--tables-per-minute", "60")
"""The issue's scaled-down server: room for 60 tables, each address may make its 20 in a minute."""


def test_a_squatted_server_still_gives_a_newcomer_a_table_and_a_quick_match(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=SQUAT_OPTIONS, log=tmp_path / "s.log").start()
    try:
        seconds, codes = squat(server.url)
        assert codes == [201] * 60, codes
        assert newcomer(server.url) == (201, 201)  # before: (429, 429), "this server is full"
        print(f"\n60 tables squatted in {seconds:.2f} s; a newcomer's table and quick match: 201, 201")
    finally:
        server.stop()


def test_at_the_unstarted_bound_a_running_server_aborts_the_oldest_and_nobody_came_tables(tmp_path: Path) -> None:
    # a no-start window (30 s) longer than the squat takes on a busy machine: no table may leave by it before the
    # bound is reached, or no table would need to be aborted for room
    options = (*SQUAT_OPTIONS, "--max-unstarted-tables", "60", "--no-start-minutes", "0.5")
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=options, log=tmp_path / "s.log").start()
    try:
        began = time.monotonic()
        first = _post(f"{server.url}/api/tables", {"game": "caprice", "seats": ["human", "bot:medium"]}, "10.9.9.1")
        assert first == 201
        _seconds, codes = squat(server.url, tables=20)
        assert time.monotonic() - began < 30, "the squat outlasted the no-start window: nothing tested"
        assert codes.count(201) == 60  # the 61st unstarted table aborted the oldest
        assert newcomer(server.url) == (201, 201)
        time.sleep(max(0.0, began + 36 - time.monotonic()))  # past the window: the tables nobody opened are aborted
        listed = _get_json(f"{server.url}/api/tables?limit=200")
        ended = {t["ended"] for t in listed if t["status"] == "aborted"}
        assert ended == {"no_show", "server_full"}, listed
        assert not [t for t in listed if t["status"] == "live"]
    finally:
        server.stop()


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return __import__("json").loads(r.read())
