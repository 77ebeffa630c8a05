"""File descriptors under a socket flood (issue 41, item 5), measured as the issue did, on loopback.

Run: ``python benchmarks/descriptors.py [--limit 1024] [--addresses 34] [--sockets 32] [--src OTHER/src]``.

It starts ``meeple serve`` (with ``--src``, another source tree: main before the fix) with ``RLIMIT_NOFILE`` lowered
to ``--limit`` and ``--forwarded-allow-ips 127.0.0.1``, seats a player at a table, then opens ``--addresses`` x
``--sockets`` WebSocket handshakes, each address its own ``X-Forwarded-For`` (documentation addresses, 203.0.113.0/24:
only loopback is reached). It prints the server's open descriptors before and at the peak of the flood, how many
connections were held and refused, whether the seated player's move was still committed and acknowledged, whether a
new table could be created while the flood held its sockets, and the server log's "Too many open files" lines.
Every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import time
import urllib.error
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import ServerProcess, descriptors, http_json, seed_where  # noqa: E402


def handshake(port: int, table: str, address: str) -> tuple[socket.socket | None, int]:
    """A spectator's WebSocket handshake from ``address``: the socket (if any) and the HTTP status (0: none)."""
    try:
        conn = socket.create_connection(("127.0.0.1", port), timeout=3)
    except OSError:
        return None, 0
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


def move(ws: Any) -> str:
    """Play one move on the seat's open WebSocket ``ws``; ``acked`` or what went wrong (bounded: 15 s)."""
    try:
        if True:
            while True:
                frame = json.loads(ws.recv(timeout=15))
                if frame["type"] == "state" and frame["legal_actions"]:
                    code = frame["legal_actions"][0]["code"]
                    ws.send(json.dumps({"type": "move", "version": frame["version"], "action": code, "move_id": "m"}))
                    break
            while True:
                frame = json.loads(ws.recv(timeout=15))
                if frame["type"] in ("ack", "error"):
                    return "acked" if frame["type"] == "ack" else f"error {frame.get('code')}"
    except Exception as exc:  # noqa: BLE001 - the measure reports any failure
        return f"failed: {type(exc).__name__}"


def new_table(server: ServerProcess) -> str:
    """Create a table over a new connection: ``created`` or what went wrong (bounded: 15 s)."""
    try:
        http_json(f"{server.url}/api/tables", {"game": "caprice", "seats": ["human", "bot:random"]}, timeout=15)
        return "created"
    except (OSError, urllib.error.HTTPError) as exc:
        return f"failed: {exc}"


def main() -> None:
    from websockets.sync.client import connect

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=1024)
    parser.add_argument("--addresses", type=int, default=34)
    parser.add_argument("--sockets", type=int, default=32)
    parser.add_argument("--src", type=Path, default=None, help="another source tree to measure (its src/ folder)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    server = ServerProcess(
        f"sqlite:///{folder / 's.db'}",
        log=folder / "server.log",
        options=("--forwarded-allow-ips", "127.0.0.1"),
        src=args.src,
        nofile=args.limit,
    ).start()
    assert server.proc is not None
    try:
        seed = seed_where("caprice", 2, 0)
        body = {"game": "caprice", "seats": ["human", "bot:random"], "seed": seed}
        created = http_json(f"{server.url}/api/tables", body)
        table, token = created["table"], created["seats"][0]["token"]
        player = connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws?token={token}", open_timeout=10)
        before = descriptors(server.proc.pid)
        held, statuses, peak = [], {}, before
        deadline = time.monotonic() + 120
        for address in range(args.addresses):
            for _ in range(args.sockets):
                if time.monotonic() > deadline:
                    break
                conn, status = handshake(server.port, table, f"203.0.113.{address % 250 + 1}")
                statuses[status] = statuses.get(status, 0) + 1
                if status == 101 and conn is not None:
                    held.append(conn)
                elif conn is not None:
                    conn.close()
                peak = max(peak, descriptors(server.proc.pid))
        played = move(player)
        create = new_table(server)
        for conn in held:
            conn.close()
        time.sleep(1)
        after = new_table(server)
        errors = (folder / "server.log").read_text(errors="replace").count("Too many open files")
        print(f"source: {args.src or 'this tree'}; RLIMIT_NOFILE {args.limit}")
        print(f"descriptors: {before} before the flood, {peak} at its peak")
        print(f"handshakes: {len(held)} held; answers {dict(sorted(statuses.items()))} (0: no answer)")
        print(f"the seated player's move over its open WebSocket during the flood: {played}")
        print(f"a new table (a new connection) during the flood: {create}; once the flood is gone: {after}")
        print(f'"Too many open files" in the server log: {errors} lines')
        player.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
