"""People at the table (issue #34): names, open seats and joining, starting now, quick match, chat.

The protocol tests run on the OPEN configuration (tests/server/conftest.py); the bounds and quotas of each new field
run on the default one (quotas on), as ``meeple serve`` starts.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.records import GameRecord
from meeple.server.app import ServerConfig, create_app
from meeple.server.protocol import SeatInfo, TableSummary
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import create, next_of, seed_where


def _app(tmp_path: Path, **config: Any) -> TestClient:
    settings = {**OPEN, **config}
    return TestClient(create_app(ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, **settings)))


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """The default configuration: allow-list and quotas as ``meeple serve`` starts."""
    with TestClient(create_app(ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0))) as client:
        yield client


def _wait_for(ws: Any, predicate: Any, kind: str = "state", seconds: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = next_of(ws, kind)
        if predicate(frame):
            return frame
    raise AssertionError("the expected frame did not come")


def _join(client: TestClient, table: str, name: str) -> dict[str, Any]:
    client.cookies.clear()  # another person: without the cookie the last join set
    r = client.post(f"/api/tables/{table}/join", json={"name": name})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    answer: dict[str, Any] = r.json()
    return answer


# ---------------------------------------------------------------------------------------------- 1. names
def test_seats_carry_names_in_frames_the_lobby_and_the_record(client: TestClient) -> None:
    seats = [{"player": "human", "name": "Alice"}, "bot:random", "human"]
    table, tokens = create(client, "capitol", seats, seed=3)
    lobby = client.get("/api/tables").json()[0]
    TableSummary.model_validate(lobby)
    assert [s["name"] for s in lobby["seats"]] == ["Alice", "random bot", "Seat 2"]
    french = client.get("/api/tables", params={"lang": "fr"}).json()[0]
    assert [s["name"] for s in french["seats"]] == ["Alice", "bot aléatoire", "Place 2"]  # a chosen name stays
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}&lang=fr") as ws:
        ws.receive_json()
        frame = next_of(ws)
        assert [s["name"] for s in frame["seats"]] == ["Alice", "bot aléatoire", "Place 2"]
        assert all(SeatInfo.model_validate(s).open is False for s in frame["seats"])
    live = services_of(client.app).tables.tables[table]
    live.status = "finished"  # the record opens when the game is over; its labels are the names
    record = GameRecord.from_json(client.get(f"/api/tables/{table}/record").json())
    assert record.players == ["Alice", "bot:random", "human"]


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("  Alice\x00\x1b[31m  ", "Alice[31m"),  # C0 controls go, the rest is plain text
        ("Bob\u202eevil\u200b", "Bobevil"),  # a right-to-left override and a zero-width space go
        ("<b>Carol</b>", "<b>Carol</b>"),  # HTML stays text: every client escapes it
        ("Dan\t\n  Smith", "Dan Smith"),
        ("Ｅｖｅ", "Ｅｖｅ"),
    ],
)
def test_names_are_stripped_of_control_characters_and_sent_as_text(client: TestClient, name: str, kept: str) -> None:
    table, _ = create(client, "caprice", [{"player": "human", "name": name}, "bot:random"])
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == kept


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"player": "human", "name": "x" * 25}, "at most 24 characters"),
        ({"player": "human", "name": "y" * 97}, "at most 96 characters"),  # the raw input is bounded too
        ({"player": "human", "name": "\x00\u200b \x07"}, "at least one visible character"),
        ({"player": "human", "name": 7}, "string"),
        ({"player": "bot:random", "name": "Robo"}, 'only a \\"human\\" seat takes a name'),
        ({"player": "open", "name": "Zed"}, 'only a \\"human\\" seat takes a name'),
        ({"player": "alien"}, "seats[0]"),
        ({"player": "human", "colour": "red"}, "colour"),
    ],
)
def test_a_bad_seat_object_is_refused_with_422(strict: TestClient, seat: dict[str, Any], words: str) -> None:
    r = strict.post("/api/tables", json={"game": "caprice", "seats": [seat, "bot:random"]})
    assert r.status_code == 422 and words in r.text, r.text
    assert "x" * 41 not in r.text and "y" * 41 not in r.text  # the input is never echoed at length


# ---------------------------------------------------------------------------------------------- 2. open seats
def test_an_open_seat_waits_for_a_player_then_the_game_and_its_bots_start(client: TestClient) -> None:
    clock = {"initial": 300, "increment": 5}
    seed = seed_where("citadels", 4, 2)
    seats = [{"player": "human", "name": "Host"}, "bot:random", "open", "open"]
    table, tokens = create(client, "citadels", seats, seed=seed, clock=clock)
    assert list(tokens) == [0]  # an open seat has no token until it is taken
    create(client, "caprice", ["human", "bot:random"])  # a live table, not listed among the waiting ones
    lobby = client.get("/api/tables", params={"status": "waiting"}).json()[0]
    assert lobby["status"] == "waiting" and len(client.get("/api/tables", params={"status": "waiting"}).json()) == 1
    assert client.get("/api/tables", params={"status": "sleeping"}).status_code == 422
    assert [s["open"] for s in lobby["seats"]] == [False, False, True, True]
    assert [s["name"] for s in lobby["seats"]] == ["Host", "random bot", "open seat", "open seat"]
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        waiting = next_of(ws)
        assert waiting["status"] == "waiting" and waiting["legal_actions"] == []
        assert waiting["clock"]["turn_seat"] is None and waiting["clock"]["deadline"] is None  # no clock runs yet
        ws.send_json({"type": "move", "version": waiting["version"], "action": 0, "move_id": "early"})
        assert next_of(ws, "error")["code"] == "not_started"
        first = _join(client, table, "Guest")
        assert first == {"table": table, "seat": 2, "token": first["token"]} and len(first["token"]) >= 32
        seated = _wait_for(ws, lambda f: f["seats"][2]["name"] == "Guest")
        assert seated["status"] == "waiting" and not seated["seats"][2]["open"] and seated["seats"][3]["open"]
        last = _join(client, table, "Late")
        assert last["seat"] == 3
        live = _wait_for(ws, lambda f: f["status"] == "live")
        assert live["seats"][3]["name"] == "Late"
        # the game runs: seat 2 moves first, then the bot seat plays (bots start with the last seat taken)
        with client.websocket_connect(f"/api/tables/{table}/ws?token={first['token']}") as guest:
            guest.receive_json()
            turn = _wait_for(guest, lambda f: bool(f["legal_actions"]))
            assert turn["clock"]["turn_seat"] == 2 and turn["clock"]["deadline"] is not None
    assert client.get(f"/api/tables/{table}").json()["status"] == "live"
    assert client.get("/api/tables", params={"status": "waiting"}).json() == []


def test_joining_a_full_started_unknown_or_own_table_is_refused(strict: TestClient) -> None:
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]})
    table, token = r.json()["table"], r.json()["seats"][0]["token"]
    strict.cookies.clear()
    assert (
        strict.post(
            f"/api/tables/{table}/join", json={"name": "Me"}, headers={"Authorization": f"Bearer {token}"}
        ).status_code
        == 409
    )  # the creator already holds a seat here
    joined = strict.post(f"/api/tables/{table}/join", json={"name": "Ann"})
    assert joined.status_code == 201 and f"meeple_seat_{table}" in joined.headers["set-cookie"]
    assert (
        "httponly" in joined.headers["set-cookie"].lower() and "samesite=strict" in joined.headers["set-cookie"].lower()
    )
    again = strict.post(f"/api/tables/{table}/join", json={"name": "Ann"})  # the same browser (its cookie)
    assert again.status_code == 409 and "already" in again.text
    strict.cookies.clear()
    late = strict.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert late.status_code == 409 and "started" in late.text
    live = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]}).json()["table"]
    assert strict.post(f"/api/tables/{live}/join", json={"name": "Cy"}).status_code == 409
    assert strict.post("/api/tables/nope/join", json={"name": "Cy"}).status_code == 404
    for bad in ({"name": "z" * 25}, {"name": ""}, {"name": "\x01"}, {}, {"name": "Al", "seat": 1}):
        r = strict.post(f"/api/tables/{table}/join", json=bad)
        assert r.status_code == 422, bad


def test_joins_per_address_are_limited(tmp_path: Path) -> None:
    with TestClient(
        create_app(ServerConfig(db=f"sqlite:///{tmp_path / 'j.db'}", bot_workers=0, quotas=Quotas(joins_per_minute=2)))
    ) as client:
        table = client.post("/api/tables", json={"game": "citadels", "seats": ["human", *["open"] * 4]}).json()["table"]
        _join(client, table, "A")
        _join(client, table, "B")
        r = client.post(f"/api/tables/{table}/join", json={"name": "C"})
        assert r.status_code == 429 and "retry-after" in r.headers


def test_the_creator_may_start_now_with_bots_in_the_open_seats(client: TestClient) -> None:
    seed = seed_where("caprice", 2, 1)
    table, tokens = create(client, "caprice", [{"player": "human", "name": "Host"}, "open"], seed=seed)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.post(f"/api/tables/{table}/start", json={"bot": "nonsense"}, headers=headers).status_code == 422
    assert client.post(f"/api/tables/{table}/start", headers={"Authorization": "Bearer guess"}).status_code == 403
    r = client.post(f"/api/tables/{table}/start", json={"bot": "random"}, headers=headers)
    assert r.status_code == 200 and r.json() == {"table": table, "status": "live"}
    view = client.get(f"/api/tables/{table}").json()
    assert view["status"] == "live" and view["seats"][1]["player"] == "bot:random"
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        assert _wait_for(ws, lambda f: bool(f["legal_actions"]))["version"] >= 1  # the bot moved first
    assert client.post(f"/api/tables/{table}/start", headers=headers).status_code == 409
    assert client.post(f"/api/tables/{table}/join", json={"name": "Too late"}).status_code == 409


def test_only_the_creator_may_start_and_only_allowed_bots(strict: TestClient) -> None:
    r = strict.post("/api/tables", json={"game": "citadels", "seats": ["human", "open", "open"]}).json()
    table, creator = r["table"], r["seats"][0]["token"]
    guest = _join(strict, table, "Guest")
    assert (
        strict.post(f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {guest['token']}"}).status_code
        == 403
    )
    ismcts = {"bot": "ismcts:100000"}
    r = strict.post(f"/api/tables/{table}/start", json=ismcts, headers={"Authorization": f"Bearer {creator}"})
    assert r.status_code == 422 and "allowed" in r.text
    assert strict.post(f"/api/tables/{table}/start", json={"bot": "b" * 65}).status_code == 422
    assert strict.get(f"/api/tables/{table}").json()["status"] == "waiting"  # nothing changed


def test_a_waiting_table_ends_as_abandoned_after_a_day(client: TestClient) -> None:
    table, tokens = create(client, "caprice", ["human", "open"])
    state = services_of(client.app)
    lobby, service = state.lobby, state.tables
    assert lobby.expire() == []
    later = time.time() + 86_400 + 60
    service.now = lambda: later
    assert lobby.expire() == [table]
    assert client.get(f"/api/tables/{table}").json()["status"] == "abandoned"
    assert client.post(f"/api/tables/{table}/join", json={"name": "Late"}).status_code == 409


# ---------------------------------------------------------------------------------------------- 3. quick match
def test_two_quick_match_requests_meet_at_one_table(client: TestClient) -> None:
    first = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Ann"})
    assert first.status_code == 201, first.text
    waiting = client.get(f"/api/tables/{first.json()['table']}").json()
    assert waiting["status"] == "waiting" and [s["name"] for s in waiting["seats"]] == ["Ann", "open seat"]
    other_game = client.post("/api/quickmatch", json={"game": "citadels", "players": 4, "name": "Cid"}).json()
    assert other_game["table"] != first.json()["table"]
    again = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Ann"}).json()
    assert again["table"] != first.json()["table"]  # the same browser (its seat cookie) is not seated against itself
    client.cookies.clear()
    second = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Bob"})
    assert second.status_code == 201
    assert second.json()["table"] == first.json()["table"] and second.json()["seat"] == 1
    view = client.get(f"/api/tables/{first.json()['table']}").json()
    assert view["status"] == "live" and [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
    client.cookies.clear()
    third = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Cat"}).json()
    assert third["table"] == again["table"] and third["seat"] == 1  # the next one meets the waiting one


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "players": 2, "name": "A"},
        {"game": "caprice", "players": 5, "name": "A"},
        {"game": "caprice", "players": 2, "name": "A" * 25},
        {"game": "caprice", "players": 2},
        {"game": "caprice", "players": 10**9, "name": "A"},
        {"game": "c" * 65, "players": 2, "name": "A"},
    ],
)
def test_a_bad_quick_match_is_refused_with_422(strict: TestClient, body: dict[str, Any]) -> None:
    assert strict.post("/api/quickmatch", json=body).status_code == 422


def test_bots_fill_a_quick_match_table_after_the_wait_unless_its_creator_waits(tmp_path: Path) -> None:
    with _app(tmp_path, quotas=Quotas(rate_limits=False, quickmatch_wait=0.5)) as client:
        body = {"game": "citadels", "players": 3, "name": "Solo"}
        table = client.post("/api/quickmatch", json=body).json()["table"]
        client.cookies.clear()
        patient = client.post("/api/quickmatch", json={**body, "players": 4}).json()
        client.cookies.clear()
        assert client.post(f"/api/tables/{patient['table']}/wait").status_code == 403  # no token: not the creator
        r = client.post(f"/api/tables/{patient['table']}/wait", headers={"Authorization": f"Bearer {patient['token']}"})
        assert r.status_code == 200
        deadline = time.monotonic() + 20
        while client.get(f"/api/tables/{table}").json()["status"] == "waiting":
            assert time.monotonic() < deadline, "the bots never came"
            time.sleep(0.1)
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        assert [s["player"] for s in seats] == ["human", "bot:medium", "bot:medium"]
        assert client.get(f"/api/tables/{patient['table']}").json()["status"] == "waiting"


# ---------------------------------------------------------------------------------------------- 4. chat
def test_chat_reaches_everyone_at_the_table_with_the_recent_history_on_arrival(client: TestClient) -> None:
    table, tokens = create(client, "caprice", [{"player": "human", "name": "Ann"}, "human"], seed=5)
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ann,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}&lang=fr") as other,
        client.websocket_connect(f"/api/tables/{table}/ws") as watcher,
    ):
        for ws in (ann, other, watcher):
            next_of(ws)
        ann.send_json({"type": "chat", "text": "  hello <b>all</b>\x07 "})
        lines = [next_of(ws, "chat") for ws in (ann, other, watcher)]
        assert {(line["seat"], line["name"], line["text"]) for line in lines} == {(0, "Ann", "hello <b>all</b>")}
        assert set(lines[0]) == {"type", "seat", "name", "text", "time"} and abs(lines[0]["time"] - time.time()) < 60
        other.send_json({"type": "chat", "text": "salut"})
        assert next_of(ann, "chat")["name"] == "Seat 1" and next_of(other, "chat")["name"] == "Place 1"
        assert next_of(watcher, "chat")["text"] == "salut"
        watcher.send_json({"type": "chat", "text": "nice move"})
        spectator = next_of(watcher, "chat")
        assert spectator["seat"] is None and spectator["name"] == "spectator"
    with client.websocket_connect(f"/api/tables/{table}/ws") as late:
        late.receive_json()
        history = [next_of(late, "chat")["text"] for _ in range(3)]
        assert history == ["hello <b>all</b>", "salut", "nice move"]
    assert "hello" not in client.get(f"/api/tables/{table}/replay").text  # 409 while it runs, and no chat after


def test_a_player_may_mute_spectators_chat_for_their_own_view(client: TestClient) -> None:
    table, tokens = create(client, "caprice", ["human", "human"])
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as player,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as other,
        client.websocket_connect(f"/api/tables/{table}/ws") as watcher,
    ):
        for ws in (player, other, watcher):
            next_of(ws)
        player.send_json({"type": "mute", "spectators": True})
        player.send_json({"type": "sync"})  # answered after the mute was handled
        next_of(player)
        watcher.send_json({"type": "chat", "text": "psst"})
        assert next_of(other, "chat")["seat"] is None and next_of(watcher, "chat")["name"] == "spectator"
        other.send_json({"type": "chat", "text": "from a seat"})
        assert next_of(player, "chat")["text"] == "from a seat"  # the spectator's line never came
        assert next_of(other, "chat")["text"] == "from a seat"
        player.send_json({"type": "mute", "spectators": False})
        player.send_json({"type": "sync"})
        next_of(player)
        watcher.send_json({"type": "chat", "text": "again"})
        assert next_of(player, "chat")["text"] == "again"


def test_chat_is_stored_with_the_table_but_not_in_its_record(client: TestClient) -> None:
    table, tokens = create(client, "caprice", ["human", "bot:random"], seed=2)
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        next_of(ws)
        ws.send_json({"type": "chat", "text": "gl hf"})
        assert next_of(ws, "chat")["text"] == "gl hf"
    live = services_of(client.app).tables.tables[table]
    live.status = "finished"
    for route in ("record", "replay"):
        assert "gl hf" not in client.get(f"/api/tables/{table}/{route}").text
    chat = services_of(client.app).hub.chat
    assert [e.text for e in chat.recent(table)] == ["gl hf"]


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "chat", "text": "x" * 501}, "at most 500 characters"),
        ({"type": "chat", "text": "\x00\u202e  "}, "at least one visible character"),
        ({"type": "chat", "text": 5}, "string"),
        ({"type": "chat"}, "text"),
        ({"type": "chat", "text": "hi", "seat": 1}, "seat"),
        ({"type": "mute", "spectators": "yes"}, "spectators"),
    ],
)
def test_a_bad_chat_line_is_refused_and_the_connection_stays(strict: TestClient, message: dict, words: str) -> None:
    table = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}).json()["table"]
    with strict.websocket_connect(f"/api/tables/{table}/ws") as ws:
        next_of(ws)
        ws.send_json(message)
        error = next_of(ws, "error")
        assert error["code"] == "bad_message" and words in error["message"]
        assert "x" * 41 not in error["message"]
        ws.send_json({"type": "chat", "text": "still here"})
        assert next_of(ws, "chat")["text"] == "still here"


def test_chat_lines_per_address_are_limited(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'c.db'}", bot_workers=0, quotas=Quotas(chats_per_minute=3))
    with TestClient(create_app(config), client=("127.0.0.1", 50000)) as client:  # loopback: /metrics is open
        table = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}).json()["table"]
        with (
            client.websocket_connect(f"/api/tables/{table}/ws") as ws,
            client.websocket_connect(f"/api/tables/{table}/ws") as second,
        ):
            next_of(ws), next_of(second)
            for i in range(2):
                ws.send_json({"type": "chat", "text": f"line {i}"})
                assert next_of(ws, "chat")["text"] == f"line {i}"
            second.send_json({"type": "chat", "text": "line 2"})  # another socket of the same address counts
            _wait_for(second, lambda line: line["text"] == "line 2", "chat")
            ws.send_json({"type": "chat", "text": "one too many"})
            error = next_of(ws, "error")
            assert error["code"] == "rate_limited" and "try again" in error["message"]
            ws.send_json({"type": "sync"})
            assert next_of(ws)["type"] == "state"  # the connection stays
        assert 'meeple_refused_total{reason="chat"} 1.0' in client.get("/metrics").text


# ---------------------------------------------------------------------------------------------- the terminal
class _Socket:
    """A scripted server: ``recv`` returns the frames in order; ``send`` keeps what the client sent.

    A callable in the script is a pause: it is called (the user types meanwhile), then ``recv(timeout=...)`` times
    out as websockets' does (TimeoutError).
    """

    def __init__(self, frames: list[Any]) -> None:
        import json

        self.frames = [f if callable(f) else json.dumps(f) for f in frames]
        self.sent: list[dict[str, Any]] = []
        self.timeouts = 0

    def recv(self, timeout: float | None = None) -> str:
        if not self.frames:  # the script is over: the connection is lost
            from websockets.exceptions import ConnectionClosedError
            from websockets.frames import Close

            raise ConnectionClosedError(Close(1006, ""), None)
        frame = self.frames.pop(0)
        if callable(frame):
            frame()
            assert timeout is not None, "a pause in the script needs a read with a timeout"
            self.timeouts += 1
            raise TimeoutError
        return str(frame)

    def send(self, text: str) -> None:
        import json

        self.sent.append(json.loads(text))


def test_the_terminal_shows_names_and_chat_escaped_and_sends_say_and_mute() -> None:
    import io

    from rich.console import Console

    from meeple.cli.online import OnlineSession
    from meeple.server.protocol import PROTOCOL_VERSION

    def seats(open_: bool) -> list[dict[str, Any]]:
        names = ["Ann", "open seat" if open_ else "[bold red]Mallory[/]"]
        return [
            {
                "seat": i,
                "player": "open" if open_ and i else "human",
                "name": n,
                "open": open_ and i == 1,
                "connected": True,
                "bot_played": False,
                "reason": None,
            }
            for i, n in enumerate(names)
        ]

    state = GameRecord("caprice", {"players": 2}, seed_where("caprice", 2, 0), []).replay()
    action = state.legal_actions()[0]
    common = {
        "type": "state",
        "table": "t",
        "seat": 0,
        "current_player": 0,
        "log_start": 0,
        "clock": None,
        "observation": dict(state.observation(0)),
        "returns": None,
    }
    legal = [
        {
            "code": state.game.codec.encode(action),
            "text": state.action_to_string(action),
            "message": state.offer_message(action, perspective=0).to_json(),
            "json": action.to_json(),
        }
    ]
    frames = [
        {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "table": "t",
            "seat": 0,
            "game": "caprice",
            "params": {},
            "lang": "en",
        },
        {**common, "version": 0, "status": "waiting", "legal_actions": [], "log": [], "seats": seats(True)},
        {"type": "chat", "seat": None, "name": "[link=x]spy[/link]", "text": "[blink]hi[/blink]", "time": 1.0},
        {**common, "version": 0, "status": "live", "legal_actions": legal, "log": [], "seats": seats(False)},
        {
            **common,
            "version": 1,
            "status": "finished",
            "legal_actions": [],
            "log": [[1, "took a piece"]],
            "seats": seats(False),
            "returns": [1.0, -1.0],
        },
    ]
    socket = _Socket(frames)
    out = io.StringIO()
    answers = iter(["say  gl hf [b]", "mute", "1"])
    session = OnlineSession(Console(file=out, width=200, color_system=None), lambda _prompt: next(answers), socket)
    assert session.run() == 0
    text = out.getvalue()
    assert "Waiting for players: 1 open seats" in text
    assert "[link=x]spy[/link] (watching) » [blink]hi[/blink]" in text  # markup from strangers is shown as text
    assert "[bold red]Mallory[/]: took a piece" in text and "[bold red]Mallory[/]: -1" in text
    assert socket.sent[0] == {"type": "chat", "text": "gl hf [b]"}
    assert socket.sent[1] == {"type": "mute", "spectators": True}
    assert socket.sent[2]["type"] == "move"


def _caprice_frames(legal_for_me: bool) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A Caprice table's hello, a state frame (``legal_for_me``: seat 0 to move, else seat 1) and its final frame."""
    from meeple.server.protocol import PROTOCOL_VERSION

    state = GameRecord("caprice", {"players": 2}, seed_where("caprice", 2, 0), []).replay()
    action = state.legal_actions()[0]
    seats = [
        {"seat": i, "player": "human", "name": n, "open": False, "connected": True, "bot_played": False, "reason": None}
        for i, n in enumerate(["Ann", "Bob"])
    ]
    legal = [
        {
            "code": state.game.codec.encode(action),
            "text": state.action_to_string(action),
            "message": state.offer_message(action, perspective=0).to_json(),
            "json": action.to_json(),
        }
    ]
    hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "table": "t", "seat": 0, "game": "caprice", "params": {}}
    frame = {
        "type": "state",
        "table": "t",
        "seat": 0,
        "version": 3,
        "status": "live",
        "current_player": 0 if legal_for_me else 1,
        "log_start": 0,
        "log": [],
        "clock": None,
        "observation": dict(state.observation(0)),
        "legal_actions": legal if legal_for_me else [],
        "seats": seats,
        "returns": None,
    }
    final = {**frame, "version": 9, "status": "finished", "legal_actions": [], "returns": [1.0, -1.0]}
    return hello, frame, final


