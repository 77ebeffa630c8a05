"""The composition root: every long-lived service of a running server, built once at start-up, typed.

:func:`build` makes :class:`Services` in the app's lifespan (the database migrated first) and :func:`close` ends it
in reverse order. A route reaches it through one FastAPI dependency, :data:`ServicesDep`
(``services: ServicesDep`` in its signature); a background loop or the WebSocket handler is handed it. Every
constructor takes its collaborators: nothing is wired after construction.

Adding a service: give it a field here, build it in :func:`build` from the ones it needs (and stop it in
:func:`close` if it holds threads or connections); handlers then read ``services.<name>`` (docs/architecture.md,
"The server's front door").

Rules: issue #42, item 1 (a typed composition root); docs/architecture.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, FastAPI
from sqlalchemy import Engine
from starlette.requests import HTTPConnection

from meeple.server.accounts import Account, Accounts
from meeple.server.blocks import Blocks
from meeple.server.bots import BotBudget, BotPool
from meeple.server.chat import ChatService
from meeple.server.config import ServerConfig
from meeple.server.db import is_postgresql, make_engine, migrate
from meeple.server.friends import Friends
from meeple.server.hashing import PasswordWork
from meeple.server.hub import Hub, Listener, broadcast
from meeple.server.lobby import Lobby
from meeple.server.logins import LoginGate
from meeple.server.metrics import Metrics, started, stopped
from meeple.server.moderation import Moderation
from meeple.server.notify import MailCounts, Notifier, account_addresses, account_recipient
from meeple.server.once import Once
from meeple.server.quotas import Limiter
from meeple.server.reads import Listing
from meeple.server.recovery import Recovery
from meeple.server.rematch import Rematches
from meeple.server.seats import Seats
from meeple.server.tables import TableService

log = logging.getLogger("meeple.server")


class Refusals:
    """Counts a request or message refused by a limit (``origin``, ``body_size``, ``tables``, ``bad_token``...).

    One log line and the ``meeple_refused_total`` counter of ``metrics``; built with the app (its middlewares count
    refusals before the services are up).
    """

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def __call__(self, reason: str) -> None:
        """Count one refusal for ``reason``."""
        log.info("refused: %s", reason)
        self.metrics.refused(reason)


@dataclass(frozen=True)
class Services:
    """The services of one running server (one per app, built by :func:`build`).

    Attributes:
        config: how the server runs.
        engine: the database (SQLAlchemy).
        beat_engine: the heartbeat's own connection on PostgreSQL (stuck transactions cannot starve it), else
            ``engine``.
        beat_thread: the heartbeat's thread.
        bots: the bot processes.
        tables: the move master (:class:`meeple.server.tables.TableService`).
        hub: the tables' connections (:class:`meeple.server.hub.Hub`).
        chat: the tables' chat.
        lobby: the use cases of strangers meeting at a table: create, join, quick match, start, new token.
        rematches: rematches and invitations declined (:mod:`meeple.server.rematch`).
        blocks: who blocks whom (:mod:`meeple.server.blocks`).
        seats: which account and seat a connection opens.
        accounts: accounts and sessions.
        passwords: the threads that hash and check passwords.
        logins: the log-in gate (failed log-ins per address and account, known devices).
        listing: the lobby's shared rows.
        limiter: the quotas.
        metrics: the Prometheus counters.
        refused: counts a refusal (log line and metric).
        notifier: the turn e-mails, None without ``--smtp``.
        recovery: password-reset and verification links (:mod:`.recovery`).
        moderation: reports and the operator's actions (:mod:`.moderation`).
        listener: the PostgreSQL LISTEN thread (None on SQLite).
        friends: follows and presence (:mod:`meeple.server.friends`).
        once: the results of keyed requests ("Play now" sent twice seats once: :mod:`meeple.server.once`).
    """

    config: ServerConfig
    engine: Engine
    beat_engine: Engine
    beat_thread: ThreadPoolExecutor
    bots: BotPool
    tables: TableService
    hub: Hub
    chat: ChatService
    lobby: Lobby
    rematches: Rematches
    blocks: Blocks
    seats: Seats
    accounts: Accounts
    passwords: PasswordWork
    logins: LoginGate
    listing: Listing
    limiter: Limiter
    metrics: Metrics
    refused: Refusals
    notifier: Notifier | None
    recovery: Recovery
    moderation: Moderation
    listener: Listener | None
    friends: Friends
    once: Once


async def build(config: ServerConfig, limiter: Limiter, refused: Refusals) -> Services:
    """Migrate the database and build every service (the app's ``limiter`` and ``refused`` were made with it).

    Nothing is started here but the turn e-mails' thread; :func:`start` wakes the tables and the LISTEN thread.
    """
    metrics = refused.metrics
    engine = make_engine(config.db)
    await asyncio.to_thread(migrate, engine)
    quotas = config.quotas
    budget = BotBudget(quotas.bot_cpu_per_address if quotas.rate_limits else 0.0)
    bots = BotPool(
        config.bot_workers, config.policy.move_seconds, budget=budget, fair=quotas.rate_limits, metrics=metrics
    )
    beat_engine = make_engine(config.db, pool_size=1) if is_postgresql(engine) else engine
    notifier = _notifier(config, engine, metrics)
    tables = TableService(
        engine,
        bots,
        process=config.process,
        allow_seed=config.allow_seed,
        policy=config.policy,
        quotas=quotas,
        heartbeat_engine=beat_engine,
        rated=config.rated,
        metrics=metrics,
        notifier=notifier,
        on_change=broadcast,
    )
    chat = ChatService(engine, limiter, tables.now, refused)
    blocks = Blocks(engine, limiter, tables.now)
    hub = Hub(tables, send_seconds=quotas.send_seconds, chat=chat, blocks=blocks)
    accounts = await asyncio.to_thread(Accounts, engine, tables.now, None, quotas.min_password_score)
    seats = Seats(tables, limiter, accounts)
    lobby = Lobby(tables, hub, seats, limiter, blocks)
    passwords = PasswordWork(config.password_hash_workers, config.password_hash_queue)
    metrics.watch(lambda: list(tables.tables.values()), bots)
    metrics.watch_passwords(passwords)
    return Services(
        config=config,
        engine=engine,
        beat_engine=beat_engine,
        beat_thread=ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-heartbeat"),
        bots=bots,
        tables=tables,
        hub=hub,
        chat=chat,
        lobby=lobby,
        rematches=Rematches(lobby),
        blocks=blocks,
        seats=seats,
        accounts=accounts,
        passwords=passwords,
        logins=await asyncio.to_thread(LoginGate, engine, limiter),
        listing=Listing(tables),
        limiter=limiter,
        metrics=metrics,
        refused=refused,
        notifier=notifier,
        recovery=Recovery(accounts, limiter, notifier, config.site),
        moderation=Moderation(accounts),
        listener=Listener(engine, hub, asyncio.get_running_loop()) if tables.postgres else None,
        friends=Friends(engine, limiter, tables.now, tables.health.presence_cutoff),
        once=Once(),
    )


def _notifier(config: ServerConfig, engine: Engine, metrics: Metrics) -> Notifier | None:
    """The turn e-mails' sender (its thread started), or None without ``--smtp``."""
    if config.smtp is None:
        return None
    addresses = config.addresses or account_addresses(engine)
    count = lambda outcome: metrics.emails.labels(outcome=outcome).inc()  # noqa: E731
    recipient = functools.partial(account_recipient, engine)
    notifier = Notifier(config.smtp, addresses, config.site, count, counts=MailCounts(engine), recipient=recipient)
    notifier.start()
    return notifier


async def start(services: Services) -> None:
    """Count the server up, make every live table due (bots restart, clocks are checked), start LISTEN."""
    started(services.metrics)
    await asyncio.to_thread(services.tables.wake_all)
    if services.listener is not None:
        await asyncio.to_thread(services.listener.start)


async def close(services: Services) -> None:
    """Stop what :func:`build` and :func:`start` started: LISTEN, bots, e-mails, presence, threads, engines."""
    if services.listener is not None:
        services.listener.stop()
    for live in list(services.tables.tables.values()):
        if live.bot_task is not None:
            live.bot_task.cancel()
    await asyncio.to_thread(services.bots.close)
    if services.notifier is not None:
        await asyncio.to_thread(services.notifier.stop)
    with contextlib.suppress(Exception):
        await asyncio.to_thread(services.tables.forget_presence)
    services.beat_thread.shutdown(wait=False, cancel_futures=True)
    services.passwords.close()
    services.engine.dispose()
    if services.beat_engine is not services.engine:
        services.beat_engine.dispose()
    stopped(services.metrics)


def attach(app: FastAPI, services: Services | None) -> None:
    """Make ``services`` the app's (None: the app stopped)."""
    app.state.services = services


def services_of(app: object) -> Services:
    """The running app's services (``app``: a FastAPI app, or a test client's ``app``).

    Raises:
        RuntimeError: the app is not running (its lifespan has not started, or has ended).
    """
    found = getattr(getattr(app, "state", None), "services", None)
    if not isinstance(found, Services):
        raise RuntimeError("the server's services are built when the app starts (its lifespan)")
    return found


def maybe_services(app: object) -> Services | None:
    """The app's services, or None before it starts or after it stopped (ops routes, error handlers)."""
    found = getattr(getattr(app, "state", None), "services", None)
    return found if isinstance(found, Services) else None


def get_services(connection: HTTPConnection) -> Services:
    """The FastAPI dependency of every route and WebSocket: the services of the app serving ``connection``."""
    return services_of(connection.app)


ServicesDep = Annotated[Services, Depends(get_services)]
"""A handler's parameter ``services: ServicesDep`` is its app's :class:`Services`."""


async def current_account(connection: HTTPConnection) -> Account | None:
    """The account whose session cookie ``connection`` (a request or a WebSocket) carries, or None.

    A server that is not running (no services) has no sessions: None.
    """
    services = maybe_services(connection.app)
    return await services.seats.account(connection) if services is not None else None
