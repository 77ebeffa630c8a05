"""Load on the game server: many live tables played by WebSocket clients making random legal moves, on loopback.

Run from the repository root (it starts ``meeple serve`` itself, and a throw-away PostgreSQL with ``--db postgres``)::

    python benchmarks/server_load.py --tables 500 --seconds 30            # SQLite
    python benchmarks/server_load.py --tables 500 --seconds 30 --db postgres

Every table has two human seats, each a client connection; a client answers each frame that offers it moves with a
random legal move at once (once its previous move is acknowledged). A finished table is replaced by a new one, so
the number of live tables stays constant. Reported: sustained moves/s, the latency from a move sent to its ``ack``
(p50, p99), and the CPU seconds of the server and of the load generator (both share this machine's cores).
Goal (issue "Play online"): >= 1,000 moves/s and p99 < 50 ms on SQLite with 500 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


class Load:
    def __init__(self, url: str, game: str, seconds: float) -> None:
        self.url = url
        self.ws_urls = [u.replace("http", "ws", 1) for u in url.split(",")]  # several processes: clients spread
        self.game = game
        self.seconds = seconds
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors = 0
        self.measuring = False
        self.stop = asyncio.Event()
        self.rng = random.Random(1)

    async def table(self, http: httpx.AsyncClient) -> None:
        """Create tables one after another for one slot until the run ends."""
        while not self.stop.is_set():
            r = await http.post("/api/tables", json={"game": self.game, "seats": ["human", "human"]})
            r.raise_for_status()
            data = r.json()
            seats = [self.seat(data["table"], s["token"]) for s in data["seats"]]
            await asyncio.gather(*seats)
            if self.measuring:
                self.games += 1

    async def seat(self, table: str, token: str) -> None:
        ws_url = self.ws_urls[self.rng.randrange(len(self.ws_urls))]
        async with connect(f"{ws_url}/api/tables/{table}/ws?token={token}", max_size=2**24) as ws:
            sent_at: float | None = None
            sent: dict[str, Any] = {}
            last: dict[str, Any] | None = None
            while not self.stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
                except TimeoutError:
                    continue
                if message["type"] == "error":
                    self.errors += 1
                    sent_at, sent = None, {}  # refused: choose again from the state that follows
                    continue
                if message["type"] == "ack" and sent_at is not None and message["move_id"] == sent["move_id"]:
                    if self.measuring:
                        self.latencies.append(time.perf_counter() - sent_at)
                        self.moves += 1
                    sent_at = None
                elif message["type"] == "state":
                    last = message
                else:
                    continue
                if last is None or last["status"] != "live":
                    if last is not None:
                        return
                    continue
                if last["legal_actions"] and sent_at is None and last["version"] > sent.get("version", -1):
                    action = self.rng.choice(last["legal_actions"])
                    move_id = f"{self.rng.getrandbits(40):x}"
                    sent = {"type": "move", "version": last["version"], "action": action["code"], "move_id": move_id}
                    await ws.send(json.dumps(sent))
                    sent_at = time.perf_counter()


def _cpu_seconds(pid: int) -> float:
    if not pid:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(url: str, pids: list[int], tables: int, game: str, seconds: float, warmup: float) -> dict[str, Any]:
    load = Load(url, game, seconds)
    first = url.split(",")[0]
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=first, timeout=60, limits=limits) as http:
        tasks = [asyncio.create_task(load.table(http)) for _ in range(tables)]
        await asyncio.sleep(warmup)
        server_cpu, client_cpu = sum(_cpu_seconds(p) for p in pids), time.process_time()
        load.measuring = True
        start = time.perf_counter()
        await asyncio.sleep(seconds)
        load.measuring = False
        elapsed = time.perf_counter() - start
        server_cpu, client_cpu = sum(_cpu_seconds(p) for p in pids) - server_cpu, time.process_time() - client_cpu
        load.stop.set()
        for task in tasks:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(load.latencies) or [float("nan")]
    return {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "moves_per_s": round(load.moves / elapsed, 1),
        "games_finished": load.games,
        "p50_ms": round(1000 * statistics.median(lat), 2),
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 2),
        "errors": load.errors,
        "server_cpu_s": round(server_cpu, 1),
        "client_cpu_s": round(client_cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--game", default="caprice")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="server processes (more than 1: PostgreSQL only)")
    parser.add_argument("--url", help="load a server already running here (e.g. under a profiler) instead")
    parser.add_argument("--pid", type=int, default=0, help="with --url: the server's process id (CPU seconds)")
    args = parser.parse_args()
    if args.url:
        result = asyncio.run(run(args.url, [args.pid], args.tables, args.game, args.seconds, args.warmup))
        print(json.dumps({"db": "given", "game": args.game, **result}))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: the test helpers
    from tests.server.helpers import ServerProcess, postgres

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        db = f"sqlite:///{tmp}/load.db"
        if args.db == "postgres":
            db = stack.enter_context(postgres(Path(tmp)))
        if args.processes > 1 and args.db != "postgres":
            parser.error("several server processes need --db postgres")
        servers = [ServerProcess(db, log=Path(tmp) / f"server{i}.log", workers=1) for i in range(args.processes)]
        try:
            for server in servers:
                server.start()
            pids = [server.proc.pid for server in servers if server.proc is not None]
            urls = ",".join(server.url for server in servers)
            result = asyncio.run(run(urls, pids, args.tables, args.game, args.seconds, args.warmup))
        finally:
            for server in servers:
                server.stop()
    print(json.dumps({"db": args.db, "processes": args.processes, "game": args.game, **result}))


if __name__ == "__main__":
    main()