def test_the_terminal_chats_while_the_others_play_and_keeps_its_move_prompt() -> None:
    """``say`` works while another seat is to move: lines typed then are read from the LineReader's queue between
    reads of the socket with a timeout; a move typed out of turn is refused with a word; the move prompt still reads
    the next line as before (issue #34's leftover, #33 round three)."""
    import io
    import queue

    from rich.console import Console

    from meeple.cli.online import OnlineSession

    hello, waiting, final = _caprice_frames(legal_for_me=False)
    _hello, mine, _final = _caprice_frames(legal_for_me=True)
    at_prompt: list[str] = []

    class Keyboard(queue.Queue[str | None]):
        """The user's lines; at the move prompt (a blocking read of an empty queue) they type "1"."""

        def get(self, block: bool = True, timeout: float | None = None) -> str | None:
            if block and self.empty():
                at_prompt.append(out.getvalue().rsplit("\n", 1)[-1])
                self.put("1")
            return super().get(block, timeout)

    lines = Keyboard()

    def typing(*typed: str) -> Any:
        return lambda: [lines.put(t) for t in typed]

    socket = _Socket(
        [
            hello,
            waiting,
            typing("say hello [b]while[/b] you think", "1"),  # the others' turn: chat, and a move out of turn
            {"type": "chat", "seat": 0, "name": "Ann", "text": "hello [b]while[/b] you think", "time": 1.0},
            typing("mute", "board"),
            mine,
            {"type": "ack", "move_id": "?"},  # not ours: ignored
            typing("say gg"),  # waiting for the move's ack
            final,
        ]
    )
    out = io.StringIO()

    def ask(_prompt: str) -> str:
        raise AssertionError("with a line queue, the session never calls ask")

    session = OnlineSession(Console(file=out, width=200, color_system=None), ask, socket, lines=lines)
    assert session.run() == 0
    text = out.getvalue()
    sent = socket.sent
    assert sent[0] == {"type": "chat", "text": "hello [b]while[/b] you think"}  # before any move was asked for
    assert sent[1] == {"type": "mute", "spectators": True}
    assert sent[2]["type"] == "move" and sent[2]["action"] == mine["legal_actions"][0]["code"]
    assert sent[3] == {"type": "chat", "text": "gg"}
    assert len(sent) == 4  # the "1" typed out of turn sent nothing
    assert "Not your turn" in text
    assert text.index("Not your turn") < text.index("Your move: ")
    assert "Ann (You)" not in text and "Ann » hello [b]while[/b] you think" in text  # escaped, not styled
    assert socket.timeouts == 3 and at_prompt == ["Your move: "]  # one line read at the prompt, after it was shown


