"""The lobby at 50,000 tables, and finished tables read over HTTP (issue 41, item 6), in two source trees.

Run: ``python benchmarks/lobby.py --baseline-src ../main/src [--tables 50000] [--rounds 3]``.

Each measure runs in a fresh process of one tree (this one, and ``--baseline-src``: main before the fix), the two
trees alternated ``--rounds`` times (shared cores drift alike for both). A process builds its own SQLite database
with its own migrations, fills it with ``--tables`` tables (two seats each; 5,000 creator addresses; mostly finished
and abandoned, a few waiting and live; the same rows in both trees), then through the app (FastAPI's test client,
in process) measures the CPU time of:

- ``GET /api/tables?limit=50`` when its rows must be read (the first request; this tree's shared rows are made stale
  before each one), and when requests follow each other (this tree answers from rows shared for 1.5 s);
- ``GET /api/tables/{id}`` of 200 finished tables, and how many of them are still in the process's memory after;
- ``GET /healthz``: what a request costs the in-process test client and the middlewares (the floor).

It prints the medians per tree and the ratios baseline / this tree.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def fill(url: str, tables: int) -> list[str]:
    """Migrate the database at ``url`` and insert ``tables`` tables; return the ids of 200 finished ones."""
    from sqlalchemy import text

    from meeple.server.db import make_engine, migrate

    engine = make_engine(url)
    migrate(engine)
    rng = random.Random(41)
    now = time.time()
    statuses = ["finished"] * 70 + ["abandoned"] * 25 + ["waiting"] * 3 + ["live"] * 2
    rows, seats, finished = [], [], []
    for i in range(tables):
        status = rng.choice(statuses)
        table = f"t{i:06d}"
        creator = f"{rng.randrange(5000):024x}"
        rows.append({"id": table, "status": status, "created": now - (tables - i) * 60, "creator": creator})
        second = "open" if status == "waiting" else "human"
        seats += [{"t": table, "s": 0, "p": "human"}, {"t": table, "s": 1, "p": second}]
        if status == "finished" and len(finished) < 200 and i % 7 == 0:
            finished.append(table)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tables (id, game, params, seed, status, version, rev, created, substitute, creator)"
                " VALUES (:id, 'caprice', '{\"players\": 2}', 7, :status, 0, 0, :created, 'medium', :creator)"
            ),
            rows,
        )
        conn.execute(
            text("INSERT INTO seats (table_id, seat, player, bot_played) VALUES (:t, :s, :p, false)"),
            seats,
        )
    engine.dispose()
    return finished


def cpu_ms(call: Any) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def child(tables: int) -> dict[str, Any]:
    """One tree's measures (run in its own process)."""
    from fastapi.testclient import TestClient

    from meeple.server.app import ServerConfig
    from meeple.server.policy import SeatPolicy
    from meeple.server.quotas import Quotas
    from meeple.web import create_web_app

    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder / 'lobby.db'}"
    finished = fill(url, tables)
    config = ServerConfig(db=url, bot_workers=0, policy=SeatPolicy(), quotas=Quotas(rate_limits=False))
    with TestClient(create_web_app(config)) as client:
        state = client.app.state  # type: ignore[attr-defined]
        service = state.services.tables if hasattr(state, "services") else state.meeple["service"]  # either tree
        assert len(client.get("/api/tables?limit=50").json()) == 50
        fresh, repeated = [], []
        for _ in range(30):
            if hasattr(service, "listing_generation"):
                service.listing_generation += 1  # this tree: the shared rows are stale, the query runs
            fresh.append(cpu_ms(lambda: client.get("/api/tables?limit=50")))
        for _ in range(30):
            repeated.append(cpu_ms(lambda: client.get("/api/tables?limit=50")))
        floor = [cpu_ms(lambda: client.get("/healthz")) for _ in range(30)]
        reads = [cpu_ms(lambda t=t: client.get(f"/api/tables/{t}")) for t in finished]
        kept = len(set(finished) & set(service.tables))
    return {
        "fresh": statistics.median(fresh),
        "repeated": statistics.median(repeated),
        "finished_read": statistics.median(reads),
        "kept": kept,
        "floor": statistics.median(floor),
        "finished": len(finished),
    }


def run(src: Path, tables: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--child", "--tables", str(tables)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline-src", type=Path, help="the source tree to compare with (its src/ folder)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.tables)))
        return
    trees = {"this tree": HERE / "src"}
    if args.baseline_src:
        trees = {"baseline": args.baseline_src.resolve(), **trees}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, src in trees.items():
            results[name].append(run(src, args.tables))
    medians = {
        name: {k: statistics.median(r[k] for r in rs) for k in ("fresh", "repeated", "finished_read", "kept", "floor")}
        for name, rs in results.items()
    }
    print(f"{args.tables} tables; CPU ms per request (medians of {args.rounds} alternated runs of 30 requests)")
    for name, m in medians.items():
        print(
            f"  {name}: lobby read {m['fresh']:.2f} ms, lobby repeated {m['repeated']:.2f} ms,"
            f" finished table read {m['finished_read']:.2f} ms; finished tables kept in memory after"
            f" 200 reads: {m['kept']:.0f}; a GET /healthz (the test client's own cost) {m['floor']:.2f} ms"
        )
    if "baseline" in medians:
        b, t = medians["baseline"], medians["this tree"]
        print(
            f"  ratios baseline / this tree: lobby read {b['fresh'] / t['fresh']:.1f}x,"
            f" lobby repeated {b['repeated'] / t['repeated']:.1f}x"
        )


if __name__ == "__main__":
    main()
