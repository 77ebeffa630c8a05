"""Load on the game server: many live tables played by WebSocket clients making random legal moves, on loopback.

Run from the repository root (it starts ``meeple serve`` itself, and a throw-away PostgreSQL with ``--db postgres``)::

    python benchmarks/server_load.py --tables 500 --seconds 30            # SQLite
    python benchmarks/server_load.py --tables 500 --seconds 30 --db postgres
    python benchmarks/server_load.py --tables 100 --seconds 30 --stagger 20 --rounds 3 \
        --before /tmp/base-83a9d5d/src                                     # an older tree and this one, alternated

With ``--before`` (repeatable) each round runs every tree once on a fresh server and database, in an order that
rotates from round to round; the figure is the server's CPU per acknowledged move (process CPU seconds, all its
threads, over the moves acknowledged in the window) and its ratio to each older tree within the round. An older
tree's server runs with the options of the test helpers that it knows (the quotas lifted where it has them).

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
import inspect
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parents[1] / "src"
"""This tree's sources: its servers run them (``PYTHONPATH``), whichever tree the environment installed."""


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

    async def table(self, http: httpx.AsyncClient, delay: float = 0.0) -> None:
        """Create tables one after another for one slot until the run ends, the first after ``delay`` seconds."""
        await asyncio.sleep(delay)
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
                if message["type"] == "state":
                    last = message
                elif message["type"] != "ack" or message.get("move_id") != sent.get("move_id"):
                    continue
                # acknowledged: its ``ack`` frame, or (a server older than the ack frame) the state that follows it
                if sent_at is not None and (message["type"] == "ack" or message["version"] > sent["version"]):
                    if self.measuring:
                        self.latencies.append(time.perf_counter() - sent_at)
                        self.moves += 1
                    sent_at = None
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


def _cpu_seconds(pid: int, system: bool = False) -> float:
    """The CPU seconds of process ``pid`` so far: user and system time (only system time if ``system``)."""
    if not pid:
        return float("nan")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    ticks = int(fields[12]) if system else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _thread_cpu(pid: int) -> dict[int, float]:
    """The CPU seconds of each thread of process ``pid`` so far (user and system), by thread id."""
    import os

    out: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            out[int(task.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


async def run(
    url: str, pids: list[int], tables: int, game: str, seconds: float, warmup: float, stagger: float = 0.0
) -> dict[str, Any]:
    """Load ``tables`` slots, their first tables spread over ``stagger`` seconds; measure ``seconds`` after ``warmup``.

    Staggered starts keep the tables' games out of step, so that every window sees as many games begin and end
    (creation, connections, the end's settling) per move; tables started together would end together, and a run's
    figure would depend on whether its window holds that burst.
    """
    load = Load(url, game, seconds)
    first = url.split(",")[0]
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=first, timeout=60, limits=limits) as http:
        tasks = [asyncio.create_task(load.table(http, stagger * i / tables)) for i in range(tables)]
        await asyncio.sleep(stagger + warmup)
        server_cpu, client_cpu = sum(_cpu_seconds(p) for p in pids), time.process_time()
        server_sys = sum(_cpu_seconds(p, system=True) for p in pids)
        loop_cpu = {p: _thread_cpu(p).get(p, 0.0) for p in pids if p}
        load.measuring = True
        start = time.perf_counter()
        await asyncio.sleep(seconds)
        load.measuring = False
        elapsed = time.perf_counter() - start
        server_cpu, client_cpu = sum(_cpu_seconds(p) for p in pids) - server_cpu, time.process_time() - client_cpu
        server_sys = sum(_cpu_seconds(p, system=True) for p in pids) - server_sys
        loop = sum(_thread_cpu(p).get(p, 0.0) - start for p, start in loop_cpu.items())
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
        "moves": load.moves,
        "server_cpu_s": round(server_cpu, 2),
        "server_system_s": round(server_sys, 2),
        "server_loop_thread_s": round(loop, 2),
        "client_cpu_s": round(client_cpu, 1),
    }


def _options(src: Path | None) -> tuple[str, ...]:
    """The test helpers' ``meeple serve`` options (limits lifted) that the tree at ``src`` (None: this one) knows."""
    from tests.server.helpers import ServerProcess

    root = src if src is not None else HERE
    known = (root / "meeple" / "cli" / "serve.py").read_text()
    quotas = root / "meeple" / "server" / "quotas.py"
    fields = quotas.read_text() if quotas.exists() else ""

    def knows(option: str) -> bool:  # written in serve.py, or (issue #42) generated from a field of Quotas
        field = option.removeprefix("--").removeprefix("no-").replace("-", "_")
        return f'"{option}"' in known or re.search(rf"^    {field}: [^=]+= quota\(", fields, re.MULTILINE) is not None

    options: list[str] = []
    for option in inspect.signature(ServerProcess).parameters["options"].default:  # flags, some with a value
        if not option.startswith("--"):
            if options and options[-1].startswith("--"):
                options.append(option)
        elif knows(option):
            options.append(option)
    return tuple(options)


