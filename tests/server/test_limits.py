"""The server's defaults on the open internet: each finding of the audit replayed (loopback, bounded) and refused.

Issue "Safe on the open internet": seat allow-list, bot caps, quotas, sizes, flow control, expiry, headers, Origin
checks, the token cookie, clean processes. The app tests run the default configuration (quotas on); the process
tests start ``meeple serve`` for real.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from meeple.server.app import ServerConfig
from meeple.server.hub import Connection
from meeple.server.policy import SeatPolicy
from meeple.server.quotas import Quotas
from meeple.web import create_web_app
from tests.server.conftest import OWN_ORIGIN
from tests.server.helpers import ServerProcess, http_json

ALLOWED = "human, open, bot:random, bot:easy, bot:medium, bot:hard"


def _app(tmp_path: Path, **config: Any) -> TestClient:
    """The default configuration (or ``config``), its own address the test client's, as ``meeple serve``'s is."""
    settings = {"origins": OWN_ORIGIN, **config}
    return TestClient(create_web_app(ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, **settings)))


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """The default configuration: allow-list, quotas and sizes as ``meeple serve`` starts."""
    with _app(tmp_path) as client:
        yield client


def _table(client: TestClient, seats: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "caprice", "seats": seats or ["human", "bot:random"], **extra})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


# ---------------------------------------------------------------------------------------------- 1. seat specs
@pytest.mark.parametrize(
    "seats",
    [
        ["human", "bot:ismcts:time=inf"],
        ["human", "bot:ismcts:60:workers=6"],
        ["human", "bot:hard:anything"],
        ["human", "bot:random:" + "x" * 5000],
        ["human", "robot"],
    ],
)
def test_a_seat_outside_the_allow_list_is_refused_naming_the_allowed_values(strict: TestClient, seats: list) -> None:
    r = strict.post("/api/tables", json={"game": "caprice", "seats": seats})
    assert r.status_code == 422
    assert len(r.text) < 600, "the error quotes the input at length"
    assert ALLOWED in r.text or "at most 64 characters" in r.text
    assert strict.get("/api/tables").json() == []


def test_the_substitute_and_bot_only_tables_are_refused_by_default(strict: TestClient) -> None:
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"], "substitute": "ismcts:9"})
    assert r.status_code == 422 and "substitute" in r.text and "random, easy, medium, hard" in r.text
    r = strict.post("/api/tables", json={"game": "citadels", "seats": ["bot:hard"] * 7})
    assert r.status_code == 422 and "human" in r.text
    assert strict.get("/api/tables").json() == []


def test_allow_bot_specs_still_bounds_the_search(tmp_path: Path) -> None:
    policy = SeatPolicy(any_bot=True, move_seconds=5)
    with _app(tmp_path, policy=policy) as client:
        for spec, words in [
            ("ismcts:time=inf", "a finite number"),
            ("ismcts:time=60", "time=5"),
            ("ismcts:60:workers=6", "one worker"),
            ("ismcts:999999", "20000"),
            ("ismcts:" + "9" * 70, "64 characters"),
        ]:
            r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", f"bot:{spec}"]})
            assert r.status_code == 422 and words in r.text, (spec, r.text)
        assert (
            client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:ismcts:50"]}).status_code == 201
        )


def test_allow_bot_specs_refuses_malformed_specs_as_the_cli_does(tmp_path: Path) -> None:
    """Issue 41, item 15: ``bot:hard:junk`` and ``ismcts:c=nan`` were accepted with --allow-bot-specs. Every spec the
    bots' parser refuses (tests/bots/test_specs.py) is refused as a seat and as the substitute, with its words."""
    from tests.bots.test_specs import BAD_SPECS

    open_policy = {"policy": SeatPolicy(any_bot=True, move_seconds=5), "quotas": Quotas(rate_limits=False)}
    with _app(tmp_path, **open_policy) as client:
        for spec, words in BAD_SPECS:
            seat = client.post("/api/tables", json={"game": "caprice", "seats": ["human", f"bot:{spec}"]})
            assert seat.status_code == 422 and words in seat.text and "seats[1]" in seat.text, (spec, seat.text)
            body = {"game": "caprice", "seats": ["human", "human"], "substitute": spec}
            substitute = client.post("/api/tables", json=body)
            assert substitute.status_code == 422 and words in substitute.text, (spec, substitute.text)
        assert client.get("/api/tables").json() == []


# ---------------------------------------------------------------------------------------------- 3. quotas
def test_tables_per_minute_answer_429_with_retry_after(strict: TestClient) -> None:
    for _ in range(10):
        _table(strict)
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and "a minute" in r.text
    assert len(strict.get("/api/tables").json()) == 3  # the lobby shows the newest three of one address


