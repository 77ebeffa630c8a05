"""Rematch, invitations and blocks with two ``meeple serve`` processes on one PostgreSQL (issue #44, "Done when").

Real processes, Debian's PostgreSQL started by the test: a two-player table ended by a resignation on one process;
its rematch offered on that process and accepted on the other, each finished table's connection (one on each
process) told by its ``rematch`` messages; an invitation made on one process reaches the invited account's
connection on the other; a block made on one process hides the blocked player's chat lines on the other.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.server.helpers import ServerProcess, postgres

PASSWORD = "people-who-come-back-twice"


def _call(method: str, url: str, body: dict[str, Any] | None = None, **headers: str) -> tuple[int, Any]:
    """An HTTP request with a JSON body; the status and the JSON answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data, {"Content-Type": "application/json", **headers}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _sign_up(url: str, name: str) -> str:
    """A new account's session cookie."""
    request = urllib.request.Request(
        f"{url}/api/accounts",
        json.dumps({"username": name, "password": PASSWORD}).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        cookies = answer.headers.get_all("set-cookie") or []
    return next(c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("meeple_session="))


def _until(ws: Any, kind: str, check: Any = None) -> dict[str, Any]:
    """The next message of type ``kind`` (that passes ``check``), within 30 s."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] == kind and (check is None or check(message)):
            return message


def _ws(server: ServerProcess, table: str, token: str | None = None, session: str | None = None) -> Any:
    from websockets.sync.client import connect

    query = f"?token={token}" if token else ""
    headers = {"Cookie": f"meeple_session={session}"} if session else None
    address = server.url.replace("http://", "ws://") + f"/api/tables/{table}/ws{query}"
    return connect(address, open_timeout=30, max_size=None, additional_headers=headers)


def test_a_rematch_offered_on_one_process_is_accepted_on_the_other(tmp_path: Path) -> None:
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            status, made = _call("POST", f"{a.url}/api/tables", {"game": "caprice", "seats": ["human", "human"]})
            assert status == 201
            table = made["table"]
            tokens = {s["seat"]: s["token"] for s in made["seats"]}
            with _ws(a, table, tokens[1]) as on_a, _ws(b, table, tokens[0]) as on_b:
                _until(on_a, "state"), _until(on_b, "state")
                resigned = _call("POST", f"{b.url}/api/tables/{table}/resign", Authorization=f"Bearer {tokens[0]}")
                assert resigned == (200, {"table": table, "seat": 0, "status": "finished"})
                assert _until(on_a, "state", lambda m: m["status"] != "live")["ended"] == "resigned"
                status, offer = _call(
                    "POST", f"{b.url}/api/tables/{table}/rematch", Authorization=f"Bearer {tokens[0]}"
                )
                assert status == 201 and offer["seat"] == 1
                told = _until(on_a, "rematch")  # the other process's connection is told at once
                assert (told["table"], told["status"], told["accepted"], told["waiting_for"]) == (
                    offer["table"],
                    "waiting",
                    [0],
                    [1],
                )
                status, accept = _call(
                    "POST", f"{a.url}/api/tables/{table}/rematch", Authorization=f"Bearer {tokens[1]}"
                )
                assert status == 200 and accept == {"table": offer["table"], "seat": 0, "token": accept["token"]}
                for ws in (on_a, on_b):  # both processes' connections hear that it started
                    assert _until(ws, "rematch", lambda m: m["status"] == "live")["accepted"] == [0, 1]
            for server in (a, b):
                assert _call("GET", f"{server.url}/api/tables/{offer['table']}")[1]["status"] == "live"
            again = _call("POST", f"{b.url}/api/tables/{table}/rematch", Authorization=f"Bearer {tokens[1]}")
            assert again[0] == 409
        finally:
            a.stop()
            b.stop()


def test_an_invitation_and_a_block_reach_the_other_process(tmp_path: Path) -> None:
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            ann, bea = _sign_up(a.url, "Ann"), _sign_up(b.url, "Bea")
            status, made = _call(
                "POST",
                f"{a.url}/api/tables",
                {"game": "caprice", "seats": ["human", "open", "open"]},
                Cookie=f"meeple_session={ann}",
            )
            table = made["table"]
            joined = _call("POST", f"{b.url}/api/tables/{table}/join", {}, Cookie=f"meeple_session={bea}")
            assert joined[0] == 201
            with _ws(b, table, session=bea) as hers, _ws(a, table, session=ann) as his:
                _until(hers, "state"), _until(his, "state")
                invited = _call(
                    "POST",
                    f"{a.url}/api/tables",
                    {"game": "caprice", "seats": ["human", {"invite": "Bea"}]},
                    Cookie=f"meeple_session={ann}",
                )
                assert invited[0] == 201
                told = _until(hers, "invitation")  # made on process A, told on process B
                assert told == {"type": "invitation", "table": invited[1]["table"], "game": "caprice", "by": "Ann"}
                assert _call("PUT", f"{a.url}/api/me/blocks/Ann", Cookie=f"meeple_session={bea}")[0] == 200
                time.sleep(1)  # the other process hears of it by a notification
                his.send(json.dumps({"type": "chat", "text": "hidden from Bea"}))
                assert _until(his, "chat")["text"] == "hidden from Bea"
                assert _call("DELETE", f"{a.url}/api/me/blocks/Ann", Cookie=f"meeple_session={bea}")[0] == 200
                his.send(json.dumps({"type": "chat", "text": "seen by Bea"}))
                assert _until(hers, "chat")["text"] == "seen by Bea"  # the first line she gets: the other was hidden
        finally:
            a.stop()
            b.stop()
