"""A ban and a password reset with two ``meeple serve`` processes on one PostgreSQL (issue #44, items 5 and 6).

Real processes, Debian's PostgreSQL started by the test: ``meeple admin ban`` closes the banned account's sockets on
both processes at once (the ``revoke:`` notifications), its sessions end on both, and its waiting seat opens again
for a player of the other process; a reset link made on one process is used on the other and ends the sessions
opened on both.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner

from meeple.cli.app import app as cli
from tests.server.helpers import ServerProcess, postgres, seed_where

PASSWORD = "correct horse battery"


def _sign_up(url: str, username: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    r = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def _socket(url: str, table: str, session: str) -> Any:
    from websockets.sync.client import connect

    ws = connect(
        f"{url.replace('http', 'ws')}/api/tables/{table}/ws",
        additional_headers={"Cookie": f"meeple_session={session}"},
        open_timeout=10,
    )
    first = json.loads(ws.recv(timeout=10))
    assert first["type"] == "hello" and first["seat"] is not None
    return ws


def _closed_with(ws: Any, seconds: float) -> int | None:
    """The close code once the server closes ``ws`` within ``seconds`` (None if it stays open)."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            try:
                ws.recv(timeout=0.5)
            except TimeoutError:
                continue
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None
    return None


def test_a_ban_closes_the_accounts_sockets_on_both_processes(tmp_path: Path) -> None:
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log", workers=0).start()
        b = ServerProcess(db, log=tmp_path / "b.log", workers=0).start()
        try:
            ann, bob = _sign_up(a.url, "ann"), _sign_up(b.url, "bob")
            body = {"game": "caprice", "seats": ["human", "open"], "seed": seed_where("caprice", 2, 0)}
            table = bob.post("/api/tables", json=body).json()["table"]
            assert ann.post(f"/api/tables/{table}/join", json={}).status_code == 201  # a live table
            three = {"game": "citadels", "seats": ["human", "open", "open"]}
            waiting = bob.post("/api/tables", json=three).json()["table"]
            assert ann.post(f"/api/tables/{waiting}/join", json={}).json()["seat"] == 1
            session = ann.cookies["meeple_session"]
            on_a, on_b = _socket(a.url, table, session), _socket(b.url, table, session)
            out = CliRunner().invoke(cli, ["admin", "ban", "ann", "--db", db, "--as", "mod"])
            assert out.exit_code == 0, out.output
            assert _closed_with(on_a, 10) == 1008 and _closed_with(on_b, 10) == 1008
            for url in (a.url, b.url):
                with httpx.Client(base_url=url, cookies={"meeple_session": session}) as again:
                    assert again.get("/api/me").status_code == 401
                    login = again.post("/api/session", json={"username": "ann", "password": PASSWORD})
                    assert login.status_code == 403
            deadline = time.monotonic() + 10
            while [s["player"] for s in bob.get(f"/api/tables/{waiting}").json()["seats"]] != ["human", "open", "open"]:
                assert time.monotonic() < deadline, "the waiting seat did not open again"
                time.sleep(0.2)
            cid = _sign_up(a.url, "cid")
            assert cid.post(f"/api/tables/{waiting}/join", json={}).json()["seat"] == 1
        finally:
            a.stop()
            b.stop()


def test_a_reset_link_from_one_process_ends_the_sessions_of_both(tmp_path: Path) -> None:
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log", workers=0).start()
        b = ServerProcess(db, log=tmp_path / "b.log", workers=0).start()
        try:
            on_a = _sign_up(a.url, "dee")
            on_b = httpx.Client(base_url=b.url)
            assert on_b.post("/api/session", json={"username": "dee", "password": PASSWORD}).status_code == 200
            out = CliRunner().invoke(cli, ["admin", "reset-password", "dee", "--db", db, "--public-url", a.url])
            assert out.exit_code == 0, out.output
            token = out.output.strip().rsplit("/", 1)[1]
            with httpx.Client(base_url=b.url) as stranger:
                done = stranger.post(f"/api/password-reset/{token}", json={"password": "purple monkey dishwasher"})
                assert done.status_code == 200 and stranger.get("/api/me").json()["username"] == "dee"
            assert on_a.get("/api/me").status_code == 401 and on_b.get("/api/me").status_code == 401
            assert (
                httpx.post(f"{a.url}/api/password-reset/{token}", json={"password": PASSWORD + "!"}).status_code == 404
            )
        finally:
            a.stop()
            b.stop()
