"""Game parameters through a running ``meeple serve`` (issue 41, item 1): one request could take the memory.

``{"game": "capital_lux_2", "params": {"players": 2, "rob_deck": "left=10000000/0/0"}, ...}`` kept 154 MiB and
stalled the server, in every bot worker too, and again at every start (the table is reloaded). Here a real server
process gets a table at every parameter's extremes and just past them, on every game (tests/core/param_extremes.py),
with bot seats so that the bot worker loads each game it accepts: the values past a range are refused (422, naming
what is allowed), the extremes are played, and the resident memory of the server and of its bot workers stays
within a few MiB. A table stored with such parameters (by an older version) is refused when the server loads it.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from meeple.core import InvalidParameterError, load_game
from meeple.core.registry import game_class
from meeple.server.db import TableRow, make_engine
from tests.core.param_extremes import BUILTIN, Case, all_cases
from tests.server.helpers import ServerProcess, http_json, postgres

ISSUE = {"game": "capital_lux_2", "params": {"players": 2, "rob_deck": "left=10000000/0/0"}, "seats": ["human"] * 2}
REFUSED_MIB = 2.0
"""What the server (and, apart, its bot workers) may grow by over every refused request, warmed up first."""
GROWTH_MIB = 8.0
"""What they may grow by with the tables at the extremes too (each is live, in memory, its bots playing)."""


def _rss_kib(pid: int) -> int:
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(c) for c in text]
    return found


def _memory(server: ServerProcess) -> tuple[int, int]:
    """KiB resident: the server process, and its child processes (the bot workers) together; the least of 3 reads."""
    assert server.proc is not None
    pid = server.proc.pid
    reads = []
    for _ in range(3):
        time.sleep(0.3)
        kids = _children(pid)
        reads.append((_rss_kib(pid), sum(_rss_kib(k) for k in kids)))
    return min(r[0] for r in reads), min(r[1] for r in reads)


def _post(url: str, body: dict[str, Any]) -> tuple[int, str]:
    request = urllib.request.Request(
        f"{url}/api/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _body(case: Case) -> dict[str, Any]:
    """The table of ``case``: its parameters as the API takes them (a tuple as a comma string), one human seat and
    random bots in the others (the bot worker loads the game)."""
    params = {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in case.params.items()}
    try:
        players = load_game(case.game, **case.params).num_players
    except InvalidParameterError:
        players = case.params.get("players") if isinstance(case.params.get("players"), int) else None
        players = players if players is not None and 1 <= players <= 8 else game_class(case.game).min_players
    return {"game": case.game, "params": params, "seats": ["human"] + ["bot:random"] * (players - 1)}


def _words(case: Case) -> str:
    """The refusal's words, from the parameter layer in this process (the server must say the same)."""
    with pytest.raises(InvalidParameterError) as caught:
        load_game(case.game, **case.params)
    return str(caught.value)


