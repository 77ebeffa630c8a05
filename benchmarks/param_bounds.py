"""What one table creation with extreme game parameters costs a running server: memory kept and stall.

Run from the repository root; it starts ``meeple serve`` itself (SQLite in a temporary directory), once per source
tree, alternating the trees so that both see the same machine load::

    python benchmarks/param_bounds.py                                  # this tree
    python benchmarks/param_bounds.py --src /work/main/src --rounds 3  # another tree (before the fix), alternated

For each tree and round it reports, for the request of issue 41 item 1 (Capital Lux 2 with
``rob_deck="left=10000000/0/0"``, two human seats) and for a table at every parameter's largest allowed value:

- the answer's status and the time the request took;
- the stall: the longest a ``GET /api/games`` sent every 10 ms by another client waited while the table was made;
- the growth of the server's resident memory (``VmRSS``), read 2 s after the answer (the table stays in memory);
- the server's resident memory after a restart on the same database (a stored table is loaded again at start),
  less the first server's before the table was made.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import ServerProcess  # noqa: E402

ISSUE = {"game": "capital_lux_2", "params": {"players": 2, "rob_deck": "left=10000000/0/0"}, "seats": ["human"] * 2}
LARGEST = {
    "game": "capital_lux_2",
    "params": {"players": 1, "rob_deck": "left=20/5/5,right=20/5/5", "agent_modifiers": "9,9,9,9,9,9,9,9"},
    "seats": ["human"],
}


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (``VmRSS`` of /proc)."""
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def post(url: str, body: dict[str, Any]) -> tuple[int, str, float]:
    """POST ``body``; return the status, the answer's text and the seconds it took."""
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read().decode(), time.perf_counter() - start
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), time.perf_counter() - start


class Pinger(threading.Thread):
    """Sends ``GET /api/games`` every 10 ms and keeps the longest wait."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.longest = 0.0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            start = time.perf_counter()
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{self.url}/api/games", timeout=60) as answer:
                answer.read()
            self.longest = max(self.longest, time.perf_counter() - start)
            time.sleep(0.01)


def settled_rss(pid: int) -> int:
    """The server's resident memory once it is quiet (a few reads, the smallest)."""
    time.sleep(2.0)
    return min(rss_kib(pid) for _ in range(3) if time.sleep(0.2) is None)


def measure(src: str | None, body: dict[str, Any]) -> dict[str, Any]:
    """One server, one table creation: status, time, stall, RSS growth, RSS growth after a restart."""
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/bench.db"
        server = ServerProcess(db, src=Path(src) if src else None).start()
        try:
            assert server.proc is not None
            warm = {"game": body["game"], "params": {"players": len(body["seats"])}, "seats": body["seats"]}
            for _ in range(5):  # warm up: the first tables of a game import and build what every table needs
                post(f"{server.url}/api/tables", warm)
            before = settled_rss(server.proc.pid)
            pinger = Pinger(server.url)
            pinger.start()
            time.sleep(0.3)
            pinger.longest = 0.0
            status, text, took = post(f"{server.url}/api/tables", body)
            time.sleep(0.3)
            pinger.halt.set()
            pinger.join()
            after = settled_rss(server.proc.pid)
        finally:
            server.stop()
        restarted = ServerProcess(db, src=Path(src) if src else None).start()
        try:
            assert restarted.proc is not None
            if status == 201:  # at start every live table is due (and loaded); asking for it makes sure
                with contextlib.suppress(OSError):
                    table = json.loads(text)["table"]
                    urllib.request.urlopen(f"{restarted.url}/api/tables/{table}", timeout=120).read()
            reloaded = settled_rss(restarted.proc.pid)
        finally:
            restarted.stop()
    return {
        "status": status,
        "answer": text[:160],
        "seconds": took,
        "stall": pinger.longest,
        "rss_growth_mib": (after - before) / 1024,
        "reload_growth_mib": (reloaded - before) / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="another source tree to compare with this one (alternated runs)")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    trees: list[str | None] = [None] if args.src is None else [args.src, None]
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for _ in range(args.rounds):
        for tree in trees:
            for name, body in (("issue request", ISSUE), ("largest allowed", LARGEST)):
                result = measure(tree, body)
                results.setdefault((tree or "this tree", name), []).append(result)
                print(tree or "this tree", name, result, flush=True)
    print()
    print(
        "| tree | request | status | request time | longest stall of a concurrent GET | RSS kept | RSS after restart |"
    )
    print("|---|---|---|---|---|---|---|")
    for (tree, name), runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("seconds", "stall", "rss_growth_mib")}
        reload = statistics.median(r["reload_growth_mib"] for r in runs)
        print(
            f"| {tree} | {name} | {runs[0]['status']} | {med['seconds'] * 1000:.0f} ms | {med['stall'] * 1000:.0f} ms"
            f" | {med['rss_growth_mib']:+.1f} MiB | {reload:+.1f} MiB |"
        )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
