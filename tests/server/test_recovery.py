"""Getting an account back (issue #44, item 5): password reset by e-mail, e-mail verification, the operator's reset
link; and the data export (item 8). Against the running app on its SQLite database, e-mails through a real local
SMTP server (aiosmtpd), and one real ``meeple serve --smtp`` process.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from meeple.cli.app import app as cli
from meeple.server.app import ServerConfig, create_app
from meeple.server.notify import SmtpSettings, account_addresses
from meeple.server.quotas import Quotas
from meeple.server.recovery import hash_link
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import ServerProcess, create, next_of, person
from tests.server.mail import Inbox, smtp_server

PASSWORD = "correct horse battery"
NEW = "purple monkey dishwasher"
LINK = re.compile(r"https?://\S+/(reset|verify)/([A-Za-z0-9_-]+)\?lang=(\w+)")


@pytest.fixture
def mailed(tmp_path: Path) -> Iterator[tuple[TestClient, Inbox]]:
    """A running app with ``--smtp`` to a local SMTP server, no quotas; its inbox."""
    with smtp_server() as (inbox, port):
        mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, allow_seed=True, smtp=mail, **OPEN)
        with TestClient(create_app(config)) as client:
            yield client, inbox


def sign_up(client: Any, username: str, email: str | None = None) -> Any:
    body = {"username": username, "password": PASSWORD, **({"email": email} if email else {})}
    r = client.post("/api/accounts", json=body)
    assert r.status_code == 201, r.text
    return client


def links(inbox: Inbox, count: int) -> list[tuple[str, str, str]]:
    """The ``(purpose, token, lang)`` of the links in the first ``count`` e-mails, one link each."""
    found = []
    for message in inbox.wait(count):
        (link,) = LINK.findall(message.get_content())
        found.append(link)
    return found


def verified(client: Any, inbox: Inbox, username: str, email: str) -> None:
    """Sign ``username`` up with ``email`` and open the verification link it is sent."""
    before = len(inbox.messages)
    sign_up(client, username, email)
    message = inbox.wait(before + 1)[before]
    assert message["To"] == email and message["Subject"] == "Confirm your e-mail address for meeple"
    (purpose, token, _lang) = LINK.findall(message.get_content())[0]
    assert purpose == "verify"
    r = client.post(f"/api/verification/{token}")
    assert r.status_code == 200 and r.json() == {"username": username, "email_verified": True}


# ---------------------------------------------------------------------------------------------- reset by e-mail
def test_a_forgotten_password_is_reset_by_a_one_time_link_that_ends_every_session(mailed: Any) -> None:
    client, inbox = mailed
    other_device = person(client)
    verified(client, inbox, "ann", "ann@example.org")
    assert client.get("/api/me").json()["email_verified"] is True
    assert other_device.post("/api/session", json={"username": "ann", "password": PASSWORD}).status_code == 200
    stranger = person(client)
    r = stranger.post("/api/password-reset", json={"username": "ANN"})  # any case
    assert r.status_code == 202 and r.json() == {"mail": True}
    (mail,) = inbox.wait(2)[1:]
    assert mail["To"] == "ann@example.org" and mail["Subject"] == "Reset your meeple password"
    assert "30 minutes" in mail.get_content()
    ((purpose, token, lang),) = LINK.findall(mail.get_content())
    assert purpose == "reset" and lang == "en"
    with services_of(client.app).engine.connect() as conn:  # stored as its SHA-256 only
        stored = conn.execute(text("SELECT token_hash FROM account_links WHERE purpose = 'reset'")).scalars().all()
    assert stored == [hash_link(token)]
    assert stranger.get(f"/api/password-reset/{token}").json()["username"] == "ann"
    weak = stranger.post(f"/api/password-reset/{token}", json={"password": "password1"})
    assert weak.status_code == 422  # too easy: the link stays valid
    done = stranger.post(f"/api/password-reset/{token}", json={"password": NEW})
    assert done.status_code == 200 and done.json() == {"username": "ann"}
    assert stranger.get("/api/me").json()["username"] == "ann"  # logged in by the reset
    assert client.get("/api/me").status_code == 401 and other_device.get("/api/me").status_code == 401
    again = person(client).post(f"/api/password-reset/{token}", json={"password": NEW + "!"})
    assert again.status_code == 404 and "used already" in again.json()["detail"]  # single use
    assert person(client).get(f"/api/password-reset/{token}").status_code == 404
    old = person(client).post("/api/session", json={"username": "ann", "password": PASSWORD})
    assert old.status_code == 401
    assert person(client).post("/api/session", json={"username": "ann", "password": NEW}).status_code == 200


def test_the_answer_is_the_same_for_known_unknown_and_unverified_and_only_verified_addresses_are_mailed(
    mailed: Any,
) -> None:
    client, inbox = mailed
    verified(person(client), inbox, "ann", "Ann@Example.org")
    sign_up(person(client), "bob", "bob@example.org")  # never verified
    inbox.wait(2)
    asked = [
        {"username": "nobody"},
        {"email": "nobody@example.org"},
        {"username": "bob"},
        {"email": "bob@example.org"},
        {"email": "ann@example.org"},  # her address, another case: one e-mail
    ]
    answers = [person(client).post("/api/password-reset", json=body) for body in asked]
    assert {(r.status_code, r.text) for r in answers} == {(202, '{"mail":true}')}
    (mail,) = inbox.wait(3)[2:]
    assert mail["To"] == "Ann@Example.org"
    time.sleep(1.0)
    assert len(inbox.messages) == 3  # nothing to bob's unverified address, nothing for the unknown ones


@pytest.mark.parametrize(
    "body",
    [{}, {"username": "ann", "email": "ann@example.org"}, {"username": "x" * 200}, {"email": "a" * 300}, {"x": 1}],
)
def test_a_reset_request_names_one_account_within_bounds(client: TestClient, body: dict[str, Any]) -> None:
    assert client.post("/api/password-reset", json=body).status_code == 422


def test_a_reset_link_lapses_after_30_minutes(mailed: Any) -> None:
    client, inbox = mailed
    verified(client, inbox, "ann", "ann@example.org")
    person(client).post("/api/password-reset", json={"username": "ann"})
    (_purpose, token, _lang) = links(inbox, 2)[1]
    accounts = services_of(client.app).accounts
    start = time.time()
    accounts.now = lambda: start + 29 * 60
    assert person(client).get(f"/api/password-reset/{token}").status_code == 200
    accounts.now = lambda: start + 31 * 60
    assert person(client).get(f"/api/password-reset/{token}").status_code == 404
    assert person(client).post(f"/api/password-reset/{token}", json={"password": NEW}).status_code == 404


def test_without_smtp_the_answer_says_so_and_the_operator_prints_a_link(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    with TestClient(create_app(ServerConfig(db=db, bot_workers=0, **OPEN))) as client:
        sign_up(client, "ann", "ann@example.org")
        assert client.post("/api/password-reset", json={"username": "ann"}).json() == {"mail": False}
        runner = CliRunner()
        printed = runner.invoke(
            cli, ["admin", "reset-password", "ann", "--db", db, "--as", "root", "--public-url", "https://m.example"]
        )
        assert printed.exit_code == 0, printed.output
        (link,) = re.findall(r"https://m\.example/reset/([A-Za-z0-9_-]+)", printed.output)
        r = person(client).post(f"/api/password-reset/{link}", json={"password": NEW})
        assert r.status_code == 200 and r.json() == {"username": "ann"}
        unknown = runner.invoke(cli, ["admin", "reset-password", "nobody", "--db", db])
        assert unknown.exit_code == 2 and "no account named nobody" in unknown.output
        log = runner.invoke(cli, ["admin", "log", "--db", db])
        assert "root" in log.output and "reset-password" in log.output and "ann" in log.output


# ---------------------------------------------------------------------------------------------- verification
def test_turn_e_mails_go_only_to_a_verified_address_and_a_change_unverifies_it(mailed: Any) -> None:
    client, inbox = mailed
    sign_up(client, "ann", "ann@example.org")
    ((purpose, first, _lang),) = links(inbox, 1)
    assert purpose == "verify" and client.get("/api/me").json()["email_verified"] is False
    engine = services_of(client.app).engine
    table, _tokens = create(client, "caprice", ["human", "bot:random"])
    lookup = account_addresses(engine)
    assert lookup(table, 0) is None  # not verified: no turn e-mail
    assert client.post(f"/api/verification/{first}").status_code == 200
    assert lookup(table, 0) is not None and lookup(table, 0).address == "ann@example.org"  # type: ignore[union-attr]
    same = client.patch("/api/me", json={"email": "ann@example.org"}).json()
    assert same["email_verified"] is True  # the same address again keeps its state
    changed = client.patch("/api/me", json={"email": "ann@example.net"}).json()
    assert changed == {"username": "ann", "email": "ann@example.net", "email_verified": False}
    assert lookup(table, 0) is None
    ((purpose, second, _lang),) = links(inbox, 2)[1:]
    assert inbox.messages[1]["To"] == "ann@example.net"
    client.patch("/api/me", json={"email": "ann@example.com"})  # changed again before the link was opened
    assert client.post(f"/api/verification/{second}").status_code == 404  # it confirmed another address
    assert client.post(f"/api/verification/{first}").status_code == 404  # used
    assert client.post("/api/me/verification").json() == {"sent": True}
    (_p, third, _l) = links(inbox, 4)[3]
    assert client.post(f"/api/verification/{third}").status_code == 200
    assert client.get("/api/me").json()["email_verified"] is True
    assert client.post("/api/me/verification").json() == {"sent": False}  # verified already
    assert person(client).post("/api/me/verification").status_code == 401


def test_verification_e_mails_and_reset_requests_are_rate_limited(tmp_path: Path) -> None:
    with smtp_server() as (inbox, port):
        mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        quotas = Quotas(verifications_per_hour=2, resets_per_hour=2)
        config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, smtp=mail, quotas=quotas)
        with TestClient(create_app(config)) as client:
            sign_up(client, "ann", "ann@example.org")  # its first verification e-mail
            assert client.post("/api/me/verification").status_code == 202
            refused = client.post("/api/me/verification")
            assert refused.status_code == 429 and "Retry-After" in refused.headers
            for _ in range(2):
                assert client.post("/api/password-reset", json={"username": "ann"}).status_code == 202
            assert client.post("/api/password-reset", json={"username": "ann"}).status_code == 429


# ---------------------------------------------------------------------------------------------- a real process
def test_meeple_serve_smtp_mails_a_reset_link_that_opens_the_reset_page(tmp_path: Path) -> None:
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
            with httpx.Client(base_url=server.url) as ann:
                sign_up(ann, "ann", "ann@example.org")
                ((_p, verify, _l),) = links(inbox, 1)
                assert ann.post(f"/api/verification/{verify}").status_code == 200
                with httpx.Client(base_url=server.url) as stranger:
                    assert stranger.post("/api/password-reset", json={"email": "ann@example.org"}).status_code == 202
                    (_p, token, lang) = links(inbox, 2)[1]
                    page = stranger.get(f"/reset/{token}?lang={lang}")
                    assert page.status_code == 200 and "ann" in page.text
                    done = stranger.post(f"/api/password-reset/{token}", json={"password": NEW})
                    assert done.status_code == 200 and stranger.get("/api/me").json()["username"] == "ann"
                assert ann.get("/api/me").status_code == 401  # her old session ended
        finally:
            server.stop()


# ---------------------------------------------------------------------------------------------- export
def test_the_export_holds_the_account_its_ratings_games_and_chat_lines(client: TestClient) -> None:
    sign_up(client, "ann", "ann@example.org")
    table, _tokens = create(client, "caprice", ["human", "bot:random"])
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        next_of(ws)
        ws.send_json({"type": "chat", "text": "good luck"})
        assert next_of(ws, "chat")["text"] == "good luck"
    r = client.get("/api/me/export")
    assert r.status_code == 200 and r.headers["content-disposition"] == 'attachment; filename="meeple-ann.json"'
    document = json.loads(r.text)
    assert document["format"] == "meeple-account-export/1"
    assert document["account"] == {
        "username": "ann",
        "email": "ann@example.org",
        "email_verified": False,
        "created": document["account"]["created"],
        "lang": document["account"]["lang"],
    }
    assert document["ratings"] == {}
    (game,) = document["games"]
    assert game["table"] == table and game["seat"] == 0 and game["status"] == "live" and "record" not in game
    assert [c["text"] for c in document["chat"]] == ["good luck"]
    assert person(client).get("/api/me/export").status_code == 401


def test_exports_are_rate_limited_per_account(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, quotas=Quotas(exports_per_hour=2))
    with TestClient(create_app(config)) as client:
        sign_up(client, "ann")
        assert [client.get("/api/me/export").status_code for _ in range(3)] == [200, 200, 429]


# ---------------------------------------------------------------------------------------------- migration
def test_migration_0009_keeps_accounts_with_their_address_unverified_and_goes_back(tmp_path: Path) -> None:
    """A database at 0008 with an account and its address: 0009 adds the links, reports, log and bans; the address
    is not verified (no turn e-mail until its owner opens a link), the account logs in; downgrading removes it all."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from meeple.server.accounts import Accounts
    from meeple.server.db import MIGRATIONS, make_engine
    from tests.server.test_migration import _upgrade_to

    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    _upgrade_to(engine, "0008_table_rules")
    digest = Accounts(engine).hasher.hash(PASSWORD)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO accounts (username, username_key, password_hash, email, created)"
                " VALUES ('old', 'old', :digest, 'old@example.org', 1.0)"
            ),
            {"digest": digest},
        )
    engine.dispose()
    db = f"sqlite:///{tmp_path / 'old.db'}"
    with TestClient(create_app(ServerConfig(db=db, bot_workers=0, **OPEN))) as client:
        assert client.post("/api/session", json={"username": "old", "password": PASSWORD}).status_code == 200
        me = client.get("/api/me").json()
        assert me["email"] == "old@example.org" and me["email_verified"] is False
    engine = make_engine(db)
    assert {"account_links", "reports", "moderation_log", "banned_mailboxes"} <= set(inspect(engine).get_table_names())
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0008_table_rules")
    names = set(inspect(engine).get_table_names())
    assert not names & {"account_links", "reports", "moderation_log", "banned_mailboxes"}
    assert "email_verified" not in {c["name"] for c in inspect(engine).get_columns("accounts")}
    engine.dispose()


def test_a_link_token_and_a_new_password_are_bounded(client: TestClient) -> None:
    long = "x" * 44
    assert client.get(f"/api/password-reset/{long}").status_code == 422
    assert client.post(f"/api/password-reset/{long}", json={"password": NEW}).status_code == 422
    assert client.post(f"/api/verification/{long}").status_code == 422
    assert client.get(f"/api/password-reset/{'x' * 43}").status_code == 404
    for password in ("short", "x" * 129):
        assert client.post(f"/api/password-reset/{'x' * 43}", json={"password": password}).status_code == 422
    assert client.post(f"/api/password-reset/{'x' * 43}", json={"password": NEW, "extra": 1}).status_code == 422
