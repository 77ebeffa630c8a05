"""The server's REST routes and WebSocket protocol, through FastAPI's test client (issue "Play online")."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from meeple.core.records import GameRecord
from meeple.core.state import SPECTATOR
from meeple.server.db import EventRow, make_engine
from meeple.server.protocol import StateMessage, TableSummary, TableView
from tests.server.helpers import create, next_of, play_to_end, seed_where

BOTS = ["bot:random", "bot:heuristic", "bot:random"]


def test_create_answers_one_secret_token_per_human_seat(client: TestClient) -> None:
    table, tokens = create(client, "citadels", ["human", "bot:random", "human", "bot:easy"])
    assert sorted(tokens) == [0, 2]
    assert len(set(tokens.values())) == 2 and all(len(t) >= 32 for t in tokens.values())
    listed = client.get("/api/tables").json()
    assert [t["table"] for t in listed] == [table]
    TableSummary.model_validate(listed[0])
    assert listed[0]["params"]["players"] == 4 and listed[0]["status"] == "live"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": ["human"]}, "unknown game"),
        ({"game": "citadels", "params": {"players": 9}, "seats": ["human"] * 9}, "players"),
        ({"game": "citadels", "params": {"players": 4}, "seats": ["human"] * 3}, "one per player"),
        ({"game": "citadels", "seats": ["human", "robot", "human"]}, "seats[1]"),
        ({"game": "citadels", "seats": ["human", "bot:genius", "human"]}, "unknown bot"),
        ({"game": "citadels", "seats": ["human", "human", "human"], "substitute": "x"}, "substitute"),
        ({"game": "citadels", "params": {"deck": "nope"}, "seats": ["human"] * 4}, "deck"),
        ({"game": "citadels", "seats": ["human"] * 4, "clock": {"initial": -1}}, "initial"),
        ({"game": "citadels", "seats": ["human"] * 4, "colour": "red"}, "colour"),
    ],
)
def test_a_bad_table_is_refused_with_422_naming_the_problem(client: TestClient, body: dict, words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert words in r.text
    assert client.get("/api/tables").json() == []


def test_a_server_without_allow_seed_refuses_a_seed(tmp_path) -> None:
    from meeple.server.app import ServerConfig, create_app

    app = create_app(ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0))
    with TestClient(app) as c:
        r = c.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"], "seed": 3})
        assert r.status_code == 422 and "seed" in r.text


def test_a_whole_game_over_the_websocket_then_its_record_and_replay(client: TestClient) -> None:
    table, tokens = create(client, "citadels", ["human", *BOTS], seed=11)
    assert client.get(f"/api/tables/{table}/record").status_code == 409
    assert client.get(f"/api/tables/{table}/replay").status_code == 409
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        hello = ws.receive_json()
        assert hello == {
            "type": "hello",
            "protocol": "meeple-server/1",
            "table": table,
            "seat": 0,
            "game": "citadels",
            "params": hello["params"],
            "lang": "en",
        }
        frames = play_to_end(ws, next_of(ws))
    for frame in frames:
        StateMessage.model_validate(frame)
    final = frames[-1]
    assert final["status"] == "finished" and final["returns"] is not None
    # every frame is exactly the engine's observation(0) at some prefix of the game, with that prefix's log
    data = client.get(f"/api/tables/{table}/record").json()
    record = GameRecord.from_json(data)
    assert record.seed == 11 and record.players == ["human", *BOTS]
    state = record.replay(0)
    seen = {len(state.history_texts(0)): (state.observation(0), state.history_texts(0))}
    for action in record.actions:
        state.apply_action(action)
        seen[len(state.history_texts(0))] = (state.observation(0), state.history_texts(0))
    log: list = []
    for frame in frames:
        observation, lines = seen[frame["version"]]
        assert frame["observation"] == json.loads(json.dumps(observation))
        assert frame["log_start"] == len(log)
        log += [tuple(x) for x in frame["log"]]
        assert log == lines
    assert final["returns"] == state.returns()
    # replays: a seat's view and the full view at any version
    step = client.get(f"/api/tables/{table}/replay", params={"version": 5, "seat": 2}).json()
    at5 = record.replay(5)
    assert step["observation"] == json.loads(json.dumps(at5.observation(2)))
    assert [tuple(x) for x in step["log"]] == at5.history_texts(2)
    full = client.get(f"/api/tables/{table}/replay", params={"version": len(record.actions)}).json()
    assert full["seat_observations"] == [json.loads(json.dumps(state.observation(s))) for s in range(4)]
    assert client.get(f"/api/tables/{table}/replay", params={"version": 10**6}).status_code == 422


def test_spectators_see_the_public_view_and_cannot_move(client: TestClient) -> None:
    table, _ = create(client, "caprice", ["human", "bot:random"], seed=4)
    view = client.get(f"/api/tables/{table}").json()
    TableView.model_validate(view)
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        frame = next_of(ws)
        assert frame["seat"] is None and frame["legal_actions"] == []
        assert frame["observation"] == view["observation"] and frame["version"] == view["version"]
        ws.send_json({"type": "move", "version": frame["version"], "action": 0, "move_id": "x"})
        assert next_of(ws, "error")["code"] == "spectator"
    state = GameRecord("caprice", view["params"], 4, []).replay()
    assert view["observation"] == json.loads(json.dumps(state.observation(None)))
    assert [tuple(x) for x in view["log"]] == state.history_texts(SPECTATOR)


def test_a_bad_token_is_refused_and_closed(client: TestClient) -> None:
    table, _ = create(client, "caprice", ["human", "human"])
    with client.websocket_connect(f"/api/tables/{table}/ws?token=guess") as ws:
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    other, tokens = create(client, "caprice", ["human", "human"])
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:  # another table's token
        assert ws.receive_json()["code"] == "bad_token"


def test_refusals_name_the_problem_and_change_nothing(client: TestClient) -> None:
    table, tokens = create(client, "citadels", ["human"] * 4, seed=seed_where("citadels", 4, 0))
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws0,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as ws1,
    ):
        ws0.receive_json(), ws1.receive_json()
        s0, s1 = next_of(ws0), next_of(ws1)
        assert s0["current_player"] == 0 and s0["legal_actions"] and not s1["legal_actions"]
        code = s0["legal_actions"][0]["code"]
        ws1.send_json({"type": "move", "version": s1["version"], "action": code, "move_id": "a"})
        assert next_of(ws1, "error")["code"] == "not_your_turn"
        ws0.send_json({"type": "move", "version": s0["version"] + 3, "action": code, "move_id": "b"})
        error = next_of(ws0, "error")
        assert error["code"] == "stale_version" and error["move_id"] == "b"
        assert next_of(ws0)["version"] == s0["version"]  # the current state follows a stale refusal
        ws0.send_json({"type": "move", "version": s0["version"], "action": 10**9, "move_id": "c"})
        assert next_of(ws0, "error")["code"] == "illegal_action"
        ws0.send_json({"type": "move", "version": s0["version"], "action": {"type": "nonsense"}, "move_id": "d"})
        assert next_of(ws0, "error")["code"] == "illegal_action"
        for bad in ("not json", '{"type": "dance"}', '{"type": "move", "version": 0, "action": true, "move_id": "e"}'):
            ws0.send_text(bad)
            assert next_of(ws0, "error")["code"] == "bad_message"
        ws0.send_json({"type": "sync"})
        again = next_of(ws0)
        assert again["version"] == s0["version"] and again["log"] == []  # nothing new since the last frame


def test_a_repeated_move_id_is_applied_once(client: TestClient, tmp_path) -> None:
    table, tokens = create(client, "caprice", ["human", "human"], seed=seed_where("caprice", 2, 0))
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        s = next_of(ws)
        while not s["legal_actions"]:
            s = next_of(ws)
        move = {"type": "move", "version": s["version"], "action": s["legal_actions"][0]["code"], "move_id": "same"}
        ws.send_json(move)
        after = next_of(ws)
        assert after["version"] == s["version"] + 1
        ws.send_json(move)  # e.g. resent after a dropped connection
        again = next_of(ws)
        assert again["version"] == after["version"] and again["log"] == []
    engine = make_engine(f"sqlite:///{tmp_path / 'server.db'}")
    with Session(engine) as session:
        count = session.scalar(select(func.count()).where(EventRow.table_id == table, EventRow.move_id == "same"))
    assert count == 1


def test_reconnect_gets_the_full_view_and_two_connections_of_a_seat_stay_in_sync(client: TestClient) -> None:
    table, tokens = create(client, "capitol", ["human", "bot:random", "bot:random"], seed=5)
    url = f"/api/tables/{table}/ws?token={tokens[0]}"
    with client.websocket_connect(url) as first:
        first.receive_json()
        log: list = []
        s = next_of(first)
        log += s["log"]
        while not s["legal_actions"]:  # the bots move first: wait for the human's turn, when the table stands still
            s = next_of(first)
            log += s["log"]
        with client.websocket_connect(url) as second:
            second.receive_json()
            t = next_of(second)
            assert t["version"] == s["version"] and t["log"] == log
            for i in range(6):
                while not s["legal_actions"]:
                    s = next_of(first)
                    log += s["log"]
                    t = next_of(second)
                    assert (t["version"], t["observation"]) == (s["version"], s["observation"])
                code = s["legal_actions"][0]["code"]
                first.send_json({"type": "move", "version": s["version"], "action": code, "move_id": str(i)})
                s = next_of(first)
                log += s["log"]
                t = next_of(second)
                assert (t["version"], t["observation"], t["log"]) == (s["version"], s["observation"], s["log"])
    with client.websocket_connect(url) as again:
        again.receive_json()
        r = next_of(again)
        assert r["log_start"] == 0 and r["log"] == log[: len(r["log"])] and r["version"] >= s["version"]


def _wait_for(ws, predicate, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = next_of(ws)
        if predicate(frame):
            return frame
    raise AssertionError("the expected frame did not come")


def test_a_seat_out_of_time_is_bot_played_until_its_human_returns(client: TestClient) -> None:
    clock = {"initial": 0.6, "increment": 0}
    seed = seed_where("caprice", 2, 0)
    table, tokens = create(client, "caprice", ["human", "bot:random"], seed=seed, clock=clock, substitute="random")
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        first = next_of(ws)
        assert first["clock"]["spec"]["initial"] == 0.6
        out = _wait_for(ws, lambda f: f["seats"][0]["bot_played"])
        assert out["seats"][0]["reason"] == "time" and out["clock"]["banks"][0] == 0
        moved = _wait_for(ws, lambda f: f["version"] > out["version"] + 2)  # the substitute plays seat 0
        assert moved["seats"][0]["bot_played"]
        ws.send_json({"type": "return"})
        back = _wait_for(ws, lambda f: not f["seats"][0]["bot_played"])
        assert back["clock"]["banks"][0] == pytest.approx(0.6)  # an empty bank is refilled (at most the initial)


def test_an_away_seat_is_bot_played_after_the_grace_period_and_returns_on_reconnect(client: TestClient) -> None:
    seed = seed_where("caprice", 2, 0)
    table, tokens = create(client, "caprice", ["human", "human"], seed=seed, grace=0.5, substitute="random")
    url0, url1 = (f"/api/tables/{table}/ws?token={tokens[s]}" for s in (0, 1))
    with client.websocket_connect(url0) as ws0:  # seat 0 comes, then leaves
        ws0.receive_json()
        next_of(ws0)
    with client.websocket_connect(url1) as ws1:  # after 0.5 s away on its turn a bot plays seat 0
        ws1.receive_json()
        frame = _wait_for(ws1, lambda f: f["seats"][0]["bot_played"])
        assert frame["seats"][0] == {
            "seat": 0,
            "player": "human",
            "name": "Seat 0",
            "open": False,
            "connected": False,
            "bot_played": True,
            "reason": "away",
            "account": None,  # a guest's seat: bound to no account
            "forfeit": None,  # not a rated table
            "rating": None,  # no rating at an unrated table
            "provisional": None,
            "invited": None,  # no seat reserved (issue #44)
        }
        assert frame["seats"][1]["connected"]
        with client.websocket_connect(url0) as ws0:
            ws0.receive_json()
            _wait_for(ws0, lambda f: f["seats"][0]["connected"] and not f["seats"][0]["bot_played"])


def test_meeple_replay_reads_a_finished_tables_record(client: TestClient, tmp_path) -> None:
    from typer.testing import CliRunner

    from meeple.cli.app import app

    table, _ = create(client, "caprice", ["bot:random", "bot:random"], seed=8)
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    path = tmp_path / "game.jsonl"
    path.write_text(client.get(f"/api/tables/{table}/record").text + "\n")
    result = CliRunner().invoke(app, ["replay", str(path), "--auto"])
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output


def test_the_openapi_schema_documents_every_route_and_message(tmp_path) -> None:
    from meeple.server.app import ServerConfig, create_app
    from tests.server.conftest import OPEN

    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, api_docs=True, **OPEN)
    with TestClient(create_app(config)) as client:
        schema = client.get("/openapi.json").json()
        docs = client.get("/docs")
        assert docs.status_code == 200 and "/static/api-docs/swagger-ui-bundle.js" in docs.text
        assert "cdn" not in docs.text.lower()
        assert client.get("/static/api-docs/swagger-ui-bundle.js").status_code == 200
        assert "'sha256-" in docs.headers["content-security-policy"]
    assert {"/api/games", "/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/record"} <= set(
        schema["paths"]
    )
    assert {"CreateTable", "TableCreated", "TableSummary", "TableView", "StateMessage", "MoveMessage"} <= set(
        schema["components"]["schemas"]
    )


def test_a_web_view_connection_gets_slim_frames_when_the_full_one_gets_a_frame(client: TestClient) -> None:
    """``?view=web`` (the browser page's socket): each state frame holds only the slim fields of the full frame."""
    from meeple.server.hub import SLIM_FIELDS
    from meeple.server.protocol import SlimStateMessage

    table, tokens = create(client, "caprice", ["human", "bot:random"], seed=4)
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}&view=web") as web,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as full,
    ):
        assert web.receive_json()["type"] == "hello"
        first = web.receive_json()
        assert set(first) == set(SLIM_FIELDS) and first["seat"] == 0
        SlimStateMessage.model_validate(first)
        frames = play_to_end(full, next_of(full))
        slim = [first]
        while slim[-1]["status"] == "live":
            message = web.receive_json()
            if message["type"] == "state":
                assert set(message) == set(SLIM_FIELDS), message
                slim.append(message)
    wanted = [{k: f[k] for k in SLIM_FIELDS} for f in frames]
    assert all(s in wanted for s in slim)  # each slim frame is the slim part of a full frame
    assert slim[-1] == wanted[-1] and slim[-1]["status"] == "finished"
    assert len(slim) >= len({f["version"] for f in frames}) // 2  # one per change (a frame may replace one waiting)