def test_every_parameters_extremes_and_past_them_through_a_running_server(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", log=log).start()
    try:
        for game in BUILTIN:  # warm up: each game's first tables import and build what every table needs
            for _ in range(2):
                n = game_class(game).max_players
                status, text = _post(server.url, {"game": game, "seats": ["human"] + ["bot:random"] * (n - 1)})
                assert status == 201, text
        time.sleep(2.0)
        cases = all_cases()
        started = time.monotonic()
        before = _memory(server)
        for case in [c for c in cases if not c.valid] + [None]:
            status, text = _post(server.url, ISSUE if case is None else _body(case))
            assert status == 422, (str(case), text)
            words = "at most 20 of a kind" if case is None else _words(case)
            assert words in json.loads(text)["detail"], (str(case), text)
        refused = _memory(server)
        accepted = [c for c in cases if c.valid]
        for case in accepted:
            status, text = _post(server.url, _body(case))
            assert status == 201, (str(case), text)
        time.sleep(2.0)  # the bots play the first moves of each new table (the bot worker loads its game)
        after = _memory(server)
        took = time.monotonic() - started
        grown = [(b - a) / 1024 for a, b in zip(before, refused, strict=True)]
        total = [(b - a) / 1024 for a, b in zip(before, after, strict=True)]
        print(
            f"{len(cases) - len(accepted) + 1} refused: +{grown[0]:.1f} MiB (server), +{grown[1]:.1f} MiB (bots);"
            f" with {len(accepted)} tables at the extremes: +{total[0]:.1f} MiB, +{total[1]:.1f} MiB; {took:.1f} s"
        )
        assert max(grown) < REFUSED_MIB, grown
        assert max(total) < GROWTH_MIB, total
        assert took < 90
        lobby = http_json(f"{server.url}/api/tables?limit=100")
        assert len(lobby) >= 1 and all(t["status"] in ("live", "finished") for t in lobby)
    finally:
        server.stop()


def _rewrite_params(db: str, table: str, **changed: Any) -> None:
    """Change a stored table's parameters in the database, as an older version could have stored them."""
    engine = make_engine(db)
    try:
        with Session(engine) as s, s.begin():
            row = s.get(TableRow, table)
            assert row is not None
            row.params = {**row.params, **changed}
    finally:
        engine.dispose()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_stored_table_outside_the_ranges_is_refused_when_the_server_loads_it(tmp_path: Path, database: str) -> None:
    """A table stored by an older version with the issue's parameters: a server ends it as abandoned with a log line
    when it loads it at start (every live table is due then), keeps its row, and serves the others. On PostgreSQL two
    processes start on it: one of them ends it, once."""
    with contextlib.ExitStack() as stack:
        db = (
            f"sqlite:///{tmp_path / 's.db'}" if database == "sqlite" else stack.enter_context(postgres(tmp_path / "pg"))
        )
        server = ServerProcess(db, log=tmp_path / "first.log").start()
        try:
            body = {"game": "capital_lux_2", "params": {"players": 2}, "seats": ["human"] * 2}
            status, text = _post(server.url, body)
            assert status == 201, text
            stored = json.loads(text)["table"]
            status, text = _post(server.url, {"game": "caprice", "seats": ["human", "bot:random"]})
            assert status == 201, text
            other = json.loads(text)["table"]
        finally:
            server.stop()
        _rewrite_params(db, stored, rob_deck="left=10000000/0/0")
        logs = [tmp_path / f"{name}.log" for name in (["one"] if database == "sqlite" else ["one", "two"])]
        servers = [ServerProcess(db, log=log).start() for log in logs]
        try:
            refusal = "ended as abandoned: its stored parameters are refused"
            deadline = time.monotonic() + 30
            while not any(refusal in log.read_text() for log in logs):
                assert time.monotonic() < deadline, "the stored table was not refused at start"
                time.sleep(0.2)
            for server in servers:
                assert server.proc is not None
                with pytest.raises(urllib.error.HTTPError) as caught:
                    http_json(f"{server.url}/api/tables/{stored}")
                assert caught.value.code == 404
                detail = json.loads(caught.value.read())["detail"]
                assert f"table '{stored}' cannot be loaded" in detail and "rob_deck" in detail, detail
                assert "at most 20 of a kind" in detail
                listed = {t["table"]: t for t in http_json(f"{server.url}/api/tables?limit=10")}
                assert listed[stored]["status"] == "abandoned" and listed[other]["status"] == "live"
                assert http_json(f"{server.url}/api/tables/{other}")["status"] == "live"
                assert _rss_kib(server.proc.pid) < 300 * 1024
        finally:
            for server in servers:
                server.stop()
        assert sum(log.read_text().count(refusal) for log in logs) == 1, "refused once, then no longer due"
        engine = make_engine(db)
        try:
            with Session(engine) as s:
                row = s.get(TableRow, stored)
                assert row is not None and row.status == "abandoned" and row.deadline is None
        finally:
            engine.dispose()
