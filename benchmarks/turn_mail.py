"""What turn-based play's e-mails cost the server, in one process (issue #34 item 7).

    python benchmarks/turn_mail.py            # 400 moves each way, 200 e-mails

- **Move transaction**: whole two-player Caprice games between two human seats on a turn-based table (SQLite in a
  temporary folder), every move through ``TableService._tx_move`` (check, apply, log, commit), without a notifier
  and with one (each turn then runs :func:`meeple.server.notify.turn_notice` in its transaction and queues a
  notice). Reported as a ratio in the same process; the runs alternate so that a noisy machine touches both.
- **The event loop's share**: microseconds per ``Notifier.submit`` (a bounded queue's ``put_nowait``).
- **One e-mail**: milliseconds per e-mail sent by ``Notifier.deliver`` to a local aiosmtpd server (connect, EHLO,
  MAIL, RCPT, DATA, QUIT), the worker thread's work.

Timings on a shared machine are noisy: read the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meeple.server.bots import BotPool  # noqa: E402
from meeple.server.db import make_engine, migrate  # noqa: E402
from meeple.server.notify import Notifier, Recipient, SmtpSettings, TurnNotice  # noqa: E402
from meeple.server.protocol import ClockSpec, CreateTable  # noqa: E402
from meeple.server.tables import TableService  # noqa: E402


def _service(folder: Path, mail: bool) -> TableService:
    engine = make_engine(f"sqlite:///{folder / ('m.db' if mail else 'n.db')}")
    migrate(engine)
    service = TableService(engine, BotPool(0, 1.0), allow_seed=True)
    if mail:
        settings = SmtpSettings("127.0.0.1", 9, "plain", None, None, "games@example.org")
        service.notifier = Notifier(settings, lambda table, seat: None, "http://127.0.0.1", size=1_000_000)
    return service


def _moves(service: TableService, seed: int, count: int) -> tuple[int, float]:
    """Play random legal moves for both seats until ``count`` moves or the end; return (moves, seconds)."""
    request = CreateTable(game="caprice", seats=["human", "human"], clock=ClockSpec(per_move=86_400), seed=seed)
    table, _tokens = service.create(request)
    live = asyncio.run(service.get(table))
    service._tx_evaluate(live)  # the first turn starts
    done, spent = 0, 0.0
    while done < count and live.mover() is not None:
        seat = live.mover()
        assert seat is not None
        action = live.state.legal_actions()[seed % len(live.state.legal_actions())]
        version = len(live.log_of(seat))
        started = time.perf_counter()
        service._tx_move(live, seat, action, version, None, False)
        spent += time.perf_counter() - started
        service._mail(live)
        done += 1
    return done, spent


def measure_moves(moves: int) -> dict[str, Any]:
    """Seconds per move transaction without and with a notifier (alternating games)."""
    with tempfile.TemporaryDirectory() as folder:
        plain, mailed = _service(Path(folder), False), _service(Path(folder), True)
        totals = {False: [0, 0.0], True: [0, 0.0]}
        seed = 0
        while min(totals[False][0], totals[True][0]) < moves:
            for mail, service in ((False, plain), (True, mailed)):
                n, s = _moves(service, seed, moves)
                totals[mail][0] += n
                totals[mail][1] += s
            seed += 1
        queued = mailed.notifier.queue.qsize() if mailed.notifier is not None else 0
    per = {mail: totals[mail][1] / totals[mail][0] for mail in totals}
    return {"without": per[False], "with": per[True], "ratio": per[True] / per[False], "queued": queued}


def measure_submit(count: int = 100_000) -> float:
    """Microseconds per ``Notifier.submit`` (what the event loop pays per e-mail)."""
    settings = SmtpSettings("127.0.0.1", 9, "plain", None, None, "games@example.org")
    notifier = Notifier(settings, lambda table, seat: None, "http://127.0.0.1", size=count + 1)
    notice = TurnNotice("T", "caprice", 0, (("human", "Ann"), ("human", "Bob")), 0.0, 0.0)
    started = time.perf_counter()
    for _ in range(count):
        notifier.submit(notice)
    return (time.perf_counter() - started) / count * 1e6


def measure_send(count: int) -> list[float]:
    """Milliseconds per e-mail delivered to a local aiosmtpd server."""
    from tests.server.mail import smtp_server

    notice = TurnNotice("T", "caprice", 0, (("human", "Ann"), ("human", "Bob")), time.time() + 86_400, time.time())
    times = []
    with smtp_server() as (inbox, port):
        settings = SmtpSettings("127.0.0.1", port, "plain", None, None, "games@example.org")
        notifier = Notifier(settings, lambda table, seat: Recipient("ann@example.org"), "http://127.0.0.1")
        for _ in range(count):
            started = time.perf_counter()
            assert notifier.deliver(notice) == "sent"
            times.append((time.perf_counter() - started) * 1e3)
        inbox.wait(count)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--mails", type=int, default=200)
    args = parser.parse_args()
    moves = measure_moves(args.moves)
    print(
        f"move transaction: {moves['without'] * 1e3:.2f} ms without a notifier, {moves['with'] * 1e3:.2f} ms with"
        f" one: ratio {moves['ratio']:.3f} ({moves['queued']} turn e-mails decided)"
    )
    print(f"Notifier.submit: {measure_submit():.2f} us a call (the event loop's share)")
    sent = measure_send(args.mails)
    print(f"one e-mail to a local SMTP server: median {statistics.median(sent):.2f} ms, max {max(sent):.2f} ms")


if __name__ == "__main__":
    main()
