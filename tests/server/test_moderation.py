"""Reports and the operator's ``meeple admin`` (issue #44, item 6): ``POST /api/reports`` with its bounds and quota,
and ``reports``, ``ban``, ``unban``, ``delete-chat``, ``log`` run as commands on the database of a running app (and of
a real ``meeple serve`` process), each logged with who and when.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from meeple.cli.app import app as cli
from meeple.server.app import ServerConfig, create_app
from meeple.server.quotas import Quotas
from tests.server.conftest import OPEN
from tests.server.helpers import ServerProcess, next_of, person, seed_where

PASSWORD = "correct horse battery"


def sign_up(client: Any, username: str, email: str | None = None) -> Any:
    body = {"username": username, "password": PASSWORD, **({"email": email} if email else {})}
    r = client.post("/api/accounts", json=body)
    assert r.status_code == 201, r.text
    return client


def admin(db: str, *args: str) -> str:
    result = CliRunner().invoke(cli, ["admin", *args, "--db", db], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def _chat(client: TestClient, table: str, *lines: str) -> None:
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        next_of(ws)
        for line in lines:
            ws.send_json({"type": "chat", "text": line})
            while next_of(ws, "chat")["text"] != line:  # the table's earlier lines come first
                pass


def _meet(ann: Any, bob: Any) -> str:
    body = {"game": "caprice", "seats": ["human", "open"], "seed": seed_where("caprice", 2, 0)}
    table: str = ann.post("/api/tables", json=body).json()["table"]
    assert bob.post(f"/api/tables/{table}/join", json={}).status_code == 201
    return table


@pytest.fixture
def db_client(tmp_path: Path) -> Any:
    db = f"sqlite:///{tmp_path / 's.db'}"
    with TestClient(create_app(ServerConfig(db=db, bot_workers=0, allow_seed=True, **OPEN))) as client:
        yield db, client


# ---------------------------------------------------------------------------------------------- reports
def test_a_report_keeps_the_tables_chat_and_the_operator_lists_it(db_client: Any) -> None:
    db, ann = db_client
    bob = person(ann)
    sign_up(ann, "ann")
    sign_up(bob, "bob")
    table = _meet(ann, bob)
    _chat(bob, table, "you are <b>awful</b>")
    _chat(ann, table, "please stop")
    r = ann.post("/api/reports", json={"username": "BOB", "table": table, "reason": "insults\u202e in  chat"})
    assert r.status_code == 201 and set(r.json()) == {"report"}
    listed = admin(db, "reports")
    assert "ann reports bob" in listed and f"table {table}" in listed and "insults in chat" in listed
    assert "you are <b>awful</b>" in listed and "please stop" in listed
    no_table = bob.post("/api/reports", json={"username": "ann", "reason": "false report"})
    assert no_table.status_code == 201


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"username": "nobody", "reason": "x"}, 404),
        ({"username": "bob", "table": "nosuchtable", "reason": "x"}, 404),
        ({"username": "bob", "reason": "\u200b \u202e"}, 422),  # nothing visible once cleaned
        ({"username": "bob", "reason": "x" * 501}, 422),
        ({"username": "bob", "reason": "x" * 2001}, 422),
        ({"username": "bob", "table": "t" * 33, "reason": "x"}, 422),
        ({"username": "ann", "reason": "myself"}, 422),
        ({"username": "bob"}, 422),
        ({"username": "bob", "reason": "x", "extra": 1}, 422),
    ],
)
def test_a_report_is_bounded_and_names_an_account(db_client: Any, body: dict[str, Any], status: int) -> None:
    _db, ann = db_client
    sign_up(person(ann), "bob")
    sign_up(ann, "ann")
    assert ann.post("/api/reports", json=body).status_code == status


def test_a_guest_cannot_report_and_reports_are_rate_limited(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, quotas=Quotas(reports_per_hour=2))
    with TestClient(create_app(config)) as ann:
        sign_up(person(ann), "bob")
        assert ann.post("/api/reports", json={"username": "bob", "reason": "x"}).status_code == 401
        sign_up(ann, "ann")
        answers = [ann.post("/api/reports", json={"username": "bob", "reason": "x"}).status_code for _ in range(3)]
        assert answers == [201, 201, 429]


# ---------------------------------------------------------------------------------------------- ban, unban
def _closed(ws: Any) -> bool:
    try:
        while True:
            ws.receive_json()
    except WebSocketDisconnect as exc:
        return exc.code == 1008


def test_a_ban_logs_out_everywhere_frees_open_seats_closes_sockets_and_blocks_the_address(db_client: Any) -> None:
    db, ann = db_client
    bob = person(ann)
    sign_up(ann, "ann", "Ann@example.org")
    sign_up(bob, "bob")
    table = _meet(bob, ann)  # ann took bob's open seat: a live table
    waiting = bob.post("/api/tables", json={"game": "citadels", "seats": ["human", "open", "open"]}).json()["table"]
    assert ann.post(f"/api/tables/{waiting}/join", json={}).json()["seat"] == 1
    with ann.websocket_connect(f"/api/tables/{table}/ws") as ws:
        assert next_of(ws)["seat"] == 1
        out = admin(db, "ban", "ann", "--as", "mod-1", "--reason", "insults")
        assert "ann is banned (2 seats revoked)" in out
        started = time.monotonic()
        assert _closed(ws) and time.monotonic() - started < 10  # the running server read the ban
    assert ann.get("/api/me").status_code == 401  # logged out everywhere
    again = person(ann).post("/api/session", json={"username": "ann", "password": PASSWORD})
    assert again.status_code == 403 and "banned" in again.json()["detail"]
    for email in ("ann@example.org", "ANN+again@Example.org"):
        r = person(ann).post("/api/accounts", json={"username": "ann2", "password": PASSWORD, "email": email})
        assert r.status_code == 403 and "banned" in r.json()["detail"]
    seats = bob.get(f"/api/tables/{waiting}").json()["seats"]
    assert [s["player"] for s in seats] == ["human", "open", "open"]  # her seat is open again
    assert "409" not in admin(db, "unban", "ann", "--as", "mod-2")
    assert person(ann).post("/api/session", json={"username": "ann", "password": PASSWORD}).status_code == 200
    log = admin(db, "log")
    assert "mod-1" in log and "ban" in log and "insults" in log and "mod-2" in log and "unban" in log
    twice = CliRunner().invoke(cli, ["admin", "unban", "ann", "--db", db])
    assert twice.exit_code == 2 and "ann is not banned" in twice.output


def test_the_operator_deletes_a_chat_line(db_client: Any) -> None:
    db, ann = db_client
    bob = person(ann)
    sign_up(ann, "ann")
    sign_up(bob, "bob")
    table = _meet(ann, bob)
    _chat(bob, table, "first", "rude line", "last")
    ann.post("/api/reports", json={"username": "bob", "table": table, "reason": "rude"})
    listed = admin(db, "reports")
    line = next(row.split("│")[1].strip() for row in listed.splitlines() if "rude line" in row)
    assert "Deleted: rude line" in admin(db, "delete-chat", table, line, "--as", "mod")
    with ann.websocket_connect(f"/api/tables/{table}/ws") as ws:
        next_of(ws)
        history = [next_of(ws, "chat")["text"] for _ in range(2)]
    assert history == ["first", "last"]
    missing = CliRunner().invoke(cli, ["admin", "delete-chat", table, "99999", "--db", db])
    assert missing.exit_code == 2 and "has no chat line 99999" in missing.output
    assert "delete-chat" in admin(db, "log")


def test_a_ban_reaches_a_real_meeple_serve_process(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log", workers=0).start()
    try:
        with httpx.Client(base_url=server.url) as ann:
            sign_up(ann, "ann")
            assert ann.get("/api/me").status_code == 200
            admin(db, "ban", "ann")
            assert ann.get("/api/me").status_code == 401
            assert ann.post("/api/session", json={"username": "ann", "password": PASSWORD}).status_code == 403
    finally:
        server.stop()
