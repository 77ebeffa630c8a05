"""Friends, presence, results and the lobby's filters with two ``meeple serve`` processes on one PostgreSQL (issue #44,
items 3 and 7): a friend's presence — a page view or a live connection served by the other process — is seen from
this one; a rated game played across both processes fills the same ranks, statistics and rating history in both;
the lobby's filters answer alike.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from sqlalchemy import update

from meeple.server.db import AccountRow, make_engine
from meeple.server.friends import ONLINE_SECONDS
from tests.server.helpers import RandomSeat, ServerProcess, postgres

PASSWORD = "correct horse battery"


def _call(method: str, url: str, body: Any = None, session: str | None = None) -> tuple[int, Any, str | None]:
    """An HTTP request with JSON; the status, the JSON answer and the session cookie the answer sets (if any)."""
    headers = {"Content-Type": "application/json"}
    if session:
        headers["Cookie"] = f"meeple_session={session}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, text, cookies = answer.status, answer.read(), answer.headers.get_all("set-cookie") or []
    except urllib.error.HTTPError as exc:
        status, text, cookies = exc.code, exc.read(), []
    found = next((c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("meeple_session=")), None)
    return status, json.loads(text), found


def _sign_up(server: ServerProcess, name: str) -> str:
    status, _body, session = _call("POST", f"{server.url}/api/accounts", {"username": name, "password": PASSWORD})
    assert status == 201 and session is not None
    return session


def test_a_friends_presence_and_results_are_seen_from_the_other_process(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        engine = make_engine(db, pool_size=1)
        try:
            ann, bea, cid = _sign_up(a, "Ann"), _sign_up(b, "Bea"), _sign_up(a, "Cid")

            def friends() -> list[dict[str, Any]]:
                status, body, _ = _call("GET", f"{a.url}/api/me/friends", session=ann)
                assert status == 200, body
                return list(body)

            def age(name: str) -> None:
                with engine.begin() as s:
                    old = time.time() - ONLINE_SECONDS - 60
                    s.execute(update(AccountRow).where(AccountRow.username == name).values(seen_at=old))

            assert _call("PUT", f"{a.url}/api/me/friends/bea", session=ann)[0] == 200
            age("Bea")
            assert friends()[0]["online"] is False
            assert _call("GET", f"{b.url}/api/me", session=bea)[0] == 200  # a page view on process B
            assert friends()[0]["online"] is True  # seen from process A
            status, seat, _ = _call(
                "POST", f"{b.url}/api/quickmatch", {"game": "caprice", "players": 2, "rated": True}, bea
            )
            assert status == 201, seat
            status, other, _ = _call(
                "POST", f"{a.url}/api/quickmatch", {"game": "caprice", "players": 2, "rated": True}, cid
            )
            assert status == 201 and other["table"] == seat["table"], other
            table = seat["table"]
            ws_url = b.url.replace("http", "ws", 1) + f"/api/tables/{table}/ws"
            with connect(
                ws_url, additional_headers={"Cookie": f"meeple_session={bea}"}
            ) as ws:  # a live connection on B
                assert json.loads(ws.recv())["seat"] is not None
                age("Bea")  # the handshake was a view too: only the connection counts from here
                deadline = time.monotonic() + 20
                while not friends()[0]["online"]:
                    assert time.monotonic() < deadline, "process A never saw Bea's connection on process B"
                    time.sleep(0.3)
                assert friends()[0]["table"] == {"table": table, "game": "caprice"}
                assert _call("PUT", f"{b.url}/api/me/presence", {"hide_table": True}, bea)[0] == 200
                assert friends()[0]["table"] is None  # hidden, on the other process at once
                age("Bea")
            deadline = time.monotonic() + 20
            while friends()[0]["online"]:  # the socket closed: its presence row is zeroed by process B
                assert time.monotonic() < deadline, "Bea stayed online after her connection closed"
                time.sleep(0.3)

            players = [
                RandomSeat(b.url, table, seat["token"], 1, give_up=30.0),
                RandomSeat(a.url, table, other["token"], 2, give_up=30.0),
            ]
            for p in players:
                p.start()
            for p in players:
                assert p.finished.wait(180), "the rated game did not end"
                p.stop.set()
            profiles = [_call("GET", f"{server.url}/api/players/Bea")[1] for server in (a, b)]
            assert profiles[0]["stats"] == profiles[1]["stats"]
            stats = profiles[0]["stats"]["caprice"]
            assert stats["games"] == stats["ranked"] == 1 and len(stats["history"]) == 1
            assert profiles[0]["games"][0]["rank"] == stats["history"][0]["rank"] in (1, 2)
            for server in (a, b):
                listed = _call("GET", f"{server.url}/api/tables?game=caprice&players=2&rated=true")[1]
                assert [t["table"] for t in listed] == [table]
                assert _call("GET", f"{server.url}/api/tables?game=caprice&players=3")[1] == []
        finally:
            engine.dispose()
            a.stop()
            b.stop()
