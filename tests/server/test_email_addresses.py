"""An account's e-mail address is one plain address (security review, finding 3).

``postmaster,abuse,x@victim.example`` was accepted and split into three recipients by the e-mail library, and an
RFC 2047 encoded word was stored as typed but delivered elsewhere. Every such form is refused with 422 wherever an
address is given: ``POST /api/accounts``, ``PATCH /api/me`` and the lobby's sign-up form.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.accounts import check_email
from meeple.server.app import ServerConfig
from meeple.server.quotas import Quotas
from meeple.web import create_web_app

PASSWORD = "correct horse battery"
BAD = [
    "postmaster,abuse,x@victim.example",
    "a;b@example.org",
    'a"b@example.org',
    '"a b"@example.org',
    "<a@example.org>",
    "Eve <a@example.org>",
    "a(comment)@example.org",
    "=?utf-8?q?x?=@x.org",
    "a=?b@x.org",
    "a b@example.org",
    "a..b@example.org",
    ".a@example.org",
    "a.@example.org",
    "a@b@example.org",
    "a\\b@example.org",
    "é@example.org",
    "x" * 65 + "@example.org",
    "a@example.org,b@example.org",
]
GOOD = ["ann@example.org", "o.k+turns@mail.example.org", "a'b@x.org", "x_y-z{1}@x.org"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'e.db'}", bot_workers=0, quotas=Quotas(rate_limits=False))
    with TestClient(create_web_app(config)) as client:
        yield client


@pytest.mark.parametrize("address", BAD)
def test_check_email_refuses_every_form_that_is_not_one_plain_address(address: str) -> None:
    with pytest.raises(ValueError, match="name@example.org"):
        check_email(address)


@pytest.mark.parametrize("address", GOOD)
def test_plain_addresses_are_kept_as_typed(address: str) -> None:
    assert check_email(address) == address


def test_every_bad_address_is_refused_with_422_at_sign_up_patch_and_the_web_form(server: TestClient) -> None:
    for i, address in enumerate(BAD):
        r = server.post("/api/accounts", json={"username": f"api{i}", "password": PASSWORD, "email": address})
        assert r.status_code == 422 and "name@example.org" in r.text, (address, r.text)
        form = {"username": f"web{i}", "password": PASSWORD, "email": address}
        r = server.post("/signup", data=form, follow_redirects=False)
        assert r.status_code == 422 and "name@example.org" in r.text, (address, r.status_code)
        assert "meeple_session" not in r.headers.get("set-cookie", "")
    r = server.post("/api/accounts", json={"username": "ann", "password": PASSWORD, "email": GOOD[1]})
    assert r.status_code == 201
    for address in BAD:
        r = server.patch("/api/me", json={"email": address})
        assert r.status_code == 422 and "name@example.org" in r.text, (address, r.text)
    assert server.get("/api/me").json()["email"] == GOOD[1]  # nothing half-changed
