"""Invitations by name and blocking (issue #44, items 2 and 6), against the running app and its real database.

A seat of ``POST /api/tables`` may be ``{"invite": "USERNAME"}``: only that account takes it; it finds it in
``GET /api/me/invitations`` and "My tables", is told live, and joins or declines. A block hides the blocked
player's chat lines, keeps quick match apart and refuses their invitations.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.blocks import MAX_BLOCKS
from meeple.server.quotas import Quotas
from tests.server.conftest import OPEN
from tests.server.helpers import create, next_of, postgres
from tests.server.test_accounts import person, sign_up


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database the server supports."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 's.db'}"
    else:
        with postgres(tmp_path) as url:
            yield url


def _app(db: str, **quotas: Any) -> TestClient:
    rate_limits = bool(quotas.pop("rate_limits", False))
    config = ServerConfig(db=db, bot_workers=0, **{**OPEN, "quotas": Quotas(rate_limits=rate_limits, **quotas)})
    return TestClient(create_app(config))


def _message(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def test_an_invited_seat_is_taken_only_by_its_account_who_is_told_and_finds_it(db: str) -> None:
    with _app(db) as client:
        ann, bea, cid = (sign_up(person(client), n) for n in ("Ann", "Bea", "Cid"))
        elsewhere, _ = create(bea, "caprice", ["human", "bot:random"])
        with bea.websocket_connect(f"/api/tables/{elsewhere}/ws") as ws:  # Bea is connected at another table
            next_of(ws)
            table, tokens = create(ann, "caprice", ["human", {"invite": "bea"}])
            told = _message(ws, "invitation")
            assert told == {"type": "invitation", "table": table, "game": "caprice", "by": "Ann"}
        assert list(tokens) == [0]  # no token for the invited seat: its account takes it with join
        view = client.get(f"/api/tables/{table}").json()
        assert view["status"] == "waiting" and view["seats"][1]["invited"] == "Bea" and view["seats"][1]["open"]
        refused = cid.post(f"/api/tables/{table}/join", json={})
        assert refused.status_code == 409 and "reserved" in refused.json()["detail"]
        guest = person(client).post(f"/api/tables/{table}/join", json={"name": "Guest"})
        assert guest.status_code == 409
        invitations = bea.get("/api/me/invitations").json()
        assert invitations == [
            {
                "table": table,
                "game": "caprice",
                "seat": 1,
                "by": "Ann",
                "rated": False,
                "rematch_of": None,
                "lapse_at": None,
                "created": invitations[0]["created"],
            }
        ]
        mine = [t for t in bea.get("/api/me/tables").json() if t["table"] == table]
        assert [(t["seat"], t["invited"], t["status"]) for t in mine] == [(1, True, "waiting")]
        assert cid.get("/api/me/invitations").json() == []
        joined = bea.post(f"/api/tables/{table}/join", json={})
        assert joined.status_code == 201 and joined.json()["seat"] == 1
        view = client.get(f"/api/tables/{table}").json()
        assert view["status"] == "live" and view["seats"][1]["account"] == "Bea" and view["seats"][1]["invited"] is None
        assert bea.get("/api/me/invitations").json() == []
        assert client.get("/api/me/invitations").status_code == 401


def test_a_bad_invitation_is_refused_saying_why_and_nothing_is_created(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        ann = sign_up(person(client), "Ann")
        sign_up(person(client), "Bea")
        before = len(client.get("/api/tables").json())
        cases = [
            (["human", {"invite": "nobody"}], 422, "no player named"),
            (["human", {"invite": "ann"}], 422, "invite someone else"),
            (["human", {"invite": "Bea"}, {"invite": "bea"}], 422, "one seat only"),
            (["human", {"invite": "bad name!"}], 422, ""),
            (["human", {"invite": "x" * 25}], 422, ""),
            (["human", {"invite": "Bea", "name": "B"}], 422, "alone"),
            (["human", {"invite": "Bea", "player": "human"}], 422, "alone"),
        ]
        for seats, status, words in cases:
            r = ann.post("/api/tables", json={"game": "caprice", "seats": seats})
            assert r.status_code == status and words in r.text, (seats, r.text)
            assert "bad name!" not in r.text  # the input is not echoed
        guest = person(client).post("/api/tables", json={"game": "caprice", "seats": ["human", {"invite": "Bea"}]})
        assert guest.status_code == 401 and "log in" in guest.json()["detail"]
        assert len(client.get("/api/tables").json()) == before


def test_a_declined_invitation_frees_the_seat_for_anyone(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}") as client:
        ann, bea = (sign_up(person(client), n) for n in ("Ann", "Bea"))
        table, _ = create(ann, "caprice", ["human", {"invite": "Bea"}], rated=True)
        assert bea.delete(f"/api/me/invitations/{table}").json() == {"table": table, "declined": True}
        assert bea.delete(f"/api/me/invitations/{table}").status_code == 404
        assert bea.delete("/api/me/invitations/nope").status_code == 404
        view = client.get(f"/api/tables/{table}").json()
        assert view["seats"][1]["invited"] is None and view["status"] == "waiting"
        cid = sign_up(person(client), "Cid")
        assert cid.post(f"/api/tables/{table}/join", json={}).status_code == 201


def test_blocks_are_listed_bounded_and_private(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.db'}", rate_limits=True, blocks_per_minute=4) as client:
        ann, bea = (sign_up(person(client), n) for n in ("Ann", "Bea"))
        assert client.put("/api/me/blocks/Bea").status_code == 401
        assert ann.put("/api/me/blocks/bea").json() == {"username": "Bea", "blocked": True}
        assert ann.put("/api/me/blocks/BEA").status_code == 200  # again: nothing changes
        assert [b["username"] for b in ann.get("/api/me/blocks").json()] == ["Bea"]
        assert bea.get("/api/me/blocks").json() == []  # Bea is not told
        assert ann.put("/api/me/blocks/nobody").status_code == 404
        assert ann.delete("/api/me/blocks/Bea").json() == {"username": "Bea", "blocked": False}
        past = ann.put("/api/me/blocks/Bea")
        assert past.status_code == 429 and "Retry-After" in past.headers
        assert ann.get("/api/me/blocks").json() == []
        assert bea.put("/api/me/blocks/bea").status_code == 422  # yourself
        assert bea.put("/api/me/blocks/" + "b" * 500).status_code == 404
        assert MAX_BLOCKS == 500


def test_a_blocked_players_chat_is_hidden_invitations_refused_and_quick_match_apart(db: str) -> None:
    with _app(db) as client:
        ann, bea, cid = (sign_up(person(client), n) for n in ("Ann", "Bea", "Cid"))
        table, _ = create(ann, "caprice", ["human", "open", "open"])
        for p in (bea, cid):
            assert p.post(f"/api/tables/{table}/join", json={}).status_code == 201
        with (
            ann.websocket_connect(f"/api/tables/{table}/ws") as wa,
            bea.websocket_connect(f"/api/tables/{table}/ws") as wb,
        ):
            next_of(wa), next_of(wb)
            assert bea.put("/api/me/blocks/Ann").status_code == 200  # at once, on the open connection too
            wa.send_json({"type": "chat", "text": "hello from Ann"})
            assert _message(wa, "chat")["text"] == "hello from Ann"  # Ann sees her own line
            with cid.websocket_connect(f"/api/tables/{table}/ws") as wc:
                next_of(wc)
                wc.send_json({"type": "chat", "text": "hello from Cid"})
                assert _message(wb, "chat")["text"] == "hello from Cid"  # Ann's line, sent first, was skipped
            with bea.websocket_connect(f"/api/tables/{table}/ws") as again:  # the history skips it too
                next_of(again)
                assert _message(again, "chat")["text"] == "hello from Cid"
            assert bea.delete("/api/me/blocks/Ann").status_code == 200
            wa.send_json({"type": "chat", "text": "Ann again"})
            assert _message(wb, "chat")["text"] == "Ann again"
        assert bea.put("/api/me/blocks/Ann").status_code == 200
        refused = ann.post("/api/tables", json={"game": "caprice", "seats": ["human", {"invite": "Bea"}]})
        assert refused.status_code == 409 and "does not take invitations" in refused.json()["detail"]
        hers = ann.post("/api/quickmatch", json={"game": "capitol", "players": 2}).json()["table"]
        other = bea.post("/api/quickmatch", json={"game": "capitol", "players": 2}).json()["table"]
        assert other != hers  # never seated together, whoever blocked
        assert cid.post("/api/quickmatch", json={"game": "capitol", "players": 2}).json()["table"] in (hers, other)


def test_an_invited_player_who_is_away_gets_one_e_mail_and_a_connected_one_none(tmp_path: Path) -> None:
    from meeple.server.notify import SmtpSettings
    from tests.server.mail import open_verification, smtp_server

    with smtp_server() as (inbox, port):
        mail = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        config = ServerConfig(
            db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, smtp=mail, site="https://games.example.org", **OPEN
        )
        with TestClient(create_app(config)) as client:
            ann = sign_up(person(client), "Ann")
            bea = sign_up(person(client), "Bea", email="bea@example.org")
            open_verification(bea, inbox)  # invitation e-mails go only to verified addresses (issue #44, item 5)
            cid = sign_up(person(client), "Cid", email="cid@example.org")
            open_verification(cid, inbox)
            mine, _ = create(cid, "caprice", ["human", "bot:random"])
            with cid.websocket_connect(f"/api/tables/{mine}/ws") as ws:  # Cid is at a table: told live, no e-mail
                next_of(ws)
                table, tokens = create(ann, "caprice", ["human", {"invite": "Bea"}, {"invite": "Cid"}])
                assert _message(ws, "invitation")["table"] == table
            (message,) = inbox.wait(1)
            assert message["To"] == "bea@example.org" and message["Subject"] == "Ann invites you to a table of Caprice"
            body = message.get_content()
            assert "https://games.example.org/me/tables?lang=en" in body
            assert tokens[0] not in body and table not in message["Subject"]
            assert bea.get("/api/me/invitations").json()[0]["table"] == table
            assert len(inbox.messages) == 1
