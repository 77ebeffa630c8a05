"""``meeple serve``'s bad command lines end with a message and exit 2 before anything starts."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli.app import app


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--db", "mysql://x/y"], "SQLite or PostgreSQL"),
        (["--db", "not a url"], "not a database URL"),
        (["citadels", "--seats", "human,robot,human"], "seats[1]"),
        (["citadels", "--players", "4", "--seats", "human,human"], "one per player"),
        (["citadels", "--seats", "human"], "players"),
        (["citadels", "--clock", "ten"], "--clock"),
        (["citadels", "--clock", "15d"], "1h to 14d"),
        (["--smtp", "http://mail.example.org"], "smtp://, smtp+starttls://, smtps://"),
        (["--smtp", "smtp://mail.example.org:0x19"], "1 to 65535"),
        (["--smtp", "smtp://mail.example.org", "--mail-from", "games"], "--mail-from is an e-mail address"),
        (["--mail-from", "games@example.org"], "give --smtp too"),
        (["--smtp", "smtp://mail.example.org", "--mails-per-day", "0"], "--mails-per-day"),
        (["--my-tables-per-minute", "0"], "--my-tables-per-minute"),
        (["--boards-per-minute", "0"], "--boards-per-minute"),
        (["--max-connections", "100000000"], "--max-connections is 1 to"),
        (["--http", "h2"], "--http is one of auto, httptools, h11"),
        (["--max-header-bytes", "100"], "--max-header-bytes"),
        (["--body-timeout", "0"], "--body-timeout"),
        (["--seats", "human,human"], "give its GAME"),
        (["--rated-clock", "soon"], "--rated-clock takes a time per move"),
        (["--rated-clock", "0s"], "--rated-clock"),
        (["--rated-grace", "59"], "--rated-grace"),
        (["--rated-substitute", "ismcts:500"], "--rated-substitute is one of random, easy, medium, hard"),
        (["--claim-after", "5"], "--claim-after"),
        (["--min-grace", "-1"], "--min-grace"),
        (["--no-start-minutes", "0"], "--no-start-minutes"),
        (["--max-unstarted-tables", "0"], "--max-unstarted-tables"),
        (["--bot-cpu-per-address", "0"], "--bot-cpu-per-address"),
        (["chess"], "chess"),
    ],
)
def test_a_bad_serve_command_line_is_refused(tmp_path, args: list[str], words: str) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 's.db'}"] if "--db" not in args else []
    result = CliRunner().invoke(app, ["serve", *args, *db])
    assert result.exit_code == 2, result.output
    assert words in result.output


@contextlib.contextmanager
def _serve_game(tmp_path: Path, seats: str, *extra: str) -> Iterator[str]:
    """Run ``meeple serve caprice --seats SEATS [EXTRA...]`` as a process; yield what it printed up to "Serving on"."""
    from tests.server.helpers import free_port

    command = [sys.executable, "-m", "meeple", "serve", "caprice", "--seats", seats, "--port", str(free_port())]
    command += ["--db", f"sqlite:///{tmp_path / 's.db'}", "--bot-workers", "1", *extra]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline()]
        while lines[-1] and "Serving on" not in lines[-1]:
            lines.append(proc.stdout.readline())
        yield "".join(lines)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


def test_serve_game_prints_invitations_that_open_the_seats(tmp_path: Path) -> None:
    from tests.server.helpers import RandomSeat, wait_for_server

    with _serve_game(tmp_path, "human,bot:random") as text:
        found = re.search(r"seat 0: meeple play --server (\S+) --table (\S+) --token (\S+)", text)
        assert found, text
        wait_for_server(found[1])
        seat = RandomSeat(found[1], found[2], found[3], seed=0)
        seat.start()
        seat.join(120)
        assert seat.finished.is_set() and seat.frames[0]["seat"] == 0


def test_invitations_name_an_address_friends_can_reach() -> None:
    from meeple.cli.serve import _reachable_host

    assert _reachable_host("127.0.0.1") == "127.0.0.1"
    assert _reachable_host("games.example.org") == "games.example.org"
    everywhere = _reachable_host("0.0.0.0")
    assert everywhere and everywhere not in ("0.0.0.0", "::")


def test_serve_game_with_open_seats_prints_how_anyone_joins(tmp_path: Path) -> None:
    from tests.server.helpers import http_json, wait_for_server

    with _serve_game(tmp_path, "open,bot:random") as text:
        found = re.search(r"Open seats, for anyone: meeple play --server (\S+) --table (\S+) --name NAME", text)
        assert found and "--token" not in text, text  # an open seat has no token to hand out
        wait_for_server(found[1])
        joined = http_json(f"{found[1]}/api/tables/{found[2]}/join", {"name": "Zoé"})
        assert joined["seat"] == 0
        assert http_json(f"{found[1]}/api/tables/{found[2]}")["status"] == "live"


def test_serve_game_with_a_turn_based_clock(tmp_path: Path) -> None:
    from tests.server.helpers import http_json, wait_for_server

    with _serve_game(tmp_path, "human,human", "--clock", "3d") as text:
        found = re.search(r"seat 0: meeple play --server (\S+) --table (\S+) --token", text)
        assert found, text
        wait_for_server(found[1])
        clock = http_json(f"{found[1]}/api/tables/{found[2]}")["clock"]
        assert clock["spec"] == {"initial": None, "increment": 0, "per_move": 259200}
    import sqlite3

    with contextlib.closing(sqlite3.connect(tmp_path / "s.db")) as db:
        assert db.execute("SELECT grace FROM tables").fetchall() == [(None,)]  # away players are the norm: no grace
