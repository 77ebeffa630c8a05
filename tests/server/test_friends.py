"""Friends and presence (issue #44, item 3): follow one way, who is online, the live table a friend plays at.

Against the running app on its SQLite database (the two-process PostgreSQL test is in
tests/server/test_two_processes_social.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from meeple.server import friends as friends_module
from meeple.server.app import ServerConfig, create_app
from meeple.server.db import AccountRow, FollowRow
from meeple.server.friends import ONLINE_SECONDS
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from tests.server.conftest import OPEN
from tests.server.helpers import next_of, person
from tests.server.test_accounts import PASSWORD, sign_up


def _age(client: TestClient, username: str, seconds: float) -> None:
    """Make ``username``'s last page view ``seconds`` old (its presence ages without waiting)."""
    services = services_of(client.app)
    with Session(services.engine) as s, s.begin():
        seen = services.tables.now() - seconds
        s.execute(update(AccountRow).where(AccountRow.username == username).values(seen_at=seen))


def test_follow_is_one_way_listed_with_presence_and_unfollow_ends_it(client: TestClient) -> None:
    ann, bea, cid = (sign_up(person(client), n) for n in ("Ann", "Bea", "Cid"))
    assert ann.get("/api/me/friends").json() == []
    r = ann.put("/api/me/friends/bea")  # any case
    assert r.status_code == 200, r.text
    entry = r.json()
    assert entry["username"] == "Bea" and entry["table"] is None and isinstance(entry["since"], float)
    assert ann.put("/api/me/friends/BEA").json()["since"] == entry["since"]  # again: nothing changes
    assert ann.put("/api/me/friends/Cid").status_code == 200
    assert bea.get("/api/me/friends").json() == []  # one way: Bea follows nobody
    bea.get("/api/me")  # Bea views a page: online
    _age(client, "Cid", ONLINE_SECONDS + 5)  # Cid's last view is over 5 minutes old: offline
    listed = ann.get("/api/me/friends").json()
    assert [(f["username"], f["online"]) for f in listed] == [("Bea", True), ("Cid", False)]
    _age(client, "Bea", ONLINE_SECONDS - 30)  # 4.5 minutes ago: still online
    assert ann.get("/api/me/friends").json()[0]["online"] is True
    assert client.get("/api/players/Bea").json()["online"] is True  # the profile shows it to anyone
    assert client.get("/api/players/Cid").json()["online"] is False
    gone = ann.delete("/api/me/friends/Bea")
    assert gone.status_code == 200 and gone.json() == {"username": "Bea", "following": False, "was_following": True}
    assert ann.delete("/api/me/friends/Bea").json()["was_following"] is False
    assert [f["username"] for f in ann.get("/api/me/friends").json()] == ["Cid"]
    del cid


def test_refusals_name_what_is_wrong(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    guest = person(client)
    assert guest.get("/api/me/friends").status_code == 401
    assert guest.put("/api/me/friends/Ann").status_code == 401
    assert guest.delete("/api/me/friends/Ann").status_code == 401
    assert guest.put("/api/me/presence", json={"hide_table": True}).status_code == 401
    ann = sign_up(person(client), "Ann")
    for n in ("Bea", "Cid", "Dan"):
        sign_up(person(client), n)
    nobody = ann.put("/api/me/friends/Nobody")
    assert nobody.status_code == 404 and "Nobody" in nobody.json()["detail"]
    assert ann.put("/api/me/friends/" + "x" * 300).status_code == 404  # longer than any username: never looked up
    assert ann.delete("/api/me/friends/Nobody").status_code == 404
    me = ann.put("/api/me/friends/ann")
    assert me.status_code == 422 and "yourself" in me.json()["detail"]
    monkeypatch.setattr(friends_module, "MAX_FOLLOWS", 2)
    assert ann.put("/api/me/friends/Bea").status_code == 200 and ann.put("/api/me/friends/Cid").status_code == 200
    third = ann.put("/api/me/friends/Dan")
    assert third.status_code == 409 and "2" in third.json()["detail"]
    assert ann.put("/api/me/friends/Bea").status_code == 200  # following again is no new follow
    assert len(ann.get("/api/me/friends").json()) == 2
    french = ann.put("/api/me/friends/ann", headers={"Accept-Language": "fr"})
    assert french.status_code == 422 and "vous-même" in french.json()["detail"]
    assert ann.put("/api/me/presence", json={"hide_table": "maybe"}).status_code == 422
    assert ann.put("/api/me/presence", json={"hide_table": True, "other": 1}).status_code == 422


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """Quotas on, as ``meeple serve`` starts, with 3 follows a minute."""
    quotas = dataclasses.replace(Quotas(), follows_per_minute=3)
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0, quotas=quotas, origins=OPEN["origins"])
    with TestClient(create_app(config)) as client:
        yield client