def test_live_tables_per_address_and_in_all(tmp_path: Path) -> None:
    with _app(tmp_path, quotas=Quotas(tables_per_minute=100, tables_per_address=3, max_tables=5)) as client:
        for _ in range(3):
            _table(client)
        r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]})
        assert r.status_code == 429 and "live tables" in r.text and "retry-after" in r.headers
    with _app(tmp_path, quotas=Quotas(tables_per_minute=100, tables_per_address=100, max_tables=3)) as client:
        for _ in range(3):  # three started tables (their human came): the server is full (issue 41: unstarted
            made = _table(client)  # tables count apart, tests/server/test_unplayed.py)
            with client.websocket_connect(f"/api/tables/{made['table']}/ws?token={made['seats'][0]['token']}") as ws:
                ws.receive_json()
        r = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]})
        assert r.status_code == 429 and "full" in r.text


def test_wrong_tokens_are_throttled_per_address(strict: TestClient) -> None:
    table = _table(strict)
    token = table["seats"][0]["token"]
    for i in range(10):
        assert strict.get(f"/tables/{table['table']}?token=guess{i}", follow_redirects=False).status_code == 403
    r = strict.get(f"/tables/{table['table']}?token={token}", follow_redirects=False)
    assert r.status_code == 429 and "retry-after" in r.headers  # even the right one, until the window passes
    with strict.websocket_connect(f"/api/tables/{table['table']}/ws?token={token}") as ws:
        error = ws.receive_json()
        assert error["code"] == "bad_token" and "too many" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_websockets_per_address(tmp_path: Path) -> None:
    from starlette.testclient import WebSocketDenialResponse

    with _app(tmp_path, quotas=Quotas(sockets_per_address=3)) as client:
        table = _table(client)["table"]
        url = f"/api/tables/{table}/ws"
        with client.websocket_connect(url), client.websocket_connect(url), client.websocket_connect(url):
            with pytest.raises(WebSocketDenialResponse) as denied:
                with client.websocket_connect(url):
                    pass
            assert denied.value.status_code == 429 and "retry-after" in denied.value.headers
        with client.websocket_connect(url) as ws:  # the closed ones were counted out
            assert ws.receive_json()["type"] == "hello"


def test_messages_per_connection_close_with_1008(tmp_path: Path) -> None:
    with _app(tmp_path, quotas=Quotas(messages_per_minute=5)) as client:
        table = _table(client)["table"]
        with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
            ws.receive_json()
            ws.receive_json()
            for _ in range(6):
                ws.send_json({"type": "sync"})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 1008


# ---------------------------------------------------------------------------------------------- 4. sizes
def test_request_bodies_are_bounded(strict: TestClient) -> None:
    big = {"game": "caprice", "seats": ["human", "bot:random"], "params": {f"k{i}": 1 for i in range(200_000)}}
    r = strict.post("/api/tables", json=big)
    assert r.status_code == 413 and len(r.text) < 200

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"game": "caprice", "seats": ["human"], "x": "'
        for _ in range(40):
            yield b"y" * 1024
        yield b'"}'

    r = strict.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_params_are_bounded_and_errors_do_not_echo_the_input(strict: TestClient) -> None:
    many = {f"key{i}": i for i in range(20)}
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"], "params": many})
    assert r.status_code == 422 and "16" in r.text and "key19" not in r.text
    long_value = "v" * 3000
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human"], "params": {"deck": long_value}})
    assert r.status_code == 422 and long_value[:100] not in r.text and len(r.text) < 1000


def test_websocket_messages_are_bounded(strict: TestClient) -> None:
    table = _table(strict)["table"]
    with strict.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_text(json.dumps({"type": "sync", "pad": "x" * 5000}))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009


# ---------------------------------------------------------------------------------------------- 5. flow control
def test_a_connection_keeps_only_the_newest_state_frame_with_every_log_line() -> None:
    async def run() -> Connection:
        conn = Connection(None, 0)
        for i in range(150):
            conn.send({"type": "state", "version": i, "log": [[0, f"line {i}"]], "log_start": i})
        conn.send({"type": "error", "code": "stale_version", "message": "x"})
        return conn

    conn = asyncio.run(run())
    assert conn.frame is not None and conn.frame["version"] == 149 and conn.frame_after == 0
    assert conn.frame["log_start"] == 0 and [t for _, t in conn.frame["log"]] == [f"line {i}" for i in range(150)]
    assert len(conn.pending) == 1


