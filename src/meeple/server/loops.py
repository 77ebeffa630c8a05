"""The server's background loops: due tables, quick matches' waits, presence, stuck clients, housekeeping.

:func:`start_loops` starts them in the app's lifespan (after :func:`meeple.server.services.start`); the lifespan
cancels them at shutdown. Each survives a failing table or a lost database connection (one log line a round).

Rules: issue "Play online: an authoritative game server" (the master loop); docs/server.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from meeple.server.health import DATABASE
from meeple.server.hub import Hub
from meeple.server.live import TableNotFound
from meeple.server.lobby import Lobby, SeatRefused
from meeple.server.presence import HEARTBEAT, HEARTBEAT_DEGRADED
from meeple.server.rematch import Rematches
from meeple.server.retry import is_outage, is_transient, one_line
from meeple.server.services import Services
from meeple.server.tables import TableService

log = logging.getLogger("meeple.server")

SWEEP = 0.25
"""Seconds between two looks at the due tables (clocks, grace periods, overdue bots)."""
STUCK_CHECK = 2.0
"""Seconds between two looks for clients that stopped reading (their frames wait past ``send_seconds``)."""
HOUSEKEEPING = 60.0
"""Seconds between two looks for idle tables to end as abandoned and cached tables to drop from memory."""
BANS = 2.0
"""Seconds between two looks at the operator's log for new bans (``meeple admin ban``: :mod:`.moderation`)."""


def start_loops(services: Services) -> list[asyncio.Task[None]]:
    """Start the sweeper, the heartbeat, the housekeeping and the stuck clients' check; the caller cancels them."""
    loop = asyncio.get_running_loop()
    return [
        loop.create_task(_sweeper(services.tables, services.lobby, services.rematches)),
        loop.create_task(_heartbeat(services.tables, services.hub, services.beat_thread)),
        loop.create_task(_housekeeping(services.tables, services.lobby)),
        loop.create_task(_drop_stuck(services.hub)),
        loop.create_task(_bans(services)),
    ]


async def _bans(services: Services) -> None:
    """Every :data:`BANS` seconds, apply the new bans of ``meeple admin`` (another process) to this process.

    The banned account's seats lose their connections here, and the tables in memory are read again (its waiting
    seats opened). On PostgreSQL the ``revoke:`` notifications did the first part already; SQLite has none.
    """
    moderation, hub, service = services.moderation, services.hub, services.tables
    seen: int | None = None
    while True:
        try:
            if seen is None:
                seen = await asyncio.to_thread(moderation.last_action)
            seen, banned = await asyncio.to_thread(moderation.since, seen)
            for username in banned:
                for live in list(service.tables.values()):
                    held = [s for s, state in enumerate(live.seats) if state.account == username]
                    for seat in held:
                        hub.drop_seat(live.id, seat)
                    if held:
                        await service.sync(live)
        except Exception as exc:  # noqa: BLE001 - the loop must survive a lost database connection
            log.warning("bans: %s", one_line(exc))
        await asyncio.sleep(BANS)


async def _sweeper(service: TableService, lobby: Lobby, rematches: Rematches) -> None:
    """Every :data:`SWEEP` seconds: evaluate the due tables, fill quick matches, end lapsed rematch offers."""
    while True:
        try:
            if DATABASE not in service.health.faults:  # while it is down, the heartbeat alone tries it
                await service.announce_ended()
                for table_id in await asyncio.to_thread(service.due_tables):
                    await service.evaluate(table_id)
                for table_id in await asyncio.to_thread(lobby.due):  # a quick match's wait is over: bots take seats
                    with contextlib.suppress(SeatRefused, TableNotFound):
                        await asyncio.to_thread(lobby.start, table_id, None, "medium")
                        await lobby.announce(table_id, started=True)
                await rematches.lapse_due()
        except Exception as exc:  # noqa: BLE001 - the loop must survive a failing table or a lost database connection
            if not is_transient(exc):
                log.exception("sweeper")
            else:
                if is_outage(exc):
                    service.health.fail(DATABASE)
                log.warning("sweeper: %s", one_line(exc))
        await asyncio.sleep(SWEEP)


async def _drop_stuck(hub: Hub) -> None:
    """Disconnect the clients that stopped reading (:meth:`Hub.drop_stuck`), every :data:`STUCK_CHECK` seconds."""
    while True:
        await asyncio.sleep(STUCK_CHECK)
        hub.drop_stuck()


async def _housekeeping(service: TableService, lobby: Lobby) -> None:
    """End idle and unjoined tables as abandoned, drop unused tables from memory, every :data:`HOUSEKEEPING` s."""
    while True:
        await asyncio.sleep(HOUSEKEEPING)
        try:
            ended = await asyncio.to_thread(service.expire_idle) + await asyncio.to_thread(lobby.expire)
            for table_id in ended:
                live = service.tables.get(table_id)
                if live is not None:
                    await service.sync(live)
            service.evict_unused()
        except Exception as exc:  # noqa: BLE001 - the loop must survive a lost database connection
            if not is_transient(exc):
                log.exception("housekeeping")
            else:
                log.warning("housekeeping: %s", one_line(exc))


async def _heartbeat(service: TableService, hub: Hub, thread: ThreadPoolExecutor) -> None:
    """Write this process's presence and close dead processes' rows, in a thread of its own.

    Every :data:`HEARTBEAT` seconds, every second while the database is down; the first success after an outage
    ends it (``Hub.recovered``).
    """
    loop = asyncio.get_running_loop()
    while True:
        waited = 0.0
        while waited < HEARTBEAT and DATABASE not in service.health.faults:  # a fault reported elsewhere: try soon
            await asyncio.sleep(HEARTBEAT_DEGRADED)
            waited += HEARTBEAT_DEGRADED
        if waited == 0.0:
            await asyncio.sleep(HEARTBEAT_DEGRADED)
        try:
            changed = await loop.run_in_executor(thread, service.heartbeat)
        except Exception as exc:  # noqa: BLE001 - one line per failed heartbeat while the database is down
            if is_outage(exc):
                service.health.fail(DATABASE)
            log.warning("heartbeat: %s", one_line(exc))
            continue
        outage = service.health.ok(DATABASE)
        if outage is not None:
            await hub.recovered(outage)
        for table_id in changed:
            await hub.refresh(table_id)
