"""Connections and framing on a real ``meeple serve`` (issue 41, item 5), with both HTTP implementations uvicorn
may pick (httptools, h11).

Found from outside: with 1,024 file descriptors, 34 addresses x 32 sockets took them all and the server could no
longer open its database; served without a proxy, slow request bodies were held for ever and an 8 MiB header was
accepted. Here the server runs with a lowered ``RLIMIT_NOFILE``; every flood and wait is bounded in count and time.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from meeple.server.transport import RESERVED_FDS, connection_budget
from tests.server.helpers import ServerProcess, descriptors, http_json, seed_where

LIMIT = 256
"""The file descriptor limit of the servers under test (the issue's 1,024, scaled down)."""
IMPLEMENTATIONS = ["httptools", "h11"]


def test_the_connection_budget_keeps_descriptors_for_the_server() -> None:
    assert connection_budget(1024) == (1024 - RESERVED_FDS - 128, 128)
    assert connection_budget(65536) == (65536 - RESERVED_FDS - 2048, 2048)
    assert connection_budget(1024, asked=100) == (100, 128)
    with pytest.raises(ValueError, match="--max-connections is 1 to 768"):
        connection_budget(1024, asked=769)
    with pytest.raises(ValueError, match="raise it"):
        connection_budget(150)


def _raw(port: int, payload: bytes, timeout: float = 10) -> bytes:
    """Send ``payload`` on a new connection; what the server answered until it closed (b"" if it reset)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        try:
            conn.sendall(payload)
        except OSError:
            pass
        out = b""
        try:
            while chunk := conn.recv(65536):
                out += chunk
        except OSError:
            pass
        return out


def _serve(tmp_path: Path, http: str, *options: str, nofile: int | None = None) -> ServerProcess:
    return ServerProcess(
        f"sqlite:///{tmp_path / 's.db'}",
        log=tmp_path / "server.log",
        options=("--http", http, *options),
        nofile=nofile,
    ).start()


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_heads_and_bodies_are_bounded_in_size_and_time(tmp_path: Path, http: str) -> None:
    server = _serve(tmp_path, http, "--header-timeout", "2", "--body-timeout", "2", "--max-header-bytes", "16384")
    try:
        get = b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        assert _raw(server.port, get + b"X-Pad: " + b"a" * 12_000 + b"\r\n\r\n").startswith(b"HTTP/1.1 200")
        # one header past the bound, in one piece; many small headers past it; 32 MiB sent as fast as it goes
        assert _raw(server.port, get + b"X-Pad: " + b"a" * 20_000 + b"\r\n\r\n").startswith(b"HTTP/1.1 431")
        many = b"".join(b"X-H%d: %s\r\n" % (i, b"b" * 100) for i in range(200))
        assert _raw(server.port, get + many + b"\r\n").startswith(b"HTTP/1.1 431")
        sent = 0
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(get + b"X-Big: ")
            try:
                for _ in range(512):
                    conn.sendall(b"a" * 65536)
                    sent += 65536
            except OSError:
                pass
            answer = b""
            try:
                answer = conn.recv(100)
            except OSError:
                pass
        assert sent < 512 * 65536, "the server read a 32 MiB header to its end"
        assert answer in (b"",) or answer.startswith(b"HTTP/1.1 431")
        # a body that comes a byte every half second: 408 at the deadline, long before it would be complete
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
            conn.sendall(b"Content-Length: 100\r\n\r\n{")
            start = time.monotonic()
            answer = b""
            conn.settimeout(0.5)
            while time.monotonic() - start < 10 and not answer:
                try:
                    conn.sendall(b" ")
                    answer = conn.recv(200)
                except TimeoutError:
                    continue
                except OSError:
                    break
            waited = time.monotonic() - start
        assert answer.startswith(b"HTTP/1.1 408") and waited < 5, (answer, waited)
        # a GET announcing a body it never sends is answered, then not held past the deadline
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n")
            start = time.monotonic()
            while conn.recv(65536):
                pass
            assert time.monotonic() - start < 6
        # headers that never end are closed at their deadline
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
            start = time.monotonic()
            assert conn.recv(100) == b"" and time.monotonic() - start < 6
        assert http_json(f"{server.url}/api/games")
    finally:
        server.stop()


def _handshake(server: ServerProcess, table: str, address: str) -> tuple[socket.socket, int]:
    """A spectator's WebSocket handshake from ``address`` (``X-Forwarded-For``): the socket and the HTTP status."""
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    request = (
        f"GET /api/tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f"X-Forwarded-For: {address}\r\n\r\n"
    )
    try:
        conn.sendall(request.encode())
        line = conn.recv(64)
    except OSError:
        return conn, 0
    return conn, int(line.split()[1]) if line.startswith(b"HTTP/1.1 ") else 0


def _ws_url(server: ServerProcess, table: str, token: str | None = None) -> str:
    return f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws" + (f"?token={token}" if token else "")


def _move(ws: Any, move_id: str) -> int:
    """Play the first legal move once it is this seat's turn; the version its ``ack`` gives."""
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] == "state" and frame["legal_actions"]:
            code = frame["legal_actions"][0]["code"]
            ws.send(json.dumps({"type": "move", "version": frame["version"], "action": code, "move_id": move_id}))
            break
    while True:
        frame = json.loads(ws.recv(timeout=10))
        assert frame["type"] != "error", frame
        if frame["type"] == "ack":
            version: int = frame["version"]
            return version


