"""The pages of getting an account back and of its settings (issue #44, items 5 and 8), in both languages: forgot,
reset, verify, the account's settings (address, export, deletion); and a banned account at the lobby's log-in form.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.server.notify import SmtpSettings
from meeple.server.services import services_of
from meeple.web import create_web_app
from tests.server.conftest import OPEN
from tests.server.helpers import person
from tests.server.mail import Inbox, smtp_server

PASSWORD = "correct horse battery"
NEW = "purple monkey dishwasher"


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[TestClient, Inbox]]:
    with smtp_server() as (inbox, port):
        mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        config = ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0, smtp=mail, **OPEN)
        with TestClient(create_web_app(config)) as client:
            yield client, inbox


def _sign_up(client: TestClient, username: str, email: str = "") -> None:
    r = client.post("/signup", data={"username": username, "password": PASSWORD, "email": email})
    assert r.status_code == 200 and r.url.path == "/", r.text  # 303 back to the lobby, logged in


def _link(inbox: Inbox, count: int, kind: str) -> str:
    (token,) = re.findall(rf"/{kind}/([A-Za-z0-9_-]+)", inbox.wait(count)[count - 1].get_content())
    return token


def test_the_forgot_and_reset_pages_set_a_new_password_and_log_in(web: Any) -> None:
    client, inbox = web
    owner = person(client)
    _sign_up(owner, "ann", "ann@example.org")
    verify = _link(inbox, 1, "verify")
    page = owner.get(f"/verify/{verify}?lang=fr")
    assert page.status_code == 200 and "ann@example.org" in page.text and "Oui, confirmer" in page.text
    done = owner.post(f"/verify/{verify}?lang=fr")
    assert done.status_code == 200 and "est confirmée" in done.text
    assert owner.get(f"/verify/{verify}").status_code == 404  # used
    lobby = client.get("/?lang=fr")
    assert 'href="/forgot?lang=fr"' in lobby.text and "Mot de passe oublié" in lobby.text
    assert client.get("/forgot?lang=fr").status_code == 200
    asked = client.post("/forgot?lang=fr", data={"who": "ann@example.org"})
    same = client.post("/forgot?lang=fr", data={"who": "nobody"})
    assert asked.status_code == same.status_code == 202 and asked.text == same.text
    token = _link(inbox, 2, "reset")
    form = client.get(f"/reset/{token}?lang=fr")
    assert form.status_code == 200 and "Pour le compte ann." in form.text
    weak = client.post(f"/reset/{token}?lang=fr", data={"password": "password1"})
    assert weak.status_code == 422 and 'role="alert"' in weak.text
    r = client.post(f"/reset/{token}?lang=fr", data={"password": NEW}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/players/ann?lang=fr"
    assert client.get("/api/me").json()["username"] == "ann"
    assert owner.get("/api/me").status_code == 401  # her other device was logged out
    gone = client.get(f"/reset/{token}?lang=fr")
    assert gone.status_code == 404 and "pas valable" in gone.text


def test_the_settings_page_changes_the_address_exports_and_deletes_the_account(web: Any) -> None:
    client, inbox = web
    assert client.get("/me/account", follow_redirects=False).status_code == 303  # logged out: the lobby
    _sign_up(client, "bob")
    page = client.get("/me/account")
    assert page.status_code == 200 and "No e-mail address" in page.text and 'href="/api/me/export"' in page.text
    bad = client.post("/me/email", data={"email": "not an address"})
    assert bad.status_code == 422 and "name@example.org" in bad.text
    saved = client.post("/me/email?lang=fr", data={"email": "bob@example.org"})
    assert saved.status_code == 200 and "bob@example.org" in saved.text and "non confirmée" in saved.text
    assert inbox.wait(1)[0]["To"] == "bob@example.org"
    assert client.post("/me/verification").status_code == 200
    assert len(inbox.wait(2)) == 2
    profile = client.get("/players/bob")
    assert 'href="/me/account?lang=fr"' in profile.text and 'href="/api/me/export"' in profile.text
    wrong = client.post("/me/delete", data={"password": "not it at all"})
    assert wrong.status_code == 401 and client.get("/api/me").status_code == 200
    deleted = client.post("/me/delete?lang=fr", data={"password": PASSWORD}, follow_redirects=False)
    assert deleted.status_code == 303 and deleted.headers["location"] == "/?lang=fr"
    assert client.get("/api/players/bob").status_code == 404


def test_a_banned_account_is_told_so_at_the_lobbys_log_in_form(web: Any) -> None:
    client, _inbox = web
    _sign_up(client, "eve")
    services_of(client.app).moderation.ban("eve", "test")
    r = person(client).post("/login?lang=fr", data={"username": "eve", "password": PASSWORD})
    assert r.status_code == 403 and "ce compte est banni" in r.text


def test_a_player_is_reported_from_their_profile(web: Any) -> None:
    client, _inbox = web
    _sign_up(person(client), "mallory")
    assert client.get("/players/mallory/report", follow_redirects=False).status_code == 303  # logged out: the lobby
    _sign_up(client, "ann")
    assert "/players/mallory/report" in client.get("/players/mallory?lang=fr").text
    assert "/report" not in client.get("/players/ann").text  # not oneself
    form = client.get("/players/MALLORY/report?lang=fr")
    assert form.status_code == 200 and "Signaler mallory" in form.text
    assert client.get("/players/nobody/report").status_code == 404
    empty = client.post("/players/mallory/report?lang=fr", data={"reason": "\u200b"})
    assert empty.status_code == 422 and 'role="alert"' in empty.text
    missing = client.post("/players/mallory/report", data={"reason": "spam", "table": "nosuchtable"})
    assert missing.status_code == 404
    sent = client.post("/players/mallory/report?lang=fr", data={"reason": "insultes"})
    assert sent.status_code == 201 and "opérateur du serveur lira" in sent.text
    (report,) = services_of(client.app).moderation.reports()
    assert (report.reporter, report.username, report.reason, report.table) == ("ann", "mallory", "insultes", None)