def test_messages_go_out_in_their_order_a_merged_frame_at_its_first_place() -> None:
    sent: list[str] = []

    class Sender:
        async def send_text(self, text: str) -> None:
            sent.append(json.loads(text)["type"] + str(json.loads(text).get("version", "")))

    async def run() -> None:
        conn = Connection(Sender(), 0)
        conn.send({"type": "error", "code": "x", "message": "m"})
        conn.send({"type": "state", "version": 1, "log": [], "log_start": 0})
        conn.send({"type": "ack", "move_id": "a", "version": 2})
        conn.send({"type": "state", "version": 2, "log": [], "log_start": 0})
        conn.start()
        conn.close()
        assert conn.writer is not None
        await conn.writer

    asyncio.run(run())
    assert sent == ["error", "state2", "ack2"]


def test_a_client_that_stops_reading_is_dropped_after_send_seconds() -> None:
    from types import SimpleNamespace

    from meeple.server.hub import Hub

    class Stalled:  # a socket whose send never completes: the client reads nothing
        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    async def run() -> tuple[int, int, bool]:
        conn = Connection(Stalled(), 0, send_seconds=0.2)
        conn.reader = asyncio.get_running_loop().create_task(asyncio.Event().wait())  # what _serve's task would be
        conn.start()
        conn.send({"type": "state", "version": 1, "log": [], "log_start": 0})
        table = SimpleNamespace(conns={conn})
        service = SimpleNamespace(tables={"t": table}, on_change=None)
        hub = Hub(service)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        early = hub.drop_stuck()
        await asyncio.sleep(0.3)
        late = hub.drop_stuck()
        await asyncio.sleep(0)
        return early, late, conn.reader.cancelled()

    assert asyncio.run(run()) == (0, 1, True)


# ---------------------------------------------------------------------------------------------- 6. expiry
def test_an_idle_table_ends_as_abandoned_and_leaves_memory(tmp_path: Path) -> None:
    with _app(tmp_path) as client:
        created = _table(client, ["human", "human"])
        table, token = created["table"], created["seats"][0]["token"]
        service = client.app.state.meeple["service"]  # type: ignore[attr-defined]
        assert service.expire_idle() == []
        clock = time.time() + 15 * 86_400
        service.now = lambda: clock
        assert service.expire_idle() == [table]
        with client.websocket_connect(f"/api/tables/{table}/ws?token={token}") as ws:
            ws.receive_json()
            state = ws.receive_json()
            assert state["status"] == "abandoned" and state["legal_actions"] == []
            ws.send_json({"type": "move", "version": 0, "action": 0, "move_id": "late"})
            assert ws.receive_json()["code"] == "game_over"
        assert client.get(f"/api/tables/{table}/record").status_code == 200  # the game is over: no secret left
        assert table not in service.tables or service.evict_unused() == [table]
        assert table not in service.tables


def test_the_lobby_shows_each_address_its_share_and_pages_back(tmp_path: Path) -> None:
    with _app(tmp_path, quotas=Quotas(tables_per_minute=100)) as client:
        service = client.app.state.meeple["service"]  # type: ignore[attr-defined]
        from meeple.server.protocol import CreateTable

        quiet = service.create(CreateTable(game="caprice", seats=["human", "bot:random"]), "192.0.2.7")[0]
        flood = [_table(client)["table"] for _ in range(12)]
        listed = [t["table"] for t in client.get("/api/tables").json()]
        assert quiet in listed and len(listed) == 4 and set(listed) - {quiet} <= set(flood[-3:])
        page = client.get("/api/tables", params={"limit": 2}).json()
        older = client.get("/api/tables", params={"limit": 2, "before": page[-1]["created"]}).json()
        assert {t["table"] for t in page}.isdisjoint(t["table"] for t in older)


# ---------------------------------------------------------------------------------------------- 7-9. the web
def test_every_answer_carries_the_security_headers(strict: TestClient) -> None:
    created = _table(strict)
    for path in ["/", "/api/games", f"/tables/{created['table']}", "/static/app.js"]:
        r = strict.get(path)
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "base-uri 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
        assert ("no-store" in r.headers.get("cache-control", "")) == (not path.startswith("/static"))
        assert "strict-transport-security" not in r.headers
    assert "max-age" in strict.get("https://testserver/").headers["strict-transport-security"]
    assert strict.get("/docs").status_code == 404 and strict.get("/openapi.json").status_code == 404


def test_pages_have_no_inline_script_or_handler(strict: TestClient) -> None:
    import re

    created = _table(strict)
    for path in ["/", f"/tables/{created['table']}"]:
        html = strict.get(path).text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), path
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert "style=" not in html, path