def test_follows_past_the_quota_are_refused_429(strict: TestClient) -> None:
    ann = sign_up(person(strict), "Ann")
    for n in ("Bea", "Cid", "Dan", "Eve"):
        strict.post("/api/accounts", json={"username": n, "password": PASSWORD})
    assert [ann.put(f"/api/me/friends/{n}").status_code for n in ("Bea", "Cid", "Dan")] == [200, 200, 200]
    past = ann.put("/api/me/friends/Eve")
    assert past.status_code == 429 and int(past.headers["Retry-After"]) >= 1
    assert [f["username"] for f in ann.get("/api/me/friends").json()] == ["Bea", "Cid", "Dan"]
    flips = [ann.put("/api/me/presence", json={"hide_table": n % 2 == 0}).status_code for n in range(4)]
    assert flips == [200, 200, 200, 429]
    assert ann.get("/api/me/presence").json() == {"hide_table": True}  # the refused change changed nothing


def test_a_friends_live_table_is_shown_unless_hidden_and_a_connection_is_presence(client: TestClient) -> None:
    ann, bea, cid = (sign_up(person(client), n) for n in ("Ann", "Bea", "Cid"))
    ann.put("/api/me/friends/Bea")
    seats = [p.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}) for p in (bea, cid)]
    table = seats[0].json()["table"]
    assert ann.get("/api/me/friends").json()[0]["table"] == {"table": table, "game": "caprice"}
    _age(client, "Bea", ONLINE_SECONDS + 60)  # no page view for six minutes...
    assert ann.get("/api/me/friends").json()[0]["online"] is False
    with bea.websocket_connect(f"/api/tables/{table}/ws") as ws:  # ...but a live connection to her table
        next_of(ws)
        _age(client, "Bea", ONLINE_SECONDS + 60)  # the handshake viewed nothing more
        assert ann.get("/api/me/friends").json()[0]["online"] is True
    assert bea.get("/api/me/presence").json() == {"hide_table": False}
    assert bea.put("/api/me/presence", json={"hide_table": True}).json() == {"hide_table": True}
    assert bea.get("/api/me/presence").json() == {"hide_table": True}
    assert ann.get("/api/me/friends").json()[0]["table"] is None  # hidden from those who follow her
    bea.put("/api/me/presence", json={"hide_table": False})
    assert ann.get("/api/me/friends").json()[0]["table"]["table"] == table


def test_a_friend_who_blocks_you_shows_neither_presence_nor_table(client: TestClient) -> None:
    ann, bea, cid = (sign_up(person(client), n) for n in ("Ann", "Bea", "Cid"))
    ann.put("/api/me/friends/Bea")
    seats = [p.post("/api/quickmatch", json={"game": "caprice", "players": 2, "rated": True}) for p in (bea, cid)]
    table = seats[0].json()["table"]
    assert ann.get("/api/me/friends").json()[0] | {"since": 0} == {
        "username": "Bea",
        "online": True,
        "table": {"table": table, "game": "caprice"},
        "since": 0,
    }
    assert bea.put("/api/me/blocks/Ann").status_code in (200, 201, 204)
    assert ann.get("/api/me/friends").json()[0] | {"since": 0} == {
        "username": "Bea",
        "online": False,
        "table": None,
        "since": 0,
    }
    answer = ann.put("/api/me/friends/Bea").json()  # following again tells nothing more
    assert (answer["online"], answer["table"]) == (False, None)
    bea.delete("/api/me/blocks/Ann")
    assert ann.get("/api/me/friends").json()[0]["table"] == {"table": table, "game": "caprice"}


def test_a_deleted_account_leaves_every_friends_list(client: TestClient) -> None:
    ann, bea = (sign_up(person(client), n) for n in ("Ann", "Bea"))
    ann.put("/api/me/friends/Bea")
    bea.put("/api/me/friends/Ann")
    assert bea.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    assert ann.get("/api/me/friends").json() == []
    with Session(services_of(client.app).engine) as s:
        assert s.scalars(select(FollowRow)).all() == []