def test_the_terminal_quits_while_the_others_play() -> None:
    """``quit`` (or the end of input) while another seat is to move ends the session with 1, nothing sent."""
    import io
    import queue

    from rich.console import Console

    from meeple.cli.online import OnlineSession

    hello, waiting, _final = _caprice_frames(legal_for_me=False)
    for typed in ("quit", None):
        lines: queue.Queue[str | None] = queue.Queue()
        socket = _Socket([hello, waiting, lambda typed=typed, lines=lines: lines.put(typed)])
        session = OnlineSession(Console(file=io.StringIO(), width=200), input, socket, lines=lines)
        assert session.run() == 1
        assert socket.sent == []


def test_the_line_reader_queues_each_line_then_none_at_the_end_of_input() -> None:
    from meeple.cli.online import LineReader

    typed = iter(["say hi", "1"])

    def ask(prompt: str) -> str:
        assert prompt == ""
        line = next(typed, None)
        if line is None:
            raise EOFError
        return line

    reader = LineReader(ask)
    assert [reader.lines.get(timeout=5) for _ in range(3)] == ["say hi", "1", None]


def test_the_terminal_mutes_spectators_again_after_a_reconnection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server keeps a mute per connection: the terminal sends it again on the new one (issue #34, item 4)."""
    import io

    from rich.console import Console

    from meeple.cli import online
    from meeple.cli.online import OnlineSession

    monkeypatch.setattr(online.time, "sleep", lambda _s: None)
    hello, frame, _final = _caprice_frames(legal_for_me=True)
    first, second = _Socket([hello, frame]), _Socket([hello, frame])
    sockets = iter([second])

    def reconnect() -> _Socket:
        next_socket = next(sockets, None)
        if next_socket is None:
            raise OSError("the server is gone")
        return next_socket

    monkeypatch.setattr(online, "RECONNECT_FOR", 0.0)
    answers = iter(["mute", "1"])  # then the connection is lost before the move's ack
    out = io.StringIO()
    session = OnlineSession(
        Console(file=out, width=200, color_system=None), lambda _p: next(answers), first, reconnect=reconnect
    )
    with pytest.raises(online.OnlineError):  # after the second connection, the server stays unreachable
        session.run()
    assert [m["type"] for m in first.sent] == ["mute", "move"]
    assert second.sent[0] == {"type": "mute", "spectators": True}  # sent again before anything else
    assert second.sent[1] == first.sent[1]  # and the move not acknowledged, with its move_id


# ---------------------------------------------------------------------------------------------- storage
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_of_the_last_release_is_upgraded_in_place_and_its_tables_play_on(
    tmp_path: Path, backend: str
) -> None:
    """A database at revision 0002 with a live table is migrated at start-up; the table plays on; the new routes
    work on the upgraded database (on PostgreSQL too: row locks, the quick-match lock, NOTIFY of chat lines)."""
    import contextlib
    import json

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from meeple.server.db import MIGRATIONS, make_engine
    from meeple.server.tables import hash_token
    from tests.server.helpers import postgres

    with contextlib.ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'old.db'}" if backend == "sqlite" else stack.enter_context(postgres(tmp_path))
        engine = make_engine(url)
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        seed = seed_where("caprice", 2, 0)
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0002")  # the schema of the last release
            params = json.dumps({"players": 2})
            conn.execute(
                text(
                    "INSERT INTO tables (id, game, params, seed, status, version, rev, created, substitute, deadline)"
                    " VALUES ('old', 'caprice', :params, :seed, 'live', 0, 0, :now, 'random', :now)"
                ),
                {"params": params, "seed": seed, "now": time.time()},
            )
            for seat, player, token in ((0, "human", hash_token("old-secret")), (1, "bot:random", None)):
                conn.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, player, token_hash, bot_played)"
                        " VALUES ('old', :seat, :player, :token, false)"
                    ),
                    {"seat": seat, "player": player, "token": token},
                )
        engine.dispose()
        with TestClient(create_app(ServerConfig(db=url, bot_workers=0, **OPEN))) as client:
            view = client.get("/api/tables/old").json()
            assert view["status"] == "live" and [s["name"] for s in view["seats"]] == ["Seat 0", "random bot"]
            with client.websocket_connect("/api/tables/old/ws?token=old-secret") as ws:
                ws.receive_json()
                frame = _wait_for(ws, lambda f: bool(f["legal_actions"]))
                move = {"type": "move", "version": frame["version"], "action": frame["legal_actions"][0]["code"]}
                ws.send_json({**move, "move_id": "after-upgrade"})
                _wait_for(ws, lambda f: f["version"] > frame["version"])
                ws.send_json({"type": "chat", "text": "still here"})
                assert next_of(ws, "chat")["text"] == "still here"
            first = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "A"}).json()
            client.cookies.clear()
            second = client.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "B"}).json()
            client.cookies.clear()
            assert first["table"] == second["table"]
            assert client.get(f"/api/tables/{first['table']}").json()["status"] == "live"