def _profile(pid: int, warmup: float, seconds: float, out: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling the server ``pid`` over the measured ``seconds`` into ``out`` (``--profile``).

    Collapsed stacks of the thread holding the GIL (``--gil``: what costs the process's CPU in Python), 200 a second,
    without stopping the process (``--nonblocking``).
    """
    spy = f"py-spy record --pid {pid} --duration {int(seconds)} --rate 200 --gil --nonblocking --format raw"
    return subprocess.Popen(["sh", "-c", f"sleep {warmup} && exec {spy} --output {out}"], stdout=subprocess.DEVNULL)


def serve_and_load(args: argparse.Namespace, src: Path | None, label: str) -> dict[str, Any]:
    """One run: fresh servers of the tree at ``src`` (None: this one) on a fresh database, loaded; its figures."""
    from tests.server.helpers import ServerProcess, postgres

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        db = f"sqlite:///{tmp}/load.db"
        if args.db == "postgres":
            db = stack.enter_context(postgres(Path(tmp)))
        options = _options(src)
        servers = [
            ServerProcess(db, log=Path(tmp) / f"server{i}.log", workers=1, options=options, src=src)
            for i in range(args.processes)
        ]
        try:
            for server in servers:
                server.start()
            pids = [server.proc.pid for server in servers if server.proc is not None]
            urls = ",".join(server.url for server in servers)
            spy = None
            if args.profile is not None:
                args.profile.mkdir(parents=True, exist_ok=True)  # py-spy does not make it: no samples, a Rust trace
                out = args.profile / f"{label.replace(' ', '-')}-{time.strftime('%H%M%S')}.txt"
                spy = _profile(pids[0], args.stagger + args.warmup, args.seconds, out)
            result = asyncio.run(run(urls, pids, args.tables, args.game, args.seconds, args.warmup, args.stagger))
            if spy is not None:
                spy.wait(60)
        finally:
            for server in servers:
                server.stop()
    return {"tree": label, "db": args.db, "processes": args.processes, "game": args.game, **result}


def _spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.3f}, range {min(values):.3f}-{max(values):.3f}"


def alternate(args: argparse.Namespace) -> None:
    """``--before``: rounds of one run of each tree, their order rotating; CPU per move and its ratios.

    The ratio of each round is this tree's figure over the first ``--before`` tree's in the same round (and over the
    other ``--before`` trees', if any): adjacent runs share the machine's load of the moment.
    """
    trees = [(f"before {i + 1}" if len(args.before) > 1 else "before", src) for i, src in enumerate(args.before)]
    trees.append(("this", HERE))
    per_move: dict[str, list[float]] = {name: [] for name, _ in trees}
    ratios: dict[str, list[float]] = {name: [] for name, _ in trees[:-1]}
    for round_ in range(args.rounds):
        shift = round_ % len(trees)
        figures: dict[str, float] = {}
        for name, src in trees[shift:] + trees[:shift]:
            result = serve_and_load(args, src, f"{name} tree")
            ms = 1000 * result["server_cpu_s"] / max(1, result["moves"])
            result["server_cpu_ms_per_move"] = round(ms, 3)
            print(json.dumps({"round": round_ + 1, **result}), flush=True)
            per_move[name].append(ms)
            figures[name] = ms
        for name in ratios:
            ratios[name].append(figures["this"] / figures[name])
    print(f"server CPU per acknowledged move, ms, {args.rounds} alternated rounds:")
    for name, src in trees:
        print(f"  {name} ({src}): {_spread(per_move[name])}")
    for name, values in ratios.items():
        print(f"  ratio this/{name} (each round's): {_spread(values)}; each: {', '.join(f'{v:.3f}' for v in values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=10, help="seconds after the last first table, unmeasured")
    parser.add_argument(
        "--stagger", type=float, default=0, help="seconds over which the slots' first tables start (about a game's)"
    )
    parser.add_argument("--game", default="caprice")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="server processes (more than 1: PostgreSQL only)")
    parser.add_argument("--url", help="load a server already running here (e.g. under a profiler) instead")
    parser.add_argument("--pid", type=int, default=0, help="with --url: the server's process id (CPU seconds)")
    parser.add_argument(
        "--before",
        type=Path,
        action="append",
        help="the src/ folder of an older tree, run alternately with this one (repeatable: several trees)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="with --before: alternated rounds (one run of each)")
    parser.add_argument("--profile", type=Path, help="a folder: py-spy samples each server run (collapsed stacks)")
    args = parser.parse_args()
    if args.url:
        result = asyncio.run(run(args.url, [args.pid], args.tables, args.game, args.seconds, args.warmup, args.stagger))
        print(json.dumps({"db": "given", "game": args.game, **result}))
        return
    if args.processes > 1 and args.db != "postgres":
        parser.error("several server processes need --db postgres")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: the test helpers
    if args.before is not None:
        alternate(args)
        return
    print(json.dumps(serve_and_load(args, HERE, "this tree")))


if __name__ == "__main__":
    main()