@pytest.mark.parametrize("http", IMPLEMENTATIONS)
def test_a_socket_flood_from_many_addresses_leaves_the_server_its_descriptors(tmp_path: Path, http: str) -> None:
    server = _serve(tmp_path, http, "--forwarded-allow-ips", "127.0.0.1", "--allow-seed", nofile=LIMIT)
    cap, _backlog = connection_budget(LIMIT)
    assert server.proc is not None
    pid = server.proc.pid
    try:
        seed = seed_where("caprice", 2, 0)
        created = http_json(f"{server.url}/api/tables", {"game": "caprice", "seats": ["human", "human"], "seed": seed})
        table, token = created["table"], created["seats"][0]["token"]
        other = created["seats"][1]["token"]
        with connect(_ws_url(server, table, token), open_timeout=10) as player:
            before = descriptors(pid)
            flood, refused, peak = [], 0, before
            deadline = time.monotonic() + 60
            # 12 addresses x 32 WebSockets each (every address within its own quota), then 100 bare sockets
            for address in range(12):
                for _ in range(32):
                    if time.monotonic() > deadline:
                        break
                    conn, status = _handshake(server, table, f"203.0.113.{address + 1}")
                    if status == 101:
                        flood.append(conn)
                    else:
                        refused += status == 503
                        conn.close()
                    peak = max(peak, descriptors(pid))
            bare = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(100)]
            time.sleep(0.5)
            peak = max(peak, descriptors(pid))
            for s in bare:
                s.settimeout(2)
                try:
                    refused += s.recv(100).startswith(b"HTTP/1.1 503")
                except OSError:
                    pass
                s.close()
            print(
                f"{http}: {before} descriptors before the flood, at most {peak} during it (limit {LIMIT});"
                f" {len(flood)} WebSockets held, {refused} connections refused"
            )
            assert len(flood) <= cap and refused >= 100
            assert peak <= LIMIT - RESERVED_FDS // 2, f"{peak} descriptors open of {LIMIT}"
            # the server still has its database: the seat's move is committed and acknowledged meanwhile
            assert _move(player, "during-the-flood") >= 1
            for conn in flood:
                conn.close()
        # the flood gone, new connections are served again, and the table plays on
        time.sleep(1.0)
        with connect(_ws_url(server, table, other), open_timeout=10) as second:
            assert json.loads(second.recv(timeout=10))["type"] == "hello"
        assert http_json(f"{server.url}/api/tables/{table}")["version"] >= 1
        assert "Too many open files" not in (tmp_path / "server.log").read_text(errors="replace")
    finally:
        server.stop()
