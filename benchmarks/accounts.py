"""Costs of accounts (issue #34): log-in, session look-up, and a rated game's rating update, in one process.

Run: ``python benchmarks/accounts.py`` (a temporary SQLite database). It prints the mean time of

- ``authenticate`` with the right password, a wrong one, and an unknown username (the dummy hash): the three must
  cost the same, so the ratios to the right password's time are the result that matters (target: 0.8 to 1.25);
- ``account_of`` (a request's session cookie to its account: one indexed SELECT of a SHA-256);
- ``rate_table`` for a 4-player game (openskill and the ratings rows, inside one transaction), next to an empty
  write transaction of the same database as the reference.

Times on a shared machine are noisy: compare the ratios printed, measured in the same process.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import text

from meeple.server.accounts import Accounts
from meeple.server.db import make_engine, migrate
from meeple.server.ratings import rate_table


def mean_ms(call: Callable[[], object], runs: int) -> float:
    """The mean wall time of ``call()`` in milliseconds over ``runs`` runs (after one warm-up)."""
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.fmean(times) * 1000


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    engine = make_engine(f"sqlite:///{folder / 'bench.db'}")
    migrate(engine)
    accounts = Accounts(engine)
    players = [accounts.create(f"player{i}", "a long enough password") for i in range(4)]
    token = accounts.open_session(players[0].id)
    cases = {
        "right": lambda: accounts.authenticate("player0", "a long enough password"),
        "wrong": lambda: accounts.authenticate("player0", "not the password"),
        "unknown": lambda: accounts.authenticate("nobody", "not the password"),
    }
    spent: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(15):  # interleaved: the machine's load drifts alike for the three
        for kind, call in cases.items():
            spent[kind].append(mean_ms(call, 1))
    right, wrong, unknown = (statistics.median(spent[k]) for k in ("right", "wrong", "unknown"))
    lookup = mean_ms(lambda: accounts.account_of(token), 500)
    counter = iter(range(10**6))

    def one_rated_end() -> None:
        table = f"t{next(counter)}"
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO tables (id, game, params, seed, status, version, rev, created, substitute, rated)"
                    " VALUES (:id, 'capitol', '{}', 1, 'finished', 0, 0, 0, 'medium', true)"
                ),
                {"id": table},
            )
            for seat, account in enumerate(players):
                conn.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, player, bot_played, account_id)"
                        " VALUES (:t, :s, 'human', false, :a)"
                    ),
                    {"t": table, "s": seat, "a": account.id},
                )
            rate_table(conn, table, "capitol", [1, 2, 2, 4], time.time())

    def empty_transaction() -> None:
        with engine.begin() as conn:
            conn.execute(text("SELECT 1"))

    rated = mean_ms(one_rated_end, 200)
    empty = mean_ms(empty_transaction, 500)
    print(f"authenticate, right password: {right:.1f} ms (medians)")
    print(f"authenticate, wrong password: {wrong:.1f} ms ({wrong / right:.2f} x right)")
    print(f"authenticate, unknown username: {unknown:.1f} ms ({unknown / right:.2f} x right)")
    print(f"account_of (session cookie): {lookup:.3f} ms ({right / lookup:.0f} x cheaper than a log-in)")
    print(f"a 4-player rated end (table, seats, rate_table): {rated:.2f} ms; an empty write transaction {empty:.2f} ms")


if __name__ == "__main__":
    main()