def test_two_processes_meet_by_quick_match_and_chat_through_postgresql(tmp_path: Path) -> None:
    """Real ``meeple serve`` processes on one PostgreSQL: a quick match asked of each meets at one table, the join
    at one process starts the game for a seat connected to the other, and chat crosses processes in order."""
    import json

    from websockets.sync.client import connect

    from tests.server.helpers import ServerProcess, http_json, postgres

    def frames(ws: Any, kind: str, predicate: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if message["type"] == kind and predicate(message):
                return message
        raise AssertionError(f"no such {kind} frame")

    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            first = http_json(f"{a.url}/api/quickmatch", {"game": "caprice", "players": 2, "name": "Ann"})
            lobby = http_json(f"{b.url}/api/tables")
            assert [t["status"] for t in lobby if t["table"] == first["table"]] == ["waiting"]
            ws_url = a.url.replace("http", "ws") + f"/api/tables/{first['table']}/ws"
            with connect(f"{ws_url}?token={first['token']}") as ann, connect(ws_url) as watcher:
                frames(ann, "state", lambda f: f["status"] == "waiting")
                second = http_json(f"{b.url}/api/quickmatch", {"game": "caprice", "players": 2, "name": "Bob"})
                assert second["table"] == first["table"] and second["seat"] == 1
                started = frames(ann, "state", lambda f: f["status"] == "live")
                assert [s["name"] for s in started["seats"]] == ["Ann", "Bob"]
                b_url = b.url.replace("http", "ws") + f"/api/tables/{first['table']}/ws?token={second['token']}"
                with connect(b_url) as bob:
                    frames(bob, "state", lambda f: True)
                    for i in range(3):
                        bob.send(json.dumps({"type": "chat", "text": f"hi {i}"}))
                    for ws in (ann, watcher):
                        got = [frames(ws, "chat", lambda f: True) for _ in range(3)]
                        assert [(m["seat"], m["name"], m["text"]) for m in got] == [
                            (1, "Bob", f"hi {i}") for i in range(3)
                        ]
        finally:
            a.stop()
            b.stop()


def test_the_terminal_takes_an_open_seat_or_a_quick_match_by_name(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.server.helpers import ServerProcess, http_json

    options = ("--no-rate-limits", "--quickmatch-wait", "0.5")
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", log=tmp_path / "server.log", options=options)
    server.start()
    try:
        body = {"game": "caprice", "seats": ["open", "bot:random"]}
        table = http_json(f"{server.url}/api/tables", body)["table"]
        command = [sys.executable, "-m", "meeple", "play", "--server", server.url]
        joined = subprocess.run(
            [*command, "--table", table, "--name", "Bob"],
            input="1\n" * 400,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert joined.returncode == 0, joined.stdout[-2000:] + joined.stderr[-2000:]
        assert "you are seat 0" in joined.stdout and "The game is over" in joined.stdout
        assert http_json(f"{server.url}/api/tables/{table}")["seats"][0]["name"] == "Bob"
        full = subprocess.run([*command, "--table", table, "--name", "Cy"], capture_output=True, text=True, timeout=60)
        assert full.returncode == 1 and "refused" in full.stderr + full.stdout
        quick = subprocess.run(
            [*command, "caprice", "--players", "2", "--name", "Ann"],
            input="1\n" * 400,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert quick.returncode == 0, quick.stdout[-2000:] + quick.stderr[-2000:]
        assert "Waiting for players" in quick.stdout and "The game is over" in quick.stdout
    finally:
        server.stop()


def test_a_connection_stays_when_the_chat_history_cannot_be_read(client: TestClient) -> None:
    table, tokens = create(client, "caprice", ["human", "human"])
    chat = services_of(client.app).hub.chat

    def broken(table_id: str, limit: int = 30) -> list[Any]:
        raise ConnectionError("the database is down")

    chat.recent = broken
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        assert next_of(ws)["seat"] == 0  # the state comes; the history does not
        ws.send_json({"type": "chat", "text": "anyone?"})
        assert next_of(ws, "chat")["text"] == "anyone?"
    service = services_of(client.app).tables
    deadline = time.monotonic() + 10
    while service.tables[table].conns:  # the connection is let go (its presence counted out) when it closes
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_seats_from_one_rewrites_every_seat_number_nested_and_leaves_the_rest() -> None:
    from meeple.i18n import M, translator
    from meeple.server.people import PeopleTranslator, seat_label, seats_from_one

    inner = M("it is seat {seat}'s turn, not seat {player}'s", seat=2, player=0)
    outer = M(
        "{action} is not legal now for seat {seat}; legal: {legal}{more}", action=inner, seat=0, legal="x", more=""
    )
    said = PeopleTranslator(translator("en")).message(outer)
    assert said == "it is seat 3's turn, not seat 1's is not legal now for seat 1; legal: x"
    assert seats_from_one(M("{n} gold", n=3)) == M("{n} gold", n=3)  # no seat named: unchanged
    assert seats_from_one(M("Seat {seat}", seat=True)).args["seat"] is True  # not a number
    assert PeopleTranslator(translator("fr")).message(seat_label("human", 0)) == "Place 1"
    assert translator("fr").message(seat_label("human", 0)) == "Place 0"  # the protocol's own texts keep indices


def test_the_terminal_logs_in_and_plays_the_accounts_seats(tmp_path: Path) -> None:
    """``meeple play --server URL --user NAME``: the password asked (getpass reads stdin without a terminal), the
    session cookie opens a seat bound to the account over the WebSocket, and a quick match binds its seat."""
    import json
    import subprocess
    import sys
    import urllib.request

    from meeple.server.accounts import SESSION_COOKIE
    from tests.server.helpers import ServerProcess, http_json

    options = ("--no-rate-limits", "--quickmatch-wait", "0.5")
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", log=tmp_path / "server.log", options=options)
    server.start()
    password = "correct horse battery"

    def play(*args: str, typed: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "meeple", "play", "--server", server.url, "--user", "Vic", *args]
        # a new session: no controlling terminal, so getpass reads the password from stdin
        return subprocess.run(command, input=typed, capture_output=True, text=True, timeout=300, start_new_session=True)

    try:
        signup = urllib.request.Request(
            f"{server.url}/api/accounts",
            json.dumps({"username": "Vic", "password": password}).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(signup, timeout=30) as answer:
            cookie = next(c for c in answer.headers.get_all("Set-Cookie") if c.startswith(SESSION_COOKIE))
        body = json.dumps({"game": "caprice", "seats": ["human", "bot:random"]}).encode()
        create = urllib.request.Request(
            f"{server.url}/api/tables",
            body,
            {"Content-Type": "application/json", "Cookie": cookie.split(";")[0]},
        )
        with urllib.request.urlopen(create, timeout=30) as answer:
            table = json.loads(answer.read())["table"]
        wrong = play("--table", table, typed="not the password\n")
        assert wrong.returncode == 1 and "wrong username or password" in wrong.stderr + wrong.stdout
        bound = play("--table", table, typed=password + "\n" + "1\n" * 400)
        assert bound.returncode == 0, bound.stdout[-2000:] + bound.stderr[-2000:]
        assert "you are seat 0" in bound.stdout and "The game is over" in bound.stdout
        assert password not in bound.stdout + bound.stderr
        quick = play("caprice", "--players", "2", typed=password + "\n" + "1\n" * 400)
        assert quick.returncode == 0, quick.stdout[-2000:] + quick.stderr[-2000:]
        games = http_json(f"{server.url}/api/players/Vic")["games"]
        assert len(games) == 2, "the quick match's seat is bound to the account too"
    finally:
        server.stop()


def test_a_token_that_opens_no_seat_is_refused_in_the_readers_language(client: TestClient) -> None:
    table, _tokens = create(client, "caprice", ["human", "open"])
    french = {"Authorization": "Bearer guess", "Accept-Language": "fr-FR,fr;q=0.9"}
    for action in ("start", "wait", "token"):
        r = client.post(f"/api/tables/{table}/{action}", headers=french)
        assert r.status_code == 403 and r.json() == {"detail": "ce jeton n'ouvre aucune place à cette table"}, action
    r = client.post(f"/api/tables/{table}/start", headers={"Authorization": "Bearer guess"})
    assert r.json() == {"detail": "this token opens no seat at this table"}
