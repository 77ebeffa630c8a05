"""Accounts and sessions (issue #34, item 5): sign-up, log-in, the session cookie, bounds, quotas, seats bound to an
account, deletion, and a stolen session cookie sent from a foreign Origin.

The protocol tests run on the OPEN configuration (no quotas); the quotas on the default one, as ``meeple serve``
starts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from meeple.core.records import GameRecord
from meeple.server.accounts import SESSION_COOKIE, Accounts, hash_session
from meeple.server.app import ServerConfig, create_app
from meeple.server.db import AccountRow, SeatRow, SessionRow
from meeple.server.protocol import SeatInfo
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import next_of, person, seed_where

PASSWORD = "correct horse battery"


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """The default configuration: quotas as ``meeple serve`` starts."""
    with TestClient(create_app(ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0))) as client:
        yield client


def sign_up(client: TestClient, username: str, password: str = PASSWORD, **extra: Any) -> TestClient:
    """Sign ``username`` up on ``client`` (which then holds its session cookie)."""
    r = client.post("/api/accounts", json={"username": username, "password": password, **extra})
    assert r.status_code == 201, r.text
    assert r.json() == {"username": username}
    return client


def _accounts(client: TestClient) -> Accounts:
    found: Accounts = services_of(client.app).accounts
    return found


# ---------------------------------------------------------------------------------------------- sign-up, log-in
def test_sign_up_logs_in_with_an_httponly_lax_session_cookie_stored_hashed(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"username": "Alice_1", "password": PASSWORD, "email": "alice@example.org"})
    assert r.status_code == 201
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http here; see the https test
    token = client.cookies[SESSION_COOKIE]
    assert len(token) >= 40
    me = client.get("/api/me").json()
    assert me["username"] == "Alice_1" and me["email"] == "alice@example.org" and me["ratings"] == {}
    from sqlalchemy import text

    with _accounts(client).engine.connect() as conn:
        stored = conn.execute(text("SELECT token_hash FROM sessions")).scalars().all()
        digest = conn.execute(text("SELECT password_hash FROM accounts")).scalar_one()
    assert stored == [hash_session(token)] and token not in stored  # the database holds no token
    assert digest.startswith("$argon2id$") and PASSWORD not in digest


def test_log_in_log_out_and_a_wrong_password_or_unknown_username_are_the_same_401(client: TestClient) -> None:
    sign_up(client, "Bob")
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    wrong = client.post("/api/session", json={"username": "Bob", "password": "not the password"})
    unknown = client.post("/api/session", json={"username": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong username or password"}
    assert SESSION_COOKIE not in client.cookies
    r = client.post("/api/session", json={"username": "bOB", "password": PASSWORD})  # any case
    assert r.status_code == 200 and r.json() == {"username": "Bob"}
    assert client.get("/api/me").json()["username"] == "Bob"
    token = client.cookies[SESSION_COOKIE]
    out = client.delete("/api/session")
    assert out.status_code == 200 and f'{SESSION_COOKIE}=""' in out.headers["set-cookie"]
    client.cookies.set(SESSION_COOKIE, token)  # the old cookie, kept by someone: the session is over on the server
    assert client.get("/api/me").status_code == 401


def test_an_unknown_username_costs_the_same_password_check(client: TestClient) -> None:
    sign_up(client, "Carol")
    from argon2 import PasswordHasher

    calls: list[str] = []

    class Counting(PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> bool:  # noqa: A002 - argon2's parameter name
            calls.append(str(hash))
            return super().verify(hash, password)

    _accounts(client).hasher = Counting()
    client.post("/api/session", json={"username": "Carol", "password": "wrong password"})
    client.post("/api/session", json={"username": "Dave", "password": "wrong password"})
    assert len(calls) == 2 and all(c.startswith("$argon2id$") for c in calls)  # one argon2 check each


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"username": "ab", "password": PASSWORD}, "3 to 24 characters"),
        ({"username": "a" * 25, "password": PASSWORD}, "3 to 24 characters"),
        ({"username": "a" * 97, "password": PASSWORD}, "at most 96 characters"),
        ({"username": "al ice", "password": PASSWORD}, "3 to 24 characters"),
        ({"username": "<b>x</b>", "password": PASSWORD}, "3 to 24 characters"),
        ({"username": "Ålice", "password": PASSWORD}, "3 to 24 characters"),
        ({"username": "alice", "password": "short"}, "at least 8 characters"),
        ({"username": "alice", "password": "p" * 129}, "at most 128 characters"),
        ({"username": "alice", "password": PASSWORD, "email": "not an address"}, "e-mail address"),
        ({"username": "alice", "password": PASSWORD, "email": "a@" + "b" * 250 + ".org"}, "at most 254 characters"),
        ({"username": "alice", "password": PASSWORD, "admin": True}, "admin"),
        ({"username": "alice"}, "password"),
    ],
)
def test_a_bad_sign_up_is_refused_with_422_naming_what_is_allowed(
    strict: TestClient, body: dict[str, Any], words: str
) -> None:
    r = strict.post("/api/accounts", json=body)
    assert r.status_code == 422 and words in r.text, r.text
    assert "p" * 41 not in r.text and "a" * 41 not in r.text and PASSWORD not in r.text  # nothing echoed


def test_the_edges_of_the_bounds_are_accepted(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'e.db'}", bot_workers=0, quotas=Quotas(min_password_score=0))
    with TestClient(create_app(config)) as lenient:  # --min-password-score 0: the length bounds alone
        sign_up(lenient, "abc", "p" * 8)
        lenient.cookies.clear()
        sign_up(lenient, "Z" * 24, "p" * 128)


def test_a_username_is_unique_whatever_its_case(client: TestClient) -> None:
    sign_up(client, "Erin")
    client.cookies.clear()
    r = client.post("/api/accounts", json={"username": "ERIN", "password": PASSWORD})
    assert r.status_code == 409 and r.json() == {"detail": "this username is taken"}
    assert client.post(
        "/api/accounts", json={"username": "ERIN", "password": PASSWORD}, headers={"Accept-Language": "fr"}
    ).json() == {"detail": "ce nom d'utilisateur est déjà pris"}


def test_the_email_can_be_set_and_removed_and_is_bounded(client: TestClient) -> None:
    sign_up(client, "Frank")
    assert client.patch("/api/me", json={"email": "f@example.org"}).json() == {
        "username": "Frank",
        "email": "f@example.org",
        "email_verified": False,  # a new address waits for its verification link (issue #44)
    }
    assert client.get("/api/me").json()["email"] == "f@example.org"
    assert client.patch("/api/me", json={"email": "x" * 300}).status_code == 422
    assert client.patch("/api/me", json={"email": None}).status_code == 200
    assert client.get("/api/me").json()["email"] is None
    client.cookies.clear()
    assert client.patch("/api/me", json={"email": "f@example.org"}).status_code == 401


def test_log_in_attempts_are_limited_per_address_and_per_username(tmp_path: Path) -> None:
    from meeple.server.quotas import Quotas

    config = ServerConfig(db=f"sqlite:///{tmp_path / 'l.db'}", bot_workers=0, quotas=Quotas(logins_per_minute=3))
    with TestClient(create_app(config)) as client:
        sign_up(client, "Grace")
        bad = {"username": "Grace", "password": "wrong password"}
        assert [client.post("/api/session", json=bad).status_code for _ in range(3)] == [401, 401, 401]
        # the first address has used its attempts, whatever the username, even with the right password
        r = client.post("/api/session", json={"username": "grace", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # but failures from one address never lock the account out for the others (the review's lock-out attack)
        owner = person(client, client=("10.0.0.9", 5000))
        assert owner.post("/api/session", json={"username": "grace", "password": PASSWORD}).status_code == 200
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, quotas=Quotas(signups_per_minute=2))
    with TestClient(create_app(config)) as client:
        codes = [
            client.post("/api/accounts", json={"username": f"user{i}", "password": PASSWORD}).status_code
            for i in range(3)
        ]
        assert codes == [201, 201, 429]


def test_failed_log_ins_for_one_username_from_one_address_are_limited_per_hour() -> None:
    """An address may fail 3 × --logins-per-minute times an hour per username; other addresses keep their own count."""
    from meeple.server.quotas import Limiter, QuotaExceeded, Quotas, failure_key

    limiter = Limiter(Quotas(logins_per_minute=2))
    for _ in range(6):
        limiter.hit("login_user", failure_key("Henry", "6.6.6.6"), "failed log-ins for this username")
    assert limiter.blocked("login_user", failure_key("HENRY", "6.6.6.6")) is not None
    with pytest.raises(QuotaExceeded):
        limiter.hit("login_user", failure_key("henry", "6.6.6.6"), "failed log-ins for this username")
    assert limiter.blocked("login_user", failure_key("henry", "10.0.0.2")) is None
    assert limiter._items["login_user"].GRANULARITY.name == "hour"  # noqa: SLF001 - the window, not a minute


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'h.db'}", bot_workers=0, **OPEN)
    with TestClient(create_app(config), base_url="https://meeple.example") as client:
        r = client.post("/api/accounts", json={"username": "Heidi", "password": PASSWORD})
        assert "Secure" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]


# ---------------------------------------------------------------------------------------------- seats
def test_a_table_created_while_logged_in_binds_the_seat_which_the_session_opens(client: TestClient) -> None:
    sign_up(client, "Ivan")
    seed = seed_where("caprice", 2, 0)
    r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"], "seed": seed})
    table = r.json()["table"]
    view = client.get(f"/api/tables/{table}").json()
    assert view["seats"][0]["name"] == "Ivan" and view["seats"][0]["account"] == "Ivan"
    assert SeatInfo.model_validate(view["seats"][1]).account is None
    lobby = client.get("/api/tables").json()[0]
    assert lobby["seats"][0]["account"] == "Ivan" and lobby["rated"] is False
    # another device: no seat cookie, no token, only the session
    phone = person(client)
    assert phone.post("/api/session", json={"username": "ivan", "password": PASSWORD}).status_code == 200
    with phone.websocket_connect(f"/api/tables/{table}/ws") as ws:
        assert ws.receive_json()["seat"] == 0
        frame = next_of(ws)
        assert frame["legal_actions"], "the session opened the bound seat"
    with person(client).websocket_connect(f"/api/tables/{table}/ws") as ws:
        assert ws.receive_json()["seat"] is None  # no session: a spectator
    fresh = phone.post(f"/api/tables/{table}/token")  # a new link for the bound seat, from the session alone
    assert fresh.status_code == 200 and fresh.json()["seat"] == 0
    assert person(client).post(f"/api/tables/{table}/token").status_code == 403


def test_joining_while_logged_in_binds_the_seat_and_one_account_sits_once(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "capitol", "seats": ["human", "open", "open"]})
    table = r.json()["table"]
    joiner = sign_up(person(client), "Judy")
    taken = joiner.post(f"/api/tables/{table}/join", json={})  # no name needed: the username is the name
    assert taken.status_code == 201 and taken.json()["seat"] == 1
    joiner.cookies.delete(f"meeple_seat_{table}")  # the seat cookie gone: the account still sits there
    again = joiner.post(f"/api/tables/{table}/join", json={"name": "Judy again"})
    assert again.status_code == 409
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1]["name"] == "Judy" and seats[1]["account"] == "Judy" and seats[2]["open"]
    guest = person(client)
    assert guest.post(f"/api/tables/{table}/join", json={}).status_code == 422  # a guest must give a name
    from sqlalchemy.orm import Session

    from meeple.server.accounts import account_seats

    accounts = _accounts(client)
    judy = accounts.by_username("judy")
    assert judy is not None
    with Session(accounts.engine) as s:
        assert account_seats(s, judy.id) == [(table, 1)]  # the interface other modules use (My tables)
    with accounts.engine.connect() as conn:
        assert account_seats(conn, judy.id) == [(table, 1)]


def test_a_stolen_session_cookie_does_not_act_from_a_foreign_origin(client: TestClient) -> None:
    sign_up(client, "Mallet")
    table = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]}).json()["table"]
    evil = {"Origin": "https://evil.example"}
    r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]}, headers=evil)
    assert r.status_code == 403
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=evil).status_code == 403
    assert client.patch("/api/me", json={"email": "x@evil.example"}, headers=evil).status_code == 403
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/api/tables/{table}/ws", headers=evil),
    ):
        pass
    assert refused.value.code == 1008  # closed before the handshake: HTTP 403
    assert client.get("/api/me").json()["email"] is None  # nothing changed
    same = {"Origin": "http://testserver"}
    with client.websocket_connect(f"/api/tables/{table}/ws", headers=same) as ws:
        assert ws.receive_json()["seat"] == 0


def test_deleting_an_account_anonymises_its_games_and_frees_its_username(client: TestClient) -> None:
    _delete_an_account_at_a_table(client)


def test_deleting_an_account_on_postgresql(tmp_path: Path) -> None:
    """The same on PostgreSQL: the seat's change reaches a watcher through the table's revision and NOTIFY."""
    from tests.server.helpers import postgres

    config = ServerConfig(db="", bot_workers=0, allow_seed=True, **OPEN)
    with postgres(tmp_path) as url, TestClient(create_app(dataclasses.replace(config, db=url))) as client:
        _delete_an_account_at_a_table(client)


def _delete_an_account_at_a_table(client: TestClient) -> None:
    """Niaj signs up, sits at a table, deletes the account: checked through the API, a watcher and the rows."""
    sign_up(client, "Niaj")
    seed = seed_where("caprice", 2, 0)
    table = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"], "seed": seed}).json()[
        "table"
    ]
    account_id = _accounts(client).by_username("Niaj").id  # type: ignore[union-attr]
    phone = person(client)
    assert phone.post("/api/session", json={"username": "Niaj", "password": PASSWORD}).status_code == 200
    with person(client).websocket_connect(f"/api/tables/{table}/ws") as watcher:
        assert watcher.receive_json()["seat"] is None
        assert next_of(watcher)["seats"][0]["account"] == "Niaj"
        assert client.request("DELETE", "/api/me", json={"password": "wrong password"}).status_code == 401
        assert client.get("/api/me").status_code == 200
        r = client.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert r.status_code == 200 and r.json() == {"deleted": "Niaj"}
        seen = next_of(watcher)["seats"][0]  # the watcher is told at once
        assert seen["account"] is None and seen["name"] == "Seat 0"
    assert client.get("/api/me").status_code == 401 and phone.get("/api/me").status_code == 401
    seat = client.get(f"/api/tables/{table}").json()["seats"][0]
    assert seat["name"] == "Seat 0" and seat["account"] is None
    with Session(_accounts(client).engine) as s:
        row = s.get(AccountRow, account_id)
        assert row is not None and row.deleted is not None
        assert (row.password_hash, row.email) == ("", None) and "Niaj" not in row.username
        assert s.scalars(select(SessionRow).where(SessionRow.account_id == account_id)).all() == []
        assert s.scalars(select(SeatRow).where(SeatRow.account_id == account_id)).all() == []
        assert s.scalars(select(SeatRow.name).where(SeatRow.table_id == table, SeatRow.seat == 0)).one() is None
    live = services_of(client.app).tables.tables[table]
    live.status = "finished"
    record = GameRecord.from_json(client.get(f"/api/tables/{table}/record").json())
    assert "Niaj" not in record.players
    assert client.get("/api/players/Niaj").status_code == 404
    assert client.post("/api/session", json={"username": "Niaj", "password": PASSWORD}).status_code == 401
    sign_up(person(client), "niaj")  # the username is free again


# ---------------------------------------------------------------------------------------------- password, sessions
def test_changing_the_password_keeps_this_session_and_ends_the_others(client: TestClient) -> None:
    sign_up(client, "Olga")
    phone = person(client)
    assert phone.post("/api/session", json={"username": "olga", "password": PASSWORD}).status_code == 200
    old_cookie = client.cookies[SESSION_COOKIE]
    wrong = client.post("/api/me/password", json={"old": "not the password", "new": "a new passphrase"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong password"
    assert phone.get("/api/me").status_code == 200, "a refused change ends nothing"
    r = client.post("/api/me/password", json={"old": PASSWORD, "new": "a new passphrase"})
    assert r.status_code == 200 and r.json() == {"username": "Olga"}
    assert client.cookies[SESSION_COOKIE] != old_cookie, "this session is renewed"
    assert "httponly" in r.headers["set-cookie"].lower()
    assert client.get("/api/me").status_code == 200
    assert phone.get("/api/me").status_code == 401, "the other device is logged out"
    stale = person(client)
    stale.cookies.set(SESSION_COOKIE, old_cookie)
    assert stale.get("/api/me").status_code == 401, "the old cookie opens nothing"
    login = person(client).post("/api/session", json={"username": "Olga", "password": PASSWORD})
    assert login.status_code == 401
    assert person(client).post("/api/session", json={"username": "Olga", "password": "a new passphrase"}).is_success


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"old": PASSWORD, "new": "short"}, "at least 8 characters"),
        ({"old": PASSWORD, "new": "p" * 129}, "at most 128 characters"),
        ({"old": "p" * 129, "new": "a new passphrase"}, "at most 128 characters"),
        ({"old": "", "new": "a new passphrase"}, "at least 1 character"),
        ({"old": PASSWORD}, "new"),
        ({"old": PASSWORD, "new": "a new passphrase", "username": "root"}, "username"),
    ],
)
def test_a_bad_password_change_is_refused_with_422_and_changes_nothing(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    sign_up(client, "Pat")
    r = client.post("/api/me/password", json=body)
    assert r.status_code == 422 and words in r.text
    assert person(client).post("/api/session", json={"username": "Pat", "password": PASSWORD}).status_code == 200


def test_password_change_and_log_out_everywhere_need_a_session(client: TestClient) -> None:
    body = {"old": PASSWORD, "new": "a new passphrase"}
    assert client.post("/api/me/password", json=body).status_code == 401
    assert client.delete("/api/sessions").status_code == 401


def test_password_changes_count_as_log_in_attempts(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0, quotas=Quotas(logins_per_minute=2))
    with TestClient(create_app(config)) as strict:
        sign_up(strict, "Quinn")
        for _ in range(2):
            wrong = strict.post("/api/me/password", json={"old": "guess guess", "new": "a new passphrase"})
            assert wrong.status_code == 401
        r = strict.post("/api/me/password", json={"old": PASSWORD, "new": "a new passphrase"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert strict.get("/api/me").status_code == 200, "refused, still logged in with the old password"


def test_log_out_everywhere_ends_every_session_of_the_account_only(client: TestClient) -> None:
    sign_up(client, "Rui")
    phone, laptop = person(client), person(client)
    for device in (phone, laptop):
        assert device.post("/api/session", json={"username": "Rui", "password": PASSWORD}).status_code == 200
    other = sign_up(person(client), "Sol")
    r = phone.delete("/api/sessions")
    assert r.status_code == 200 and r.json() == {"closed": 3}
    assert 'meeple_session=""' in r.headers["set-cookie"] or "max-age=0" in r.headers["set-cookie"].lower()
    assert [d.get("/api/me").status_code for d in (client, phone, laptop)] == [401, 401, 401]
    assert other.get("/api/me").json()["username"] == "Sol", "another account's session stays"


def test_password_change_and_log_out_everywhere_refuse_a_foreign_origin(client: TestClient) -> None:
    sign_up(client, "Tess")
    evil = {"Origin": "https://evil.example"}
    r = client.post("/api/me/password", json={"old": PASSWORD, "new": "chosen by evil"}, headers=evil)
    assert r.status_code == 403
    assert client.request("DELETE", "/api/sessions", headers=evil).status_code == 403
    assert client.get("/api/me").status_code == 200, "still logged in"
    assert person(client).post("/api/session", json={"username": "Tess", "password": PASSWORD}).status_code == 200


# ---------------------------------------------------------------------------------------------- a real process
def test_accounts_in_a_real_server_behind_a_proxy(tmp_path: Path) -> None:
    """``meeple serve`` as a process: sign up, a Secure cookie when the trusted proxy says https, the session opens
    the bound seat over a real WebSocket, log-in quotas as started by default, and a foreign Origin is refused."""
    import http.client
    import json

    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from tests.server.helpers import ServerProcess

    server = ServerProcess(
        f"sqlite:///{tmp_path / 'p.db'}",
        log=tmp_path / "server.log",
        options=("--forwarded-allow-ips", "127.0.0.1", "--logins-per-minute", "2"),
    ).start()
    try:
        host = server.url.removeprefix("http://")

        def call(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
            conn = http.client.HTTPConnection(host, timeout=30)
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
            answer = conn.getresponse()
            answer.body = answer.read()
            conn.close()
            return answer

        forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
        r = call("POST", "/api/accounts", {"username": "Proxied", "password": PASSWORD}, forwarded)
        assert r.status == 201
        cookie = r.getheader("set-cookie")
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        session = {"Cookie": cookie.split(";", 1)[0]}
        seats = {"game": "caprice", "seats": ["human", "bot:random"], "seed": 1}
        table = json.loads(call("POST", "/api/tables", seats, session).body)["table"]
        ws_url = server.url.replace("http", "ws", 1) + f"/api/tables/{table}/ws"
        with connect(ws_url, additional_headers=session) as ws:
            assert json.loads(ws.recv(timeout=10))["seat"] == 0  # the session alone opened the seat
        with (
            pytest.raises(InvalidStatus),
            connect(ws_url, additional_headers={**session, "Origin": "https://evil.example"}),
        ):
            pass
        evil = call("POST", "/api/tables", seats, {**session, "Origin": "https://evil.example"})
        assert evil.status == 403
        bad = {"username": "Proxied", "password": "wrong password"}
        codes = [call("POST", "/api/session", bad).status for _ in range(3)]
        assert codes == [401, 401, 429]
    finally:
        server.stop()


# ---------------------------------------------------------------------------------------------- a stolen session
def _caprice_table(owner: TestClient) -> str:
    seats = {"game": "caprice", "seats": ["human", "human"], "seed": seed_where("caprice", 2, 0)}
    table: str = owner.post("/api/tables", json=seats).json()["table"]
    return table


def _socket_is_closed(ws: Any) -> bool:
    """Read until the server closes the socket (True) or a state frame answers a sync (False)."""
    ws.send_json({"type": "sync"})
    try:
        while True:
            if ws.receive_json()["type"] == "state":
                return False
    except WebSocketDisconnect:
        return True


@pytest.mark.parametrize("ending", ["log out everywhere", "password change", "deletion"])
def test_ending_the_sessions_shuts_a_thief_out_of_the_accounts_seats(client: TestClient, ending: str) -> None:
    """The review's finding 2: a seat token minted, or a WebSocket opened, with a stolen session cookie must not
    outlive the account's sessions; the owner comes back through a new session."""
    sign_up(client, "Ivan")
    table = _caprice_table(client)
    thief = person(client)
    thief.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
    minted = thief.post(f"/api/tables/{table}/token").json()["token"]
    with thief.websocket_connect(f"/api/tables/{table}/ws") as ws:
        assert ws.receive_json()["seat"] == 0
        next_of(ws)
        if ending == "log out everywhere":
            assert client.delete("/api/sessions").status_code == 200
            assert client.post("/api/session", json={"username": "ivan", "password": PASSWORD}).status_code == 200
        elif ending == "password change":
            r = client.post("/api/me/password", json={"old": PASSWORD, "new": "a brand new one"})
            assert r.status_code == 200
        else:
            assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
        assert _socket_is_closed(ws), "the thief's socket outlived the sessions"
    stranger = person(client)
    with stranger.websocket_connect(f"/api/tables/{table}/ws?token={minted}") as ws:
        first = ws.receive_json()
        assert first["type"] == "error" and first["code"] == "bad_token", first
    if ending != "deletion":  # the owner's new session opens the seat, its old seat cookie notwithstanding
        client.cookies.set(f"meeple_seat_{table}", minted)
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            assert ws.receive_json()["seat"] == 0


def test_a_revoke_notification_from_another_process_closes_the_seats_sockets_here(client: TestClient) -> None:
    """With PostgreSQL the process that revoked a seat tells the others (``revoke:<table> <seat>``, NOTIFY)."""
    sign_up(client, "Nora")
    table = _caprice_table(client)
    hub = services_of(client.app).hub
    watcher = person(client)
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as mine,
        watcher.websocket_connect(f"/api/tables/{table}/ws") as spectator,
    ):
        assert mine.receive_json()["seat"] == 0 and spectator.receive_json()["seat"] is None
        next_of(mine)
        next_of(spectator)
        client.portal.call(hub.refresh, f"revoke:{table} x")  # malformed: ignored
        client.portal.call(hub.refresh, f"revoke:{table} 1")  # another seat: nothing here
        assert not _socket_is_closed(mine)
        client.portal.call(hub.refresh, f"revoke:{table} 0")
        assert _socket_is_closed(mine)
        assert not _socket_is_closed(spectator)
