"""The smaller items of issue #44 (item 9) at the API: a guest may not take an account's username or a look-alike,
and a 429 speaks the reader's language — against the running app on its SQLite database."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.names import skeleton
from meeple.server.quotas import Quotas
from tests.server.conftest import OPEN
from tests.server.helpers import create, person
from tests.server.test_accounts import PASSWORD, sign_up


@pytest.mark.parametrize(
    "name",
    [
        "Alice",  # the username itself
        "alice",  # another case
        "\u0410lice",  # a Cyrillic capital A
        "AIice",  # a capital I for the l
        "A1ice",  # a one for the l
        "\uff21\uff4c\uff49\uff43\uff45",  # full-width letters
        "Al\u0456ce",  # a Cyrillic i
    ],
)
def test_a_guest_may_not_take_an_accounts_name_or_a_look_alike(client: TestClient, name: str) -> None:
    sign_up(person(client), "Alice")
    guest = person(client)
    table, _ = create(guest, "citadels", [{"player": "human", "name": "Host"}, "open", "open"])
    for refused in (
        guest.post(f"/api/tables/{table}/join", json={"name": name}),
        guest.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": name}),
        guest.post("/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": name}, "bot:random"]}),
    ):
        assert refused.status_code == 422, refused.text
        assert "Alice" in refused.json()["detail"] and "log in" in refused.json()["detail"]
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["open"] for s in seats] == [False, True, True]  # nothing was taken


def test_other_names_and_the_accounts_own_pass(client: TestClient) -> None:
    alice = sign_up(person(client), "Alice")
    sign_up(person(client), "Bob")
    guest = person(client)
    table, _ = create(guest, "citadels", [{"player": "human", "name": "Host"}, "open", "open", "open"])
    for name in ("Alicia", "Bobby", "José", "Zoë"):
        assert guest.post(f"/api/tables/{table}/join", json={"name": name}).status_code in (201, 409)
        guest.cookies.clear()
    joined = alice.post(f"/api/tables/{table}/join", json={})  # logged in: her own username
    assert joined.status_code in (201, 409), joined.text
    own = alice.post(
        "/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": "alice"}, "bot:random"]}
    )
    assert own.status_code == 201, own.text  # the creator names her own seat: it is bound to her and named Alice
    assert skeleton("Alice") == skeleton("\u0410l\u0456ce") != skeleton("Alicia")


def test_a_deleted_accounts_name_is_free_again(client: TestClient) -> None:
    alice = sign_up(person(client), "Alice")
    assert alice.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    guest = person(client)
    r = guest.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Alice"})
    assert r.status_code == 201, r.text


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """Quotas on: one table a minute per address."""
    quotas = dataclasses.replace(Quotas(), tables_per_minute=1)
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0, quotas=quotas, origins=OPEN["origins"])
    with TestClient(create_app(config)) as client:
        yield client


def test_a_quota_refusal_speaks_the_readers_language(strict: TestClient) -> None:
    body = {"game": "caprice", "seats": ["human", "bot:random"]}
    assert strict.post("/api/tables", json=body).status_code == 201
    english = strict.post("/api/tables", json=body)
    assert english.status_code == 429 and english.json()["detail"].startswith(
        "too many tables created: at most 1 a minute"
    )
    french = strict.post("/api/tables", json=body, headers={"Accept-Language": "fr"})
    assert french.status_code == 429 and int(french.headers["Retry-After"]) >= 1
    detail = french.json()["detail"]
    assert detail.startswith("trop de tables créées\u202f: au plus 1 par minute\u202f; réessayez dans "), detail
