"""Issue 41, items 2 and 3, measured as the issue did: a control table's bot answer under the attack, and a squat.

```bash
python benchmarks/bot_tables.py                              # this tree only
python benchmarks/bot_tables.py --before /path/to/old/src    # alternated runs of an older tree and this one
```

Each run starts ``meeple serve`` (SQLite, one bot worker, the default options but ``--forwarded-allow-ips
127.0.0.1`` so that loopback clients can name their addresses), then:

- **control**: a table of another address, a human (this script, answering at once) against ``medium``; the seconds
  from each of its moves to its next turn (the bot's answer), ``--moves`` of them;
- **unopened** (the issue's attack, item 2): ten ``capital_lux_2`` tables from one address, two human seats nobody
  opens, ``"grace": 0.001`` (refused by a server with ``--min-grace``: then the smallest grace it allows) and the
  ``hard`` substitute; then the control;
- **came-and-left** (the same with seats that connect once and leave, so that their grace may bring the
  substitute; ``--min-grace 1`` where the server has it, grace 1 s): the lanes and the bot CPU budget at work;
- **squat** (item 3, scaled down as in the issue): ``--max-tables 60``, 3 addresses × 20 tables nobody opens, then
  a newcomer's table and quick match: their HTTP statuses.

It prints the control's median and 90th percentile, and their ratio to the same tree's control without an attack.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: the test helpers
from tests.server.helpers import ServerProcess  # noqa: E402


def _request(url: str, body: dict[str, Any] | None, address: str) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=60) as r:
            return int(r.status), json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return int(exc.code), None


def control(url: str, moves: int) -> list[float]:
    """Seconds from each move of the control table's human to its next turn."""
    from websockets.sync.client import connect

    status, made = _request(f"{url}/api/tables", {"game": "caprice", "seats": ["human", "bot:medium"]}, "10.6.0.1")
    assert status == 201, status
    answers: list[float] = []
    ws_url = f"{url.replace('http', 'ws', 1)}/api/tables/{made['table']}/ws?token={made['seats'][0]['token']}"
    with connect(ws_url, additional_headers={"X-Forwarded-For": "10.6.0.1"}) as ws:
        sent, n = None, 0
        while len(answers) < moves:
            frame = json.loads(ws.recv(timeout=300))
            if frame["type"] != "state":
                continue
            if frame["status"] != "live":  # a game ended: the next one
                return answers + control(url, moves - len(answers))
            if frame["legal_actions"]:
                if sent is not None:
                    answers.append(time.perf_counter() - sent)
                n += 1
                move = {"type": "move", "version": frame["version"], "action": frame["legal_actions"][0]["code"]}
                ws.send(json.dumps({**move, "move_id": str(n)}))
                sent = time.perf_counter()
    return answers


def attack(url: str, grace: float, come: bool, tables: int = 10) -> int:
    """The attack tables (their seats opened once and left if ``come``); how many the server made."""
    from websockets.sync.client import connect

    body = {"game": "capital_lux_2", "params": {"players": 2}, "seats": ["human", "human"], "substitute": "hard"}
    made = 0
    for _ in range(tables):
        status, answer = _request(f"{url}/api/tables", {**body, "grace": grace}, "10.7.0.1")
        if status != 201:
            continue
        made += 1
        if come:
            for seat in answer["seats"]:
                path = f"/api/tables/{answer['table']}/ws?token={seat['token']}"
                with connect(url.replace("http", "ws", 1) + path, additional_headers={"X-Forwarded-For": "10.7.0.1"}):
                    pass
    return made


def squat(url: str) -> tuple[float, list[int], tuple[int, int]]:
    """3 addresses × 20 tables nobody opens: seconds, their statuses, then a newcomer's table and quick match."""
    start = time.perf_counter()
    body = {"game": "caprice", "seats": ["human", "bot:medium"]}
    codes = [_request(f"{url}/api/tables", body, f"10.9.{a}.1")[0] for a in range(3) for _ in range(20)]
    seconds = time.perf_counter() - start
    table = _request(f"{url}/api/tables", body, "10.8.0.1")[0]
    quick = _request(f"{url}/api/quickmatch", {"game": "caprice", "players": 2, "name": "N"}, "10.8.0.2")[0]
    return seconds, codes, (table, quick)


def _knows(src: Path | None, option: str) -> bool:
    """Whether the tree at ``src`` (None: this one) has ``meeple serve`` option ``option``."""
    root = src if src is not None else Path(__file__).resolve().parents[1] / "src"
    return option in (root / "meeple" / "cli" / "serve.py").read_text()


def _stats(answers: list[float]) -> tuple[float, float]:
    ordered = sorted(answers)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def run(src: Path | None, label: str, moves: int, settle: float) -> dict[str, Any]:
    """Every scenario on the tree ``src`` (None: this one), each on a fresh server."""
    out: dict[str, Any] = {"tree": label}
    base = ("--forwarded-allow-ips", "127.0.0.1", "--tables-per-minute", "100")
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in ("control", "unopened", "came-and-left"):
            options = base
            if scenario == "came-and-left" and _knows(src, "--min-grace"):
                options = (*base, "--min-grace", "1")
            server = ServerProcess(f"sqlite:///{tmp}/{scenario}.db", options=options, src=src, workers=1).start()
            try:
                if scenario == "unopened":
                    grace = 30.0 if _knows(src, "--min-grace") else 0.001
                    out["unopened_made"] = attack(server.url, grace, come=False)
                elif scenario == "came-and-left":
                    out["came_made"] = attack(server.url, 1.0, come=True)
                if scenario != "control":
                    time.sleep(settle)  # the grace runs out, the bots start
                answers = control(server.url, moves)
                cpu = _cpu(server)
                out[scenario] = (*_stats(answers), cpu)
            finally:
                server.stop()
        server = ServerProcess(f"sqlite:///{tmp}/squat.db", options=(*base, "--max-tables", "60"), src=src).start()
        try:
            out["squat"] = squat(server.url)
        finally:
            server.stop()
    return out


def _cpu(server: ServerProcess) -> float:
    """CPU seconds used so far by the server and its bot workers (its process group)."""
    import subprocess

    assert server.proc is not None
    done = subprocess.run(["ps", "-o", "cputimes=", "-s", str(server.proc.pid)], capture_output=True, text=True)
    return float(sum(int(x) for x in done.stdout.split() if x.isdigit()))


def report(result: dict[str, Any]) -> None:
    base = result["control"][0]
    print(f"\n{result['tree']}")
    for scenario in ("control", "unopened", "came-and-left"):
        median, p90, cpu = result[scenario]
        print(
            f"  {scenario:14} control's bot answer: median {median * 1000:7.1f} ms, p90 {p90 * 1000:7.1f} ms"
            f" ({median / base:5.1f}x the quiet control); server CPU {cpu:.0f} s"
        )
    print(f"  attack tables made: unopened {result['unopened_made']}, came-and-left {result['came_made']}")
    seconds, codes, newcomer = result["squat"]
    made = codes.count(201)
    print(f"  squat: {made} of 60 tables in {seconds:.2f} s; a newcomer's table and quick match: {newcomer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, help="the src/ folder of an older tree, run alternately with this one")
    parser.add_argument("--moves", type=int, default=30, help="control moves measured per scenario")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds the attack runs before the control")
    parser.add_argument("--rounds", type=int, default=1, help="alternated rounds (with --before)")
    args = parser.parse_args()
    for _ in range(args.rounds):
        if args.before is not None:
            report(run(args.before, f"before ({args.before})", args.moves, args.settle))
        report(run(None, "this tree", args.moves, args.settle))


if __name__ == "__main__":
    main()
