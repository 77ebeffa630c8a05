"""``GET /api/me/tables`` and turn e-mails to accounts (issue #34 item 7), on the FastAPI test client and as a real
``meeple serve --smtp`` process with a local SMTP server (aiosmtpd)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.mytables import MyTable
from meeple.server.notify import SmtpSettings
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import ServerProcess, acked, create, next_of, person, seed_where
from tests.server.mail import open_verification, smtp_server

DAY = 86_400.0
PASSWORD = "correct horse battery"
MINE = re.compile(r'class="badge[^"]*\bmine\b[^"]*" data-seat="0"')
"""Seat 0's badge marked as the reader's own (meeple/web/templates/board.html)."""


def _sign_up(client: Any, username: str, email: str | None = None) -> None:
    body = {"username": username, "password": PASSWORD, **({"email": email} if email else {})}
    r = client.post("/api/accounts", json=body)
    assert r.status_code == 201, r.text


def _meet(ann: Any, bob: Any, clock: dict[str, Any] | None = None) -> str:
    """Ann creates a two-seat Caprice table whose first move is hers; Bob takes its open seat."""
    seed = seed_where("caprice", 2, 0)
    body = {"game": "caprice", "seats": ["human", "open"], "seed": seed, "clock": clock or {"per_move": DAY}}
    r = ann.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table: str = r.json()["table"]
    joined = bob.post(f"/api/tables/{table}/join", json={})
    assert joined.status_code == 201, joined.text
    return table


def test_my_tables_lists_the_accounts_live_and_waiting_tables_its_turns_first(client: TestClient) -> None:
    assert client.get("/api/me/tables").status_code == 401
    assert "log in" in client.get("/api/me/tables").json()["detail"]
    ann, bob = client, person(client)
    _sign_up(ann, "ann")
    _sign_up(bob, "bob")
    table = _meet(ann, bob)
    waiting = ann.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"], "clock": {"initial": 600}})
    other, _tokens = create(person(client), "caprice", ["human", "human"])  # not Ann's: not listed
    deadline = time.monotonic() + 20
    while (mine := ann.get("/api/me/tables").json())[0]["deadline"] is None:
        assert time.monotonic() < deadline, "the clock did not start"
        time.sleep(0.05)
    for entry in mine:
        MyTable.model_validate(entry)
    assert [e["table"] for e in mine] == [table, waiting.json()["table"]]
    first = mine[0]
    assert first["your_turn"] and first["seat"] == 0 and first["current_player"] == 0 and first["status"] == "live"
    assert [s["name"] for s in first["seats"]] == ["ann", "bob"] and first["turn_based"] and first["per_move"] == DAY
    assert first["deadline"] > time.time() + DAY - 60
    assert mine[1]["status"] == "waiting" and not mine[1]["your_turn"] and not mine[1]["turn_based"]
    theirs = bob.get("/api/me/tables?lang=fr").json()
    assert [(e["table"], e["seat"], e["your_turn"]) for e in theirs] == [(table, 1, False)]
    assert all(set(e) == set(MyTable.model_fields) for e in mine + theirs)  # no seed, token or observation
    service = services_of(client.app).tables
    secret = client.portal.call(service.get, waiting.json()["table"]).seed  # type: ignore[union-attr]
    assert str(secret) not in ann.get("/api/me/tables").text  # a random 62-bit seed: it would show


def test_an_account_gets_its_turn_e_mail_in_its_language(tmp_path: Path) -> None:
    with smtp_server() as (inbox, port):
        mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, allow_seed=True, smtp=mail, **OPEN)
        with TestClient(create_app(config)) as ann:
            bob = person(ann)
            _sign_up(ann, "ann", "ann@example.org")
            open_verification(ann, inbox)  # a verified address: turn e-mails go to it
            _sign_up(bob, "bob")  # no address: no e-mail
            table = _meet(ann, bob)
            (first,) = inbox.wait(1)
            assert first["To"] == "ann@example.org" and "ann, it is your turn at the Caprice table with bob." in (
                first.get_content()
            )
            with ann.websocket_connect(f"/api/tables/{table}/ws?lang=fr") as ws:  # her seat, by her session
                state = next_of(ws)
                assert state["seat"] == 0
                ws.send_json({"type": "move", "version": state["version"], "action": state["legal_actions"][0]["code"],
                              "move_id": "a"})  # fmt: skip
                acked(ws, "a")
            with bob.websocket_connect(f"/api/tables/{table}/ws") as ws:
                state = next_of(ws)
                while not state["legal_actions"]:
                    state = next_of(ws)
                ws.send_json({"type": "move", "version": state["version"], "action": state["legal_actions"][0]["code"],
                              "move_id": "b"})  # fmt: skip
                acked(ws, "b")
            second = inbox.wait(2)[1]  # Ann's turn again; she last played in French
            assert second["Subject"] == "À vous de jouer\u202f: Caprice"
            assert len(inbox.messages) == 2  # Bob's turn: he has no address


def test_meeple_serve_smtp_sends_one_link_that_opens_the_players_seat(tmp_path: Path) -> None:
    """A real ``meeple serve --smtp`` process: the e-mail's one link opens the table at the account's seat."""
    with smtp_server() as (inbox, port):
        server = ServerProcess(
            f"sqlite:///{tmp_path / 's.db'}",
            log=tmp_path / "server.log",
            workers=0,
            options=("--no-rate-limits", "--smtp", f"smtp://127.0.0.1:{port}", "--mail-from", "games@example.org"),
        )
        server.options += ("--public-url", server.url)
        server.start()
        try:
            with httpx.Client(base_url=server.url) as ann, httpx.Client(base_url=server.url) as bob:
                _sign_up(ann, "ann", "ann@example.org")
                open_verification(ann, inbox)
                _sign_up(bob, "bob", "bob@example.org")
                open_verification(bob, inbox)
                table = _meet(ann, bob)
                (mail,) = inbox.wait(1)
                links = re.findall(r"https?://\S+", mail.get_content())
                assert links == [f"{server.url}/tables/{table}?lang=en"]
                page = ann.get(links[0])  # one click, with her session: her seat
                assert page.status_code == 200 and MINE.search(page.text)
                stranger = httpx.get(links[0])  # the link alone opens no seat
                assert stranger.status_code == 200 and not MINE.search(stranger.text)
                time.sleep(1.0)
                assert len(inbox.messages) == 1  # one turn, one e-mail
        finally:
            server.stop()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0005_upgrades_accounts_in_place_and_goes_back(tmp_path: Path, backend: str) -> None:
    """A database at 0004_accounts with an account: 0005_turn_based adds ``accounts.lang`` (null: English e-mails
    until its player comes back), the account logs in and lists its tables; downgrading removes the column."""
    import contextlib

    from alembic import command
    from alembic.config import Config
    from argon2 import PasswordHasher
    from sqlalchemy import inspect, text

    from meeple.server.db import MIGRATIONS, make_engine
    from tests.server.helpers import postgres

    with contextlib.ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'old.db'}" if backend == "sqlite" else stack.enter_context(postgres(tmp_path))
        engine = make_engine(url)
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0004_accounts")
            conn.execute(
                text(
                    "INSERT INTO accounts (username, username_key, password_hash, email, created)"
                    " VALUES ('Ann', 'ann', :hash, 'ann@example.org', 0)"
                ),
                {"hash": PasswordHasher().hash(PASSWORD)},
            )
        engine.dispose()
        with TestClient(create_app(ServerConfig(db=url, bot_workers=0, **OPEN))) as client:
            assert client.post("/api/session", json={"username": "ann", "password": PASSWORD}).status_code == 200
            assert client.get("/api/me/tables").json() == []
        engine = make_engine(url)
        with engine.begin() as conn:
            assert conn.execute(text("SELECT email, lang FROM accounts")).all() == [("ann@example.org", None)]
            config.attributes["connection"] = conn
            command.downgrade(config, "0004_accounts")
        assert "lang" not in {c["name"] for c in inspect(engine).get_columns("accounts")}
        engine.dispose()


def test_my_tables_is_rate_limited_per_address_and_per_account(tmp_path: Path) -> None:
    from meeple.server.quotas import Quotas
    from meeple.web import create_web_app

    config = ServerConfig(db=f"sqlite:///{tmp_path / 'r.db'}", bot_workers=0, quotas=Quotas(my_tables_per_minute=3))
    with TestClient(create_web_app(config), client=("10.0.0.1", 5000)) as ann:
        _sign_up(ann, "ann")
        assert [ann.get("/api/me/tables").status_code for _ in range(3)] == [200] * 3
        r = ann.get("/api/me/tables")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1 and "lists of your tables" in r.text
        assert ann.get("/me/tables").status_code == 429  # the page counts too
        # the same account from another address: its own quota is used up as well
        elsewhere = TestClient(ann.app, client=("10.0.0.2", 5000), cookies=dict(ann.cookies))
        elsewhere.portal = ann.portal
        assert elsewhere.get("/api/me/tables").status_code == 429
        # another account at another address is not held back
        bob = TestClient(ann.app, client=("10.0.0.3", 5000))
        bob.portal = ann.portal
        _sign_up(bob, "bob")
        assert bob.get("/api/me/tables").status_code == 200
        local = TestClient(ann.app, client=("127.0.0.1", 5000))
        local.portal = ann.portal
        metrics = local.get("/metrics").text
        assert 'meeple_refused_total{reason="my_tables"}' in metrics
