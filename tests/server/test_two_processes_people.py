"""Quick match and chat with two ``meeple serve`` processes on one PostgreSQL (issue #41, items 16 and 17).

Real processes, Debian's PostgreSQL started by the test: quick match for every (game, player count, rated) kind the
lobby offers, asked of one process and then of the other; chat lines sent in bursts by several writers connected to
both processes, read by readers connected to both.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.registry import load_game, registered_games
from meeple.server.lobby import quickmatch_lock
from tests.server.helpers import ServerProcess, postgres


def _kinds() -> list[tuple[str, int, bool]]:
    """Every (game, player count, rated) a quick match may be asked for: 30 with the four games."""
    out = []
    for game in registered_games():
        for players in range(1, 10):
            try:
                if load_game(game, players=players).num_players != players:
                    continue
            except MeepleError:
                continue
            out += [(game, players, False), (game, players, True)]
    return out


def _post(url: str, body: dict[str, Any], cookie: str | None = None) -> tuple[int, Any, str | None]:
    """POST JSON; return the status, the JSON answer and the session cookie the answer sets (if any)."""
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = f"meeple_session={cookie}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, text, cookies = answer.status, answer.read(), answer.headers.get_all("set-cookie") or []
    except urllib.error.HTTPError as exc:
        status, text, cookies = exc.code, exc.read(), []
    session = next((c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("meeple_session=")), None)
    return status, json.loads(text), session


def test_the_quick_match_lock_key_is_a_signed_32_bit_value_for_every_kind() -> None:
    for game, players, rated in _kinds():
        key = f"{game}/{players}" + ("/rated" if rated else "")
        assert -(2**31) <= quickmatch_lock(key) < 2**31, key


def test_quick_match_of_every_kind_meets_across_two_processes_on_postgresql(tmp_path: Path) -> None:
    """Each kind asked of process A then of process B: both seated at one table (a solo game: one table each; a
    rated solo game: 422 as on SQLite), never a server error."""
    kinds = _kinds()
    assert len(kinds) == 30
    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            sessions = []
            for server, name in ((a, "ann"), (b, "bob")):
                status, _, session = _post(f"{server.url}/api/accounts", {"username": name, "password": "pw-" * 4})
                assert status == 201 and session
                sessions.append(session)
            failures = []
            for game, players, rated in kinds:
                answers = []
                for server, who, session in ((a, "Ann", sessions[0]), (b, "Bob", sessions[1])):
                    body = {"game": game, "players": players, "rated": rated, **({} if rated else {"name": who})}
                    answers.append(_post(f"{server.url}/api/quickmatch", body, session if rated else None)[:2])
                statuses = [status for status, _ in answers]
                if players == 1 and rated:
                    expected = [422, 422]  # a rated table needs open seats: refused, not a server error
                else:
                    expected = [201, 201]
                if statuses != expected:
                    failures.append((game, players, rated, answers))
                    continue
                if players > 1:
                    (_, first), (_, second) = answers
                    if (second["table"], first["seat"], second["seat"]) != (first["table"], 0, 1):
                        failures.append((game, players, rated, answers))
            assert not failures, failures
            for log in ("a.log", "b.log"):
                assert "Traceback" not in (tmp_path / log).read_text(errors="replace")
        finally:
            a.stop()
            b.stop()
