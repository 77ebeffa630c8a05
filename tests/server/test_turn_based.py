"""Turn-based play (issue #34 item 7): clocks of hours or days per move, their bounds, expiry, and restarts.

The clock's rules are the real-time clock's (docs/server.md "Leavers and clocks"): a turn that runs out is played by
the substitute bot. Days are simulated by replacing the service's clock (``service.now``); the restart runs the
server as a real process (``meeple serve``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.clock import clock_view, new_clock, parse_clock, pass_turn, refill_on_return, time_out, turn_deadline
from meeple.server.protocol import MAX_PER_MOVE, ClockSpec, TableSummary
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import ServerProcess, create, http_json, next_of, seed_where

DAY = 86_400.0


def test_a_clock_without_a_bank_gives_every_turn_its_time_per_move() -> None:
    spec = ClockSpec(per_move=3 * DAY)
    assert spec.turn_based and not ClockSpec(per_move=60).turn_based and not ClockSpec(initial=600).turn_based
    assert not ClockSpec(initial=600, per_move=2 * DAY).turn_based  # a bank: real-time play
    clock = new_clock(spec, 2)
    pass_turn(clock, 0, now=1000.0)
    assert turn_deadline(clock) == 1000.0 + 3 * DAY
    pass_turn(clock, 1, now=1000.0 + 2 * DAY)  # two days spent: nothing charged, no bank to empty
    assert clock["banks"] == [3 * DAY, 3 * DAY]
    assert turn_deadline(clock) == 1000.0 + 5 * DAY
    time_out(clock)
    refill_on_return(clock, 1)
    pass_turn(clock, 1, now=1000.0 + 6 * DAY)
    assert turn_deadline(clock) == 1000.0 + 9 * DAY  # the next turn has its full time again
    assert clock_view(clock) is not None


@pytest.mark.parametrize(
    ("text", "per_move", "initial"),
    [
        ("1d", DAY, None),
        ("3d", 3 * DAY, None),
        ("12h", 12 * 3600, None),
        ("1.5D", 1.5 * DAY, None),
        ("600+5", None, 600),
    ],
)
def test_the_command_lines_clock_takes_days_hours_or_a_bank(text: str, per_move: float, initial: float) -> None:
    spec = parse_clock(text)
    assert (spec.per_move, spec.initial) == (per_move, initial)


@pytest.mark.parametrize("text", ["15d", "0d", "-1h", "xd", "d", "1w"])
def test_a_bad_command_line_clock_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_clock(text)


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"per_move": MAX_PER_MOVE + 1}, "at most 1209600 seconds (14 days)"),
        ({"per_move": 0}, "more than 0"),
        ({"per_move": -3600}, "more than 0"),
        ({"per_move": "three days"}, "per_move"),
        ({}, "initial (a bank"),
        ({"per_move": DAY, "increment": 10}, "increment adds to a bank"),
        ({"initial": 86_401}, "initial"),
        ({"per_move": DAY, "days": 3}, "days"),
    ],
)
def test_a_clock_past_its_bounds_is_refused_with_422_naming_them(
    client: TestClient, clock: dict[str, Any], words: str
) -> None:
    r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"], "clock": clock})
    assert r.status_code == 422 and words in r.text, r.text
    assert client.get("/api/tables").json() == []


def test_fourteen_days_per_move_is_the_longest_clock(client: TestClient) -> None:
    table, _tokens = create(client, "caprice", ["human", "human"], clock={"per_move": MAX_PER_MOVE})
    summary = client.get("/api/tables").json()[0]
    TableSummary.model_validate(summary)
    assert summary["clock"]["spec"]["per_move"] == MAX_PER_MOVE and summary["clock"]["spec"]["initial"] is None


def _service(client: TestClient) -> Any:
    return services_of(client.app).tables


def test_a_turn_based_table_waits_days_for_a_move_then_the_substitute_plays_it(tmp_path: Path) -> None:
    quotas = Quotas(rate_limits=False, idle_days=1.0)  # idle after a day: shorter than the clock's three days
    app = create_app(
        ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, allow_seed=True, **{**OPEN, "quotas": quotas})
    )
    with TestClient(app) as client:
        service = _service(client)
        start = time.time()
        service.now = lambda: start
        seed = seed_where("caprice", 2, 0)
        table, tokens = create(client, "caprice", ["human", "human"], clock={"per_move": 3 * DAY}, seed=seed)
        with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:  # seat 0 came, and left
            ws.receive_json()
            next_of(ws)
        client.portal.call(service.evaluate, table)  # type: ignore[union-attr]
        clock = client.get(f"/api/tables/{table}").json()["clock"]
        assert clock["turn_seat"] == 0 and clock["deadline"] == pytest.approx(start + 3 * DAY)

        later = start + 2 * DAY  # two days without a move: idle for --idle-days, but its turn still runs
        service.now = lambda: later
        assert service.expire_idle() == []
        client.portal.call(service.evaluate, table)  # type: ignore[union-attr]
        view = client.get(f"/api/tables/{table}").json()
        assert view["status"] == "live" and not view["seats"][0]["bot_played"]

        over = start + 3 * DAY + 1  # the three days are up: the substitute plays seat 0's move
        service.now = lambda: over
        client.portal.call(service.evaluate, table)  # type: ignore[union-attr]
        deadline = time.monotonic() + 20
        while (view := client.get(f"/api/tables/{table}").json())["version"] == 0:
            assert time.monotonic() < deadline, "the substitute did not play"
            time.sleep(0.05)
        assert view["seats"][0]["bot_played"] and view["seats"][0]["reason"] == "time"
        assert view["clock"]["turn_seat"] == 1 and view["clock"]["deadline"] == pytest.approx(over + 3 * DAY, abs=1)


def test_a_turn_based_table_with_open_seats_waits_a_week_for_players(client: TestClient) -> None:
    service, lobby = _service(client), services_of(client.app).lobby
    slow, _t = create(client, "caprice", ["human", "open"], clock={"per_move": DAY})
    fast, _t = create(client, "caprice", ["human", "open"], clock={"initial": 600})
    now = time.time()
    service.now = lambda: now + DAY + 60
    assert lobby.expire() == [fast]  # a real-time table waits a day (--waiting-hours)
    service.now = lambda: now + 6 * DAY
    assert lobby.expire() == []
    service.now = lambda: now + 7 * DAY + 60
    assert lobby.expire() == [slow]
    assert client.get(f"/api/tables/{slow}").json()["status"] == "abandoned"


def test_a_turn_based_deadline_survives_a_restart_of_the_server(tmp_path: Path) -> None:
    """The deadline is stored with the table: a restarted process keeps it, and a turn that ran out while it was down
    is played by the substitute when it is back."""
    db = f"sqlite:///{tmp_path / 'turns.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log", workers=0).start()
    try:
        body = {"game": "caprice", "seats": ["human", "human"], "seed": seed_where("caprice", 2, 0)}
        slow = http_json(f"{server.url}/api/tables", {**body, "clock": {"per_move": 3 * DAY}})["table"]
        quick = http_json(f"{server.url}/api/tables", {**body, "clock": {"per_move": 2}})
        _come(server.url, quick["table"], quick["seats"][0]["token"])  # a seat that never came is never bot-played
        quick = quick["table"]
        deadline = _deadline(server.url, slow)
        server.stop()
        time.sleep(2.5)  # the quick table's turn runs out while no server runs
        server.start()
        assert _deadline(server.url, slow) == pytest.approx(deadline)
        assert http_json(f"{server.url}/api/tables/{slow}")["status"] == "live"
        end = time.monotonic() + 30
        while not (seat := http_json(f"{server.url}/api/tables/{quick}")["seats"][0])["bot_played"]:
            assert time.monotonic() < end, "the turn that ran out during the restart was not played"
            time.sleep(0.2)
        assert seat["reason"] == "time"
    finally:
        server.stop()


def _come(url: str, table: str, token: str) -> None:
    """The seat of ``token`` connects once (it came) and leaves."""
    from websockets.sync.client import connect

    with connect(f"{url.replace('http', 'ws', 1)}/api/tables/{table}/ws?token={token}") as ws:
        while json.loads(ws.recv(timeout=30))["type"] != "state":
            pass


def _deadline(url: str, table: str) -> float:
    end = time.monotonic() + 30
    while (clock := http_json(f"{url}/api/tables/{table}")["clock"])["deadline"] is None:
        assert time.monotonic() < end, "the clock did not start"
        time.sleep(0.1)
    return float(clock["deadline"])