def test_a_foreign_origin_cannot_move_for_a_seat_or_create_tables(strict: TestClient) -> None:
    created = _table(strict)
    table, token = created["table"], created["seats"][0]["token"]
    evil = {"origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect) as refused:
        with strict.websocket_connect(f"/api/tables/{table}/ws?token={token}", headers=evil):
            pass
    assert refused.value.code == 1008  # before accept: uvicorn answers HTTP 403
    r = strict.post("/tables", data={"game": "caprice"}, headers=evil)
    assert r.status_code == 403
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}, headers={"origin": "null"})
    assert r.status_code == 403
    null_cross = {"origin": "null", "sec-fetch-site": "cross-site"}  # a sandboxed frame of another site
    assert strict.post("/tables", data={"game": "caprice"}, headers=null_cross).status_code == 403
    assert strict.post("/tables", data={"game": "caprice"}, headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert len(strict.get("/api/tables").json()) == 1
    own = {"origin": "http://testserver"}
    with strict.websocket_connect(f"/api/tables/{table}/ws?token={token}", headers=own) as ws:
        assert ws.receive_json()["seat"] == 0
    assert strict.post("/tables", data={"game": "caprice"}, headers=own).status_code == 200
    # our own page's form under Referrer-Policy: no-referrer: a browser sends Origin: null, and says same-origin
    null_own = {"origin": "null", "sec-fetch-site": "same-origin"}
    assert strict.post("/tables", data={"game": "caprice"}, headers=null_own).status_code == 200


def test_the_token_leaves_the_url_for_a_cookie_and_can_be_rotated(strict: TestClient) -> None:
    created = _table(strict, ["human", "human"])
    table, token = created["table"], created["seats"][1]["token"]
    r = strict.get(f"/tables/{table}?token={token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{table}"
    cookie = r.headers["set-cookie"]
    assert f"meeple_seat_{table}={token}" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    page = strict.get(f"/tables/{table}")  # the test client keeps the cookie
    assert 'class="me"' in page.text and token not in page.text
    with strict.websocket_connect(f"/api/tables/{table}/ws") as ws:  # the page's WebSocket: by the cookie
        assert ws.receive_json()["seat"] == 1
    rotated = strict.post(f"/api/tables/{table}/token", headers={"authorization": f"Bearer {token}"})
    assert rotated.status_code == 200 and rotated.json()["seat"] == 1 and rotated.json()["token"] != token
    strict.cookies.clear()
    assert strict.get(f"/tables/{table}?token={token}", follow_redirects=False).status_code == 403
    with strict.websocket_connect(f"/api/tables/{table}/ws?token={token}") as ws:
        assert ws.receive_json()["code"] == "bad_token"
    new = rotated.json()["token"]
    assert strict.get(f"/tables/{table}?token={new}", follow_redirects=False).status_code == 303


# ---------------------------------------------------------------------------------------------- real processes
def _children(pid: int) -> set[int]:
    """Every process whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def _wait(condition: Any, seconds: float, what: str) -> float:
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, f"{what} after {seconds} s"
        time.sleep(0.1)
    return time.monotonic() - start


def test_a_search_past_the_cap_is_stopped_and_other_tables_move_on(tmp_path: Path) -> None:
    options = ("--allow-bot-specs", "--allow-bot-tables", "--no-rate-limits", "--bot-move-seconds", "0.25")
    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", log=log, options=options).start()
    try:
        slow = {"game": "capitol", "seats": ["bot:ismcts:20000:rollout=heuristic"] * 3, "seed": 1}
        slow_table = http_json(f"{server.url}/api/tables", slow)["table"]
        quick = {"game": "caprice", "seats": ["bot:random", "bot:random"], "seed": 2}
        quick_table = http_json(f"{server.url}/api/tables", quick)["table"]
        # the quick table's random moves never wait behind the search (played in a thread while the one worker is
        # busy), and the slow table's capped searches go on
        _wait(lambda: http_json(f"{server.url}/api/tables/{quick_table}")["version"] >= 20, 120, "no progress")
        _wait(lambda: http_json(f"{server.url}/api/tables/{slow_table}")["version"] >= 2, 60, "no capped move")
        assert "passed 0.25 s" in log.read_text() and "the medium bot plays this move" in log.read_text()
        workers = _children(server.proc.pid)  # type: ignore[union-attr]
        assert workers, "no bot worker process"
        os.kill(server.proc.pid, signal.SIGKILL)  # type: ignore[union-attr]
        waited = _wait(lambda: not _alive(workers), 10, "bot workers outlived their server")
        print(f"workers gone {waited:.1f} s after the server's SIGKILL")
        server.kill()
        # the slow table comes back with the restarted server, under the same cap
        again = tmp_path / "again.log"
        server = ServerProcess(server.db, log=again, options=options).start()
        version = http_json(f"{server.url}/api/tables/{slow_table}")["version"]
        _wait(lambda: http_json(f"{server.url}/api/tables/{slow_table}")["version"] > version, 30, "no move")
        _wait(lambda: "passed 0.25 s" in again.read_text(), 30, "no capped move after the restart")
    finally:
        server.kill()


def test_sigterm_stops_searches_and_every_process_within_ten_seconds(tmp_path: Path) -> None:
    options = ("--allow-bot-specs", "--allow-bot-tables", "--no-rate-limits", "--bot-move-seconds", "60")
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=options, workers=2).start()
    try:
        busy = {"game": "capitol", "seats": ["bot:ismcts:20000:rollout=heuristic"] * 3, "seed": 1}
        http_json(f"{server.url}/api/tables", busy)
        assert server.proc is not None
        _wait(lambda: len(_children(server.proc.pid)) >= 2, 30, "no bot workers")  # type: ignore[union-attr]
        time.sleep(1.0)  # a search is under way
        family = _children(server.proc.pid) | {server.proc.pid}
        server.proc.terminate()
        waited = _wait(lambda: not _alive(family), 10, "processes left after SIGTERM")
        print(f"every process gone {waited:.1f} s after SIGTERM")
    finally:
        server.kill()


def test_a_real_server_has_no_banner_and_bounds_slow_clients_and_connections(tmp_path: Path) -> None:
    options = ("--header-timeout", "2", "--max-sockets-per-address", "8")
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=options).start()
    try:
        with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as answer:
            assert answer.headers.get("server") is None
        # slowloris: 100 sockets that never finish their headers are closed at the deadline; others are served
        slow = []
        for _ in range(100):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            slow.append(s)
        with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as answer:
            assert answer.status == 200
        time.sleep(2.5)
        closed = 0
        for s in slow:
            s.settimeout(5)
            try:
                closed += s.recv(1) == b""
            except OSError:
                closed += 1
            s.close()
        assert closed == 100
        # WebSockets per address, on a real server (uvicorn answers the refused handshake 429)
        from websockets.sync.client import connect

        table = _create_for_real(server)
        ws_url = f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws"
        with contextlib.ExitStack() as stack:
            held = [stack.enter_context(connect(ws_url)) for _ in range(8)]
            with pytest.raises(InvalidStatus) as refused:
                stack.enter_context(connect(ws_url))
            assert refused.value.response.status_code == 429
            # a message over 4 KiB closes the connection with 1009 before it is read whole
            held[0].send(json.dumps({"type": "sync", "pad": "x" * 100_000}))
            deadline = time.monotonic() + 10
            with pytest.raises(ConnectionClosed):
                while time.monotonic() < deadline:
                    held[0].recv(timeout=5)
            assert held[0].close_code == 1009
    finally:
        server.stop()


def test_a_client_that_never_reads_costs_bounded_memory(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=("--no-rate-limits",)).start()
    try:
        table = _create_for_real(server, game="citadels", seats=["human", "bot:random", "bot:random", "bot:random"])
        assert server.proc is not None
        status = Path(f"/proc/{server.proc.pid}/status")

        def rss() -> int:
            line = next(row for row in status.read_text().splitlines() if row.startswith("VmRSS"))
            return int(line.split()[1])

        raw = socket.create_connection(("127.0.0.1", server.port))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        raw.sendall(
            f"GET /api/tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        before = rss()
        sync = _masked(b'{"type":"sync"}')
        for _ in range(1500):
            raw.sendall(sync)
        time.sleep(2)
        grown = rss() - before
        raw.close()
        assert grown < 50_000, f"the server grew by {grown} kB for a client that reads nothing"
        with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as answer:
            assert answer.status == 200
    finally:
        server.stop()


def _masked(payload: bytes) -> bytes:
    """One client text frame (masked, as a client must send it)."""
    mask = b"\x01\x02\x03\x04"
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def _create_for_real(server: ServerProcess, game: str = "caprice", seats: list[str] | None = None) -> str:
    body = {"game": game, "seats": seats or ["human", "bot:random"]}
    table: str = http_json(f"{server.url}/api/tables", body)["table"]
    return table


def test_a_cross_site_form_cannot_create_a_table_on_a_real_server(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=()).start()
    try:
        request = urllib.request.Request(
            f"{server.url}/tables",
            data=b"game=caprice",
            headers={"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403
        assert http_json(f"{server.url}/api/tables") == []
    finally:
        server.stop()