@pytest.mark.parametrize("view", ["board", "x" * 5000])
def test_an_unknown_view_is_named_then_full_frames_are_sent(client: TestClient, view: str) -> None:
    table, tokens = create(client, "caprice", ["human", "bot:random"], seed=4)
    with client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}&view={view}") as ws:
        error = ws.receive_json()
        assert error["code"] == "bad_message" and "full, web" in error["message"]
        assert len(error["message"]) < 200
        assert ws.receive_json()["type"] == "hello"
        assert "observation" in next_of(ws)


def test_a_web_view_connection_counts_seats_from_one_in_its_texts(client: TestClient) -> None:
    """The browser page counts seats from 1 (issue #33): its socket's errors and chat names do too; the protocol's
    other clients keep the seat indices (``Seat 0``)."""
    table, tokens = create(client, "caprice", ["human", "human"], seed=4)
    with (
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}&view=web") as web0,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}&view=web") as web1,
        client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as full1,
    ):
        first = [ws.receive_json() and ws.receive_json() for ws in (web0, web1)]
        mover = first[0]["current_player"]
        waiting = 1 - mover
        for ws, seat in ((web0, 0), (web1, 1)):
            if seat == waiting:
                ws.send_json({"type": "move", "version": first[seat]["version"], "action": 0, "move_id": "early"})
                error = next_of_any(ws, "error")
                assert error["code"] == "not_your_turn"
                assert f"seat {mover + 1}'s turn, not seat {waiting + 1}'s" in error["message"], error
        if waiting == 1:
            full1.send_json({"type": "move", "version": first[1]["version"], "action": 0, "move_id": "early"})
            assert f"not seat {waiting}'s" in next_of(full1, "error")["message"]
        web0.send_json({"type": "chat", "text": "hello"})
        assert next_of_any(web1, "chat")["name"] == "Seat 1"  # seat 0, unnamed, as the page counts it
        assert next_of(full1, "chat")["name"] == "Seat 0"  # the protocol's index


def next_of_any(ws: object, kind: str) -> dict:
    """The next message of type ``kind`` from a web view socket (slim state frames are not full StateMessages)."""
    while True:
        message: dict = ws.receive_json()  # type: ignore[attr-defined]
        if message["type"] == kind:
            return message
