"""The FastAPI application: the REST routes, the WebSocket of a seat or spectator, and the background loops.

``create_app(ServerConfig(...))`` builds an app; ``meeple serve`` runs it with uvicorn. At start-up the Alembic
migrations are applied, every live table is made due (bots restart, clocks are checked), and the sweeper (due
tables), the heartbeat (presence) and, on PostgreSQL, the LISTEN thread start.

While the database is down, REST routes answer 503 with ``Retry-After`` and new WebSockets are closed with 1013
("try again later"); a move that cannot be committed is answered ``server_error`` naming its ``move_id``.

Rules: issue "Play online: an authoritative game server"; docs/server.md (the protocol).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import os
import re
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Header, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from pydantic import TypeAdapter, ValidationError
from pydantic.json_schema import models_json_schema
from sqlalchemy.exc import DBAPIError

from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord
from meeple.core.registry import game_class, registered_games
from meeple.i18n import M, Translator, UnknownLanguageError, language_from_accept, translator
from meeple.server.account_api import add_account_routes
from meeple.server.accounts import Account, Accounts, current_account
from meeple.server.bots import BotBudget, BotPool
from meeple.server.chat import ChatService
from meeple.server.claims import add_claim_route
from meeple.server.clock import clock_view
from meeple.server.db import is_postgresql, make_engine, migrate
from meeple.server.hardening import CSP, SecurityMiddleware
from meeple.server.hashing import PasswordWork, PasswordWorkBusy
from meeple.server.health import DATABASE
from meeple.server.hub import VIEWS, Connection, Hub, Listener
from meeple.server.live import LiveTable, MoveRefused, SeatState, TableNotFound, TableRefused
from meeple.server.lobby import RATED_LOG_IN, Lobby, Match, SeatRefused
from meeple.server.logins import LoginGate
from meeple.server.metrics import Metrics, started, stopped
from meeple.server.mytables import MyTable, count_request, my_tables
from meeple.server.notify import Addresses, MailCounts, Notifier, SmtpSettings, account_addresses, remember_lang
from meeple.server.ops import LOOPBACK, add_ops_routes
from meeple.server.policy import SeatPolicy
from meeple.server.presence import HEARTBEAT, HEARTBEAT_DEGRADED
from meeple.server.protocol import (
    WEBSOCKET_MESSAGES,
    AckMessage,
    ChatSend,
    ClientMessage,
    CreateTable,
    JoinTable,
    KeepaliveMessage,
    MoveMessage,
    MuteMessage,
    QuickMatch,
    ReplayStep,
    ReturnMessage,
    SeatTaken,
    SeatToken,
    StartTable,
    TableCreated,
    TableStatus,
    TableSummary,
    TableView,
    UndoMessage,
)
from meeple.server.quotas import Limiter, QuotaExceeded, Quotas, quota_address
from meeple.server.rated import RatedRules
from meeple.server.reads import Listing, ReadQuota
from meeple.server.retry import is_outage, is_transient, one_line
from meeple.server.tables import TableService
from meeple.server.views import game_view, log_texts

log = logging.getLogger("meeple.server")

R = TypeVar("R", bound=Response)

LangQuery = Annotated[str | None, Query(description="language of the texts: en or fr (default: Accept-Language)")]
AcceptLanguage = Annotated[str | None, Header(include_in_schema=False)]


def _reader(lang: str | None, accept_language: str | None) -> Translator:
    """The reader's language: ``lang`` if given (422 if unknown), else the ``Accept-Language`` header, else English."""
    if lang is not None:
        try:
            return translator(lang)
        except UnknownLanguageError as exc:
            raise HTTPException(422, str(exc)) from None
    return translator(language_from_accept(accept_language))


NO_SEAT = M("this token opens no seat at this table")
"""403 (and the WebSocket's ``bad_token``): a seat token, cookie or session that opens no seat of the table."""


def _no_seat(http: Request, table_id: str | None = None) -> HTTPException:
    """403 :data:`NO_SEAT`, in the request's ``Accept-Language`` (else English).

    With ``table_id``, a seat cookie of that table the request carried opens nothing: the answer deletes it.
    """
    text = translator(language_from_accept(http.headers.get("accept-language"))).message(NO_SEAT)
    stale = table_id is not None and seat_cookie(table_id) in http.cookies
    return HTTPException(403, text, headers=expired_cookie_header(http, table_id) if stale and table_id else None)


_CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
SWEEP = 0.25
"""Seconds between two looks at the due tables (clocks, grace periods, overdue bots)."""
RETRY_AFTER = 2
"""Seconds a client is told to wait (``Retry-After``) when the database is down."""
TRY_AGAIN_LATER = 1013
"""The WebSocket close code of a connection that cannot be served now (RFC 6455 registry: "Try Again Later")."""
STUCK_CHECK = 2.0
"""Seconds between two looks for clients that stopped reading (their frames wait past ``send_seconds``)."""
HOUSEKEEPING = 60.0
"""Seconds between two looks for idle tables to end as abandoned and cached tables to drop from memory."""
CUT = 40
"""Characters of a client's input quoted back in an error message, at most."""
SEAT_COOKIE_DAYS = 60
"""How long a browser keeps the seat cookie set by a join or a quick match (as the invite link's, meeple.web)."""


@dataclass(frozen=True)
class ServerConfig:
    """How to run a server.

    Attributes:
        db: SQLAlchemy database URL (``sqlite:///path`` or ``postgresql+psycopg://...``).
        bot_workers: bot processes (0: a thread in the server process).
        allow_seed: accept a ``seed`` when a table is created (known deals: tests, tournaments).
        process: this process's id in presence rows (default: random).
        policy: the seats and bots a table may have, and a bot move's wall-clock cap
            (``--allow-bot-specs``, ``--allow-bot-tables``, ``--bot-move-seconds``).
        quotas: quotas per client address and sizes (``--tables-per-minute``... ``--no-rate-limits``).
        public_urls: the addresses players use (``--public-url``): the invitations' links, and origins pages and
            WebSockets may come from.
        origins: more origins pages and WebSockets may come from (``--allow-origins``; by default this server's own
            address: :func:`meeple.server.hardening.default_origins`).
        trust_host: the ``Host`` a request came to is an origin too (behind a proxy: ``--forwarded-allow-ips``).
        api_docs: serve ``/docs`` and ``/openapi.json`` (``--api-docs``; off by default on a public server).
        metrics_allow_ips: who may read ``/metrics``: comma-separated addresses or CIDR networks, ``*`` for anyone
            (default: loopback; :mod:`meeple.server.ops`).
        smtp: where turn e-mails are sent (``--smtp``, with ``--mail-from``; :mod:`meeple.server.notify`); None:
            no e-mail at all.
        site: the server's public address, for the links in e-mails (``--public-url``, else ``http://HOST:PORT``).
        addresses: where a seat's e-mails go (default: the address of the account that holds the seat).
        password_hash_workers: threads that check or hash passwords at once (``--password-hash-workers``; each
            argon2 check holds 64 MiB for ~0.3 s; :mod:`meeple.server.hashing`).
        password_hash_queue: password calls that may wait for those threads; past it 503 (``--password-hash-queue``).
        rated: the rules every rated table plays by (``--rated-clock``, ``--rated-grace``, ``--rated-substitute``,
            ``--claim-after``; :mod:`meeple.server.rated`).
    """

    db: str
    bot_workers: int = max(1, (os.cpu_count() or 2) - 1)
    allow_seed: bool = False
    process: str | None = None
    policy: SeatPolicy = SeatPolicy()
    quotas: Quotas = Quotas()
    public_urls: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()
    trust_host: bool = False
    api_docs: bool = False
    metrics_allow_ips: str = LOOPBACK
    smtp: SmtpSettings | None = None
    site: str = "http://127.0.0.1:8000"
    addresses: Addresses | None = None
    password_hash_workers: int = 2
    password_hash_queue: int = 8
    rated: RatedRules = RatedRules()


def seat_cookie(table_id: str) -> str:
    """The name of the cookie that holds a browser's seat token at ``table_id`` (HttpOnly, SameSite=Strict)."""
    return f"meeple_seat_{table_id}"


def with_seat_cookie(response: R, request: Request, table_id: str, token: str) -> R:
    """``response`` setting the seat's cookie of ``table_id``: HttpOnly, SameSite=Strict, Secure over https.

    It lasts :data:`SEAT_COOKIE_DAYS` days; set by a join, a quick match, or an invite link's page (meeple.web).
    """
    response.set_cookie(
        seat_cookie(table_id),
        token,
        max_age=SEAT_COOKIE_DAYS * 86_400,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def expired_cookie_header(request: Request, table_id: str) -> dict[str, str]:
    """The ``Set-Cookie`` header that deletes the seat cookie of ``table_id`` (attributes as it was set).

    Sent when the cookie opens no seat (its token was replaced, its account's sessions ended): a stale cookie is not
    sent again with every page and board fetch, each counted as a wrong token (issue #41, item 10).
    """
    response = Response()
    response.delete_cookie(
        seat_cookie(table_id), httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )
    return {"set-cookie": response.headers["set-cookie"]}


def client_address(connection: Request | WebSocket) -> str:
    """The client's address as every per-address quota counts it (:func:`meeple.server.quotas.quota_address`).

    It is the peer's, or the last ``X-Forwarded-For`` hop as uvicorn resolved it for a proxy named in
    ``--forwarded-allow-ips``; an IPv6 address stands for its /56 network, an IPv4-mapped one for its IPv4 address.
    """
    return quota_address(connection.client.host) if connection.client is not None else "unknown"


def validation_text(error: Any, reader: Translator) -> str:
    """One problem of a pydantic validation error, in ``reader``'s language when it is one of meeple's messages.

    A refused name or chat line (:class:`meeple.server.people.TextRefused`) reads in the page's or connection's
    language; other problems are pydantic's English words, cut to 200 characters.
    """
    raised = (error.get("ctx") or {}).get("error")
    if isinstance(raised, MeepleError):
        return reader.message(raised.message)
    return cut(str(error["msg"]), 200)


def cut(text: str, limit: int = CUT) -> str:
    """``text`` cut to ``limit`` characters (an error quotes a client's input only this far)."""
    return text if len(text) <= limit else text[:limit] + "…"


async def check_token(state: dict[str, Any], table_id: str, token: str, address: str) -> int | None:
    """The seat ``token`` opens at ``table_id``, or None; wrong tokens are counted per address.

    Raises:
        QuotaExceeded: ``address`` presented too many wrong tokens this minute (even a right one is then refused
            until the window has passed, so guessing gains nothing by going on).
    """
    limiter: Limiter = state["limiter"]
    wait = limiter.blocked("bad_token", address)
    if wait is not None:
        raise QuotaExceeded(f"too many wrong seat tokens; try again in {wait} s", wait, "bad_token")
    service: TableService = state["service"]
    seat = await asyncio.to_thread(service.seat_of_token, table_id, token)
    if seat is None:
        limiter.wrong_token(address, table_id, token)  # a value already counted this minute is not counted again
    return seat


def create_app(config: ServerConfig) -> FastAPI:
    """Return the server's FastAPI application for ``config`` (the database is migrated at start-up)."""
    metrics = Metrics()

    def count_refused(reason: str) -> None:
        _count_refused(reason)
        metrics.refused(reason)

    state: dict[str, Any] = {"limiter": Limiter(config.quotas), "refused": count_refused}
    limiter: Limiter = state["limiter"]

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(config.db)
        await asyncio.to_thread(migrate, engine)
        quotas = config.quotas
        budget = BotBudget(quotas.bot_cpu_per_address if quotas.rate_limits else 0.0)
        bots = BotPool(config.bot_workers, config.policy.move_seconds, budget=budget, fair=quotas.rate_limits)
        # the heartbeat has its own connection and thread: stuck transactions cannot starve it
        beat_engine = make_engine(config.db, pool_size=1) if is_postgresql(engine) else engine
        beat_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meeple-heartbeat")
        service = TableService(
            engine,
            bots,
            process=config.process,
            allow_seed=config.allow_seed,
            policy=config.policy,
            quotas=config.quotas,
            heartbeat_engine=beat_engine,
            rated=config.rated,
        )
        if config.smtp is not None:
            addresses = config.addresses or account_addresses(engine)
            count = lambda outcome: metrics.emails.labels(outcome=outcome).inc()  # noqa: E731
            service.notifier = Notifier(config.smtp, addresses, config.site, count, counts=MailCounts(engine))
            service.notifier.start()
        hub = Hub(service, send_seconds=config.quotas.send_seconds)
        lobby = Lobby(service)
        hub.chat = ChatService(engine, limiter, service.now, lambda reason: state["refused"](reason))
        service.metrics = bots.metrics = metrics
        metrics.watch(lambda: list(service.tables.values()), bots)
        accounts = await asyncio.to_thread(Accounts, engine, service.now, None, config.quotas.min_password_score)
        passwords = PasswordWork(config.password_hash_workers, config.password_hash_queue)
        metrics.watch_passwords(passwords)
        logins = await asyncio.to_thread(LoginGate, engine, limiter)
        state.update(service=service, hub=hub, engine=engine, lobby=lobby, accounts=accounts, passwords=passwords)
        state.update(logins=logins, listing=Listing(service))
        started(metrics)
        app.state.meeple = state  # the web pages (meeple.web) reach the service through it
        await asyncio.to_thread(service.wake_all)
        loop = asyncio.get_running_loop()
        if service.postgres:
            hub.listener = Listener(engine, hub, loop)
            await asyncio.to_thread(hub.listener.start)
        tasks = [
            loop.create_task(_sweeper(service, lobby)),
            loop.create_task(_heartbeat(service, hub, beat_thread)),
            loop.create_task(_housekeeping(service, lobby)),
            loop.create_task(_drop_stuck(hub)),
        ]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            if hub.listener is not None:
                hub.listener.stop()
            for live in list(service.tables.values()):
                if live.bot_task is not None:
                    live.bot_task.cancel()
            await asyncio.to_thread(bots.close)
            if service.notifier is not None:
                await asyncio.to_thread(service.notifier.stop)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(service.forget_presence)
            beat_thread.shutdown(wait=False, cancel_futures=True)
            passwords.close()
            engine.dispose()
            if beat_engine is not engine:
                beat_engine.dispose()
            stopped(metrics)

    app = FastAPI(
        title="meeple server",
        version="1",
        summary="Authoritative tables for Citadels, Capitol, Capital Lux 2 and Caprice (docs/server.md).",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if config.api_docs else None,
    )
    app.add_middleware(ReadQuota, limiter=limiter, on_refused=lambda reason: state["refused"](reason))
    app.add_middleware(
        SecurityMiddleware,
        public_urls=config.public_urls + config.origins,
        trust_host=config.trust_host,
        body_bytes=config.quotas.body_bytes,
        on_refused=lambda reason: state["refused"](reason),
    )
    if config.api_docs:
        _add_api_docs(app)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 naming each bad field, never echoing the input (at most five problems, each cut short)."""
        problems = [
            {"loc": [cut(str(part)) for part in e["loc"][:6]], "msg": cut(str(e["msg"]), 200), "type": e["type"]}
            for e in exc.errors()[:5]
        ]
        return JSONResponse({"detail": problems}, status_code=422)

    @app.exception_handler(QuotaExceeded)
    async def too_many(request: Request, exc: QuotaExceeded) -> JSONResponse:
        """429 with ``Retry-After`` (the message in ``Accept-Language`` where it has a translated form)."""
        state["refused"](exc.reason)
        headers = {"Retry-After": str(exc.retry_after)}
        reader = translator(language_from_accept(request.headers.get("accept-language")))
        return JSONResponse({"detail": exc.words(reader)}, status_code=429, headers=headers)

    @app.exception_handler(PasswordWorkBusy)
    async def busy(request: Request, exc: PasswordWorkBusy) -> JSONResponse:
        """503 with ``Retry-After``: the password threads and their queue are full (:mod:`.hashing`)."""
        state["refused"]("password_busy")
        text = translator(language_from_accept(request.headers.get("accept-language"))).message(exc.message)
        return JSONResponse({"detail": text}, status_code=503, headers={"Retry-After": str(exc.retry_after)})

    def openapi() -> dict[str, Any]:
        """FastAPI's schema of the REST routes, plus the WebSocket messages (which OpenAPI cannot describe)."""
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
            mode: Literal["validation"] = "validation"
            models = [(m, mode) for m in WEBSOCKET_MESSAGES]
            _, defs = models_json_schema(models, ref_template="#/components/schemas/{model}")
            schema.setdefault("components", {}).setdefault("schemas", {}).update(defs.get("$defs", {}))
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_exception_handler(DBAPIError, _database_error)
    add_ops_routes(app, metrics, lambda: state.get("engine"), config.metrics_allow_ips, lambda: _faults(state))

    def service() -> TableService:
        s: TableService = state["service"]
        return s

    async def table(table_id: str) -> LiveTable:
        try:
            return await service().read(table_id)  # a finished table is not kept in memory for a read
        except TableNotFound as exc:
            raise HTTPException(
                404, str(exc) if isinstance(exc, TableRefused) else f"no table {cut(table_id)!r}"
            ) from None

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        """The games a table can be created for: player counts, variant flags and their ranges (``meeple rules``)."""
        return [
            {"game": name, "params": [p.to_json() for p in game_class(name).describe_params()]}
            for name in registered_games()
        ]

    @app.post(
        "/api/tables",
        status_code=201,
        response_model=TableCreated,
        responses={413: {"description": "body too large"}, 429: {"description": "quota reached (Retry-After)"}},
    )
    async def create_table(request: CreateTable, http: Request) -> dict[str, Any]:
        """Create a table: one secret token per human seat, shown only in this answer (422 for a bad request).

        Logged in (session cookie), the first ``human`` seat is bound to the account and named by its username: the
        session opens it on any device. ``rated: true`` needs a log-in (401) and seats ``["human", "open", ...]``.

        Quotas per client address: ``--tables-per-minute``, ``--max-tables-per-address`` live tables, and
        ``--max-tables`` in all (429 with ``Retry-After``).
        """
        address = client_address(http)
        limiter.hit("tables", address, "tables created")
        account = await current_account(http)
        if request.rated and account is None:
            raise HTTPException(401, "rated: log in to create a rated table (POST /api/session)")
        bound = (account.id, account.username) if account is not None else None
        try:
            table_id, tokens = await asyncio.to_thread(service().create, request, address, bound)
        except MeepleError as exc:
            raise HTTPException(422, str(exc)) from None
        await service().evaluate(table_id)  # a bot may have the first move; a clock may start
        return {"table": table_id, "seats": [{"seat": s, "token": t} for s, t in tokens]}

    _lobby_routes(app, state)
    add_account_routes(app, state)
    add_claim_route(app, state, presented_seat)

    @app.get("/api/me/tables", response_model=list[MyTable], responses={401: {"description": "not logged in"}})
    async def me_tables(
        http: Request, lang: LangQuery = None, accept_language: AcceptLanguage = None
    ) -> list[dict[str, Any]]:
        """The logged-in account's live and waiting tables: its turns first (soonest deadline first).

        Each: the table, game, status, the account's ``seat``, ``your_turn``, ``current_player``, the seats (public
        names), ``turn_based``, ``per_move`` and the running turn's ``deadline``: nothing hidden, no token. 401
        without a session. Names of bots and unnamed seats in ``lang`` (else ``Accept-Language``, else English).
        429 with ``Retry-After`` past ``--my-tables-per-minute`` per address or per account.
        """
        reader = _reader(lang, accept_language)
        account = await current_account(http)
        if account is None:
            raise HTTPException(401, reader.message(M("log in first")))
        count_request(limiter, client_address(http), account.id)
        return await my_tables(service(), account.id, reader)

    @app.get("/api/tables", response_model=list[TableSummary])
    async def list_tables(
        limit: Annotated[int, Query(ge=1, le=200, description="tables per page")] = 50,
        before: Annotated[float | None, Query(description="only tables created before this (Unix seconds)")] = None,
        status: Annotated[TableStatus | None, Query(description="only tables of this status")] = None,
        lang: LangQuery = None,
        accept_language: AcceptLanguage = None,
    ) -> list[dict[str, Any]]:
        """The newest tables (game, parameters, seats, status): no secrets.

        At most ``--lobby-per-address`` tables of one creator are listed. Page back with ``before`` = the
        ``created`` of the last table of a page. A table with free open seats is ``waiting`` (``seats[s].open``);
        ``status=waiting`` lists only those. The names of bots and unnamed seats are in ``lang`` (else
        ``Accept-Language``, else English).
        """
        reader = _reader(lang, accept_language)
        rows = await state["listing"].rows(limit, before, status)
        return [
            {
                "table": r.id,
                "game": r.game,
                "params": r.params,
                "status": r.status,
                "created": r.created,
                "clock": clock_view(r.clock),
                "rated": bool(r.rated),
                "grace": r.grace,
                "substitute": r.substitute,
                "ended": r.ended,
                "seats": [
                    SeatState(
                        s.player,
                        s.bot_played,
                        s.reason,
                        online.get(s.seat, False),
                        name=s.name,
                        account=users.get(s.seat),
                        forfeit=s.forfeit,
                    ).public(s.seat, reader)
                    for s in seats
                ],
            }
            for r, seats, online, users in rows
        ]

    @app.get("/api/tables/{table_id}", response_model=TableView)
    async def get_table(
        table_id: str, lang: LangQuery = None, accept_language: AcceptLanguage = None
    ) -> dict[str, Any]:
        """The spectator's view of a table: exactly what a spectator's WebSocket is sent (texts in ``lang``)."""
        live = await table(table_id)
        reader = _reader(lang, accept_language)
        async with live.lock:
            view = game_view(live.state, None, live.log_of(None), reader)
            return {
                "table": live.id,
                "game": live.game,
                "params": live.params,
                "status": live.status,
                "created": live.created,
                "clock": clock_view(live.clock),
                "rated": live.rated,
                "grace": live.grace,
                "substitute": live.substitute,
                "ended": live.ended,
                "seats": live.public_seats(reader),
                "version": view["version"],
                "observation": view["observation"],
                "log": log_texts(live.log_of(None), reader),
                "returns": view["returns"],
            }

    @app.get("/api/tables/{table_id}/record", responses={409: {"description": "the game is not over"}})
    async def record(table_id: str) -> dict[str, Any]:
        """The ``meeple-record/1`` record (game, params, seed, actions) of a finished game; 409 while it runs."""
        live = await table(table_id)
        if not live.over:  # live, or waiting for players: its deal is dealt and secret
            raise HTTPException(409, "the game is not over: its record (seed and hidden moves) is secret until then")
        labels = [s.name or s.player for s in live.seats]
        return GameRecord.from_state(live.state, players=labels, table=live.id).to_json()

    @app.get("/api/tables/{table_id}/replay", response_model=ReplayStep)
    async def replay(
        table_id: str,
        version: Annotated[int, Query(ge=0, description="actions applied")] = 0,
        seat: Annotated[int | None, Query(ge=0, description="a seat's view; omitted: the full view")] = None,
        lang: LangQuery = None,
        accept_language: AcceptLanguage = None,
    ) -> dict[str, Any]:
        """A finished game after ``version`` actions, from ``seat``'s view or the full view; 409 while it runs."""
        live = await table(table_id)
        if not live.over:  # live, or waiting for players: its deal is dealt and secret
            raise HTTPException(409, "the game is not over: replays open when it ends")
        total = len(live.state.history)
        if version > total or (seat is not None and seat >= len(live.seats)):
            raise HTTPException(422, f"version is 0..{total} and seat 0..{len(live.seats) - 1} (or omitted)")
        record = GameRecord.from_state(live.state)
        everyone = range(len(live.seats))
        state = await asyncio.to_thread(record.replay, version)
        return {
            "table": live.id,
            "version": version,
            "versions": total,
            "seat": seat,
            "observation": dict(state.observation(seat)),
            "seat_observations": None if seat is not None else [dict(state.observation(s)) for s in everyone],
            "log": log_texts(state.history_messages(seat), _reader(lang, accept_language)),
        }

    @app.post("/api/tables/{table_id}/token", response_model=SeatToken)
    async def rotate_token(table_id: str, http: Request, authorization: Annotated[str | None, Header()] = None) -> Any:
        """A seat's holder replaces its token: the new one is in the answer; the old link and cookie stop working.

        The seat is named by ``Authorization: Bearer TOKEN``, the page's seat cookie, or the session of the account
        it is bound to. The seat's connections that a token or a seat cookie opened are closed (1008), in every
        process; those an account's session opened stay.
        """
        await table(table_id)
        seat = await presented_seat(state, http, table_id, authorization)
        if seat is None:
            raise _no_seat(http, None if authorization else table_id)
        new = await state["hub"].rotate_token(table_id, seat)
        return {"seat": seat, "token": new}

    @app.websocket("/api/tables/{table_id}/ws")
    async def socket(
        websocket: WebSocket, table_id: str, token: str | None = None, lang: str | None = None, view: str | None = None
    ) -> None:
        """A seat's or a spectator's connection; see docs/server.md.

        The seat is named by ``?token=``, else the page's seat cookie, else the session of the account it is bound to.

        The texts it is sent are in ``?lang=`` (``en``, ``fr``), else the handshake's ``Accept-Language``, else
        English; an unknown ``lang`` gets a ``bad_message`` error naming the languages, then English. ``?view=web``
        makes its state frames slim (the browser client's: version, seat to move, status); another ``view`` than
        ``full``/``web`` gets a ``bad_message`` error naming them, then full frames. An address holding
        ``--max-sockets-per-address`` connections already is refused (HTTP 429 at the handshake).
        """
        address = client_address(websocket)
        try:
            limiter.open_socket(address)
        except QuotaExceeded as exc:
            state["refused"](exc.reason)
            headers = {"Retry-After": str(exc.retry_after)}
            await websocket.send_denial_response(JSONResponse({"detail": exc.message}, 429, headers=headers))
            return
        try:
            await _open(websocket, table_id, token, lang, address, view)
        finally:
            limiter.close_socket(address)

    async def _open(
        websocket: WebSocket, table_id: str, token: str | None, lang: str | None, address: str, view: str | None
    ) -> None:
        await websocket.accept()
        try:
            await _welcome(websocket, table_id, token, lang, address, view)
        except DBAPIError as exc:
            if not is_transient(exc):
                raise
            log.warning("WebSocket of table %s closed (1013): %s", cut(table_id), one_line(exc))
            with contextlib.suppress(Exception):
                await websocket.close(code=TRY_AGAIN_LATER, reason="database unavailable; try again")

    async def _welcome(
        websocket: WebSocket, table_id: str, token: str | None, lang: str | None, address: str, view: str | None
    ) -> None:
        """The connection's seat, checked, then its messages (the database may fail: the caller closes 1013)."""
        reader = _reader(None, websocket.headers.get("accept-language"))
        if lang is not None:
            try:
                reader = translator(lang)
            except UnknownLanguageError as exc:
                await websocket.send_json(
                    {"type": "error", "code": "bad_message", "message": reader.message(exc.message)}
                )
        if view is not None and view not in VIEWS:
            wrong = M(
                "view is one of {views}, not {view!r}: full frames are sent", views=", ".join(VIEWS), view=cut(view, 40)
            )
            await websocket.send_json({"type": "error", "code": "bad_message", "message": reader.message(wrong)})
            view = None
        try:
            live = await service().get(table_id)
        except TableNotFound:
            no_table = reader.message(M("no table {table!r}", table=cut(table_id)))
            await websocket.send_json({"type": "error", "code": "bad_message", "message": no_table})
            await websocket.close(code=4404)
            return
        seat: int | None = None
        if token is None:  # no ?token=: the session's seat, else the page's seat cookie (a revoked one is not tried)
            seat = await account_seat(websocket, table_id)
            if seat is None:
                token = websocket.cookies.get(seat_cookie(table_id))
        by_token = token is not None
        if token is not None:
            try:
                seat = await check_token(state, table_id, token, address)
            except QuotaExceeded as exc:
                state["refused"](exc.reason)
                await websocket.send_json({"type": "error", "code": "bad_token", "message": exc.message})
                await websocket.close(code=1008)
                return
            if seat is None:
                bad = reader.message(NO_SEAT)
                await websocket.send_json({"type": "error", "code": "bad_token", "message": bad})
                await websocket.close(code=4401)
                return
        await _serve(websocket, state, live, seat, reader.lang, f"{address}#{id(websocket)}", view or "full", by_token)

    return app


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    """A REST request met a database error: 503 with ``Retry-After`` if it is transient, else 500.

    Transient: the database is down, a lock timed out (retry.py). One log line, no traceback, for those.
    """
    if not is_transient(exc):
        log.error("%s %s: %s", request.method, request.url.path, one_line(exc))
        return JSONResponse({"detail": "internal server error"}, status_code=500)
    state = getattr(request.app.state, "meeple", {})
    if "service" in state and is_outage(exc):
        state["service"].health.fail(DATABASE)
    log.warning("%s %s: 503, %s", request.method, request.url.path, one_line(exc))
    detail = "the database is unavailable; try again shortly"
    return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})


async def _serve(
    websocket: WebSocket,
    state: dict[str, Any],
    live: LiveTable,
    seat: int | None,
    lang: str,
    key: str,
    view: str = "full",
    by_token: bool = False,
) -> None:
    """Serve one connection (``view``: :data:`meeple.server.hub.VIEWS`): its messages in, bounded in size and rate.

    A message over the size bound closes the connection with 1009, more than the quota of messages with 1008.
    ``by_token``: a token or a seat cookie opened the seat (a new token closes the connection).
    """
    hub: Hub = state["hub"]
    service: TableService = state["service"]
    limiter: Limiter = state["limiter"]
    conn = Connection(websocket, seat, lang, hub.send_seconds, view)
    conn.by_token = by_token
    conn.reader = asyncio.current_task()
    conn.address = key.rsplit("#", 1)[0]
    if seat is not None:
        if service.notifier is not None:  # the language of its turn e-mails, if an account holds the seat
            with contextlib.suppress(Exception):
                await asyncio.to_thread(remember_lang, service.engine, live.id, seat, lang)
        try:
            await service.presence(live, seat, +1)
        except BaseException:
            service.connections.change(live.id, seat, -1)  # the heartbeat writes the count back
            raise
    async with live.lock:
        await hub.join(live, conn)
    try:
        if hub.chat is not None:
            await hub.chat.arrive(live, conn)
        while True:
            try:
                event = await websocket.receive()
            except RuntimeError:  # a failed send closed the socket (starlette's WebSocketDisconnected)
                break
            if event["type"] == "websocket.disconnect":
                break
            text = event.get("text")
            if text is None:
                text = (event.get("bytes") or b"").decode("utf-8", "replace")
            if len(text) > limiter.quotas.message_bytes:
                state["refused"]("message_size")
                await websocket.close(code=1009, reason=f"a message has at most {limiter.quotas.message_bytes} bytes")
                break
            try:
                limiter.hit("messages", key, "messages")
            except QuotaExceeded as exc:
                state["refused"](exc.reason)
                await websocket.close(code=1008, reason=cut(exc.message, 100))
                break
            try:
                await _handle(text, hub, service, live, conn)
            except Exception as exc:  # noqa: BLE001 - a database or server fault: say so, keep the connection
                _server_error(live, conn, exc, None)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if not conn.dropped or task is None:
            raise
        task.uncancel()  # our own cancellation: the client stopped reading (Connection.drop), or was revoked
        if conn.revoked:
            with contextlib.suppress(Exception):
                await websocket.close(code=1008, reason=conn.revoked)
        else:
            state["refused"]("not_reading")
    finally:
        hub.leave(live, conn)
        if seat is not None:
            # shielded: a cancelled handler (shutdown, a test client) still records that the seat's connection went;
            # otherwise the cache would call the seat connected until the table's next change (turn e-mails)
            with contextlib.suppress(Exception):
                await asyncio.shield(service.presence(live, seat, -1))


def _server_error(live: LiveTable, conn: Connection, exc: Exception, move_id: str | None) -> None:
    """Answer ``server_error`` (naming the move, if any) for a message the server could not handle.

    The log gets one line for a database fault, a traceback for anything else.
    """
    if is_transient(exc):
        log.warning("table %s: move %s not committed: %s", live.id, move_id, one_line(exc))
    else:
        log.error("table %s: a message could not be handled", live.id, exc_info=exc)
    message = M("the server could not handle this message now (nothing was changed); try again")
    text = conn.translator.message(message)
    conn.send({"type": "error", "code": "server_error", "message": text, "move_id": move_id})


async def _handle(text: str, hub: Hub, service: TableService, live: LiveTable, conn: Connection) -> None:
    try:
        message = _CLIENT_MESSAGE.validate_json(text)
    except ValidationError as exc:
        problems = "; ".join(
            f"{cut('.'.join(map(str, e['loc']))) or 'message'}: {validation_text(e, conn.translator)}"
            for e in exc.errors()[:5]
        )
        conn.send({"type": "error", "code": "bad_message", "message": problems})
        return
    if isinstance(message, MoveMessage | UndoMessage):
        await _play(message, hub, service, live, conn)
        return
    if isinstance(message, ChatSend | MuteMessage):
        if hub.chat is not None:
            await hub.chat.handle(message, live, conn)
        return
    if isinstance(message, ReturnMessage):
        if conn.seat is not None:
            await service.take_back(live, conn.seat)
        return
    if isinstance(message, KeepaliveMessage):
        conn.send({"type": "pong"})
        return
    async with live.lock:
        hub.resend(live, conn)


async def _play(
    message: MoveMessage | UndoMessage, hub: Hub, service: TableService, live: LiveTable, conn: Connection
) -> None:
    """A seat's move or undo: ``ack`` once committed, else the refusal and the current state (docs/server.md)."""
    if conn.seat is None:
        refused = conn.translator.message(M("a spectator cannot move"))
        conn.send({"type": "error", "code": "spectator", "message": refused, "move_id": None})
        return
    try:
        if isinstance(message, UndoMessage):
            applied = await service.undo(live, conn.seat, message.version, message.move_id)
        else:
            applied = await service.submit(live, conn.seat, message.action, message.version, message.move_id)
    except MoveRefused as exc:
        text = conn.translator.message(exc.message)
        conn.send({"type": "error", "code": exc.code, "message": text, "move_id": message.move_id})
        async with live.lock:  # then the current state, to act on
            hub.resend(live, conn)
        return
    except Exception as exc:  # noqa: BLE001 - not committed (the retries gave up): the client resends it
        _server_error(live, conn, exc, message.move_id)
        return
    async with live.lock:
        if not applied:  # a repeated move_id: the current state, then its acknowledgement
            hub.resend(live, conn)
        conn.send(ack_message(live, conn.seat, message.move_id))


def ack_message(live: LiveTable, seat: int, move_id: str) -> dict[str, Any]:
    """The ``ack`` of ``seat``'s move ``move_id`` (``protocol.AckMessage``).

    Its ``version`` is the seat's own (the length of its redacted log), so it tells the seat nothing its state frames
    do not (tests/server/test_leaks.py).
    """
    return AckMessage(move_id=move_id, version=len(live.log_of(seat))).model_dump()


async def _sweeper(service: TableService, lobby: Lobby) -> None:
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


def _faults(state: dict[str, Any]) -> list[str]:
    """The faults the table service reports (its ``health.faults``: the database or LISTEN lost), for ``/readyz``."""
    health = getattr(state.get("service"), "health", None)
    return [str(f) for f in getattr(health, "faults", None) or []]


async def account_seat(connection: Request | WebSocket, table_id: str) -> int | None:
    """The seat at ``table_id`` bound to the account whose session ``connection`` carries, or None."""
    account = await current_account(connection)
    if account is None:
        return None
    service: TableService = connection.app.state.meeple["service"]
    return await asyncio.to_thread(service.seat_of_account, table_id, account.id)


def _seat_holder_token(http: Request, table_id: str, authorization: str | None) -> str | None:
    """The seat token a request presents: ``Authorization: Bearer TOKEN``, else the page's seat cookie."""
    if authorization:
        return authorization.removeprefix("Bearer ").strip()
    return http.cookies.get(seat_cookie(table_id))


async def presented_seat(state: dict[str, Any], http: Request, table_id: str, authorization: str | None) -> int | None:
    """The seat a request opens: by ``Authorization: Bearer TOKEN``, else the session's account, else the seat cookie.

    The session comes before the cookie: a cookie left over from a revoked token (the account logged out everywhere
    or changed its password) is not counted as a wrong token while the session opens the seat.

    Raises:
        QuotaExceeded: too many wrong tokens from the address (:func:`check_token`).
    """
    address = client_address(http)
    if authorization:
        return await check_token(state, table_id, authorization.removeprefix("Bearer ").strip(), address)
    seat = await account_seat(http, table_id)
    token = http.cookies.get(seat_cookie(table_id))
    if seat is None and token:
        seat = await check_token(state, table_id, token, address)
    return seat


def _seated_tables(http: Request, limit: int = 64) -> list[str]:
    """The tables whose seat cookie this browser holds (at most ``limit``): quick match does not seat it there again."""
    prefix = seat_cookie("")
    return [name.removeprefix(prefix) for name in list(http.cookies)[:limit] if name.startswith(prefix)]


def _lobby_routes(app: FastAPI, state: dict[str, Any]) -> None:
    """``POST /api/tables/{id}/join``, ``/start``, ``/wait`` and ``POST /api/quickmatch`` (meeple.server.lobby)."""
    limiter: Limiter = state["limiter"]
    refusals: dict[int | str, dict[str, Any]] = {
        409: {"description": "full, started or over"},
        429: {"description": "quota reached (Retry-After)"},
    }

    def seated(http: Request, table_id: str, seat: int, token: str, status: int = 201) -> JSONResponse:
        """The answer giving a seat's token, which also sets the page's seat cookie (HttpOnly, SameSite=Strict)."""
        response = JSONResponse({"table": table_id, "seat": seat, "token": token}, status_code=status)
        return with_seat_cookie(response, http, table_id, token)

    async def holder(http: Request, table_id: str, authorization: str | None) -> int:
        seat = await presented_seat(state, http, table_id, authorization)
        if seat is None:
            raise _no_seat(http, None if authorization else table_id)  # a stale cookie is deleted
        return seat

    def refused(exc: SeatRefused, http: Request) -> HTTPException:
        return HTTPException(
            exc.status, translator(language_from_accept(http.headers.get("accept-language"))).message(exc.message)
        )

    @app.post("/api/tables/{table_id}/join", status_code=201, response_model=SeatTaken, responses=refusals)
    async def join(
        table_id: str, request: JoinTable, http: Request, authorization: Annotated[str | None, Header()] = None
    ) -> JSONResponse:
        """Take the first free open seat of a waiting table under ``name``: 201 ``{table, seat, token}``.

        Logged in, the seat is bound to the account and named by its username (``name`` may be left out); a rated
        table seats only logged-in players (401), each once (409).

        The answer also sets the seat's cookie. 409 if the table is full, started or over, or if the request
        already holds a seat there (its cookie or ``Authorization``); 404 for no such table; 429 past
        ``joins_per_minute`` per address. The last open seat taken starts the game, its clocks and its bots.
        """
        address = client_address(http)
        limiter.hit("joins", address, "seats taken")
        lobby: Lobby = state["lobby"]
        held = _seat_holder_token(http, table_id, authorization)
        if held and await check_token(state, table_id, held, address) is not None:
            raise HTTPException(409, "you already hold a seat at this table")
        account = await current_account(http)
        name = _seat_name(request.name, account)
        try:
            seat, token, started = await asyncio.to_thread(lobby.join, table_id, name, _bound(account))
        except TableNotFound:
            raise HTTPException(404, f"no table {cut(table_id)!r}") from None
        except SeatRefused as exc:
            raise refused(exc, http) from None
        await lobby.announce(table_id, started)
        return seated(http, table_id, seat, token)

    @app.post("/api/tables/{table_id}/start", responses={403: {"description": "not the creator"}, **refusals})
    async def start(
        table_id: str,
        http: Request,
        request: StartTable | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The creator (a seat not taken through ``join``) starts a waiting table now, a bot in each open seat.

        Named by ``Authorization: Bearer TOKEN`` or the page's seat cookie. ``bot`` (default ``medium``) is a level
        the server allows. 403 for another seat or a wrong token, 409 if the table is not waiting.
        """
        lobby: Lobby = state["lobby"]
        seat = await holder(http, table_id, authorization)
        bot = (request or StartTable()).bot
        try:
            await asyncio.to_thread(lobby.start, table_id, seat, bot)
        except SeatRefused as exc:
            raise refused(exc, http) from None
        except MeepleError as exc:
            raise HTTPException(422, str(exc)) from None
        await lobby.announce(table_id, started=True)
        return {"table": table_id, "status": "live"}

    @app.post("/api/tables/{table_id}/wait", responses={403: {"description": "not the creator"}, **refusals})
    async def keep_waiting(
        table_id: str, http: Request, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The creator of a quick-match table waits for players: no bots take its seats at the end of the wait.

        The table still ends as abandoned if its seats are not taken within the day.
        """
        lobby: Lobby = state["lobby"]
        seat = await holder(http, table_id, authorization)
        try:
            await asyncio.to_thread(lobby.keep_waiting, table_id, seat)
        except SeatRefused as exc:
            raise refused(exc, http) from None
        await lobby.announce(table_id, started=False)
        return {"table": table_id, "status": "waiting"}

    @app.post("/api/quickmatch", status_code=201, response_model=SeatTaken, responses=refusals)
    async def quickmatch(request: QuickMatch, http: Request) -> JSONResponse:
        """A seat at the oldest waiting quick-match table of ``game`` and ``players``, or at a new one.

        201 ``{table, seat, token}`` (and the seat's cookie). Two such requests meet at one table; unless its
        creator starts it or chooses to wait, bots take the open seats after a minute. 422 for an unknown game or
        player count; 429 past ``joins_per_minute``, or the quotas of table creation when a table is opened.
        Logged in, the seat is bound to the account (``name`` may be left out) and tables where it sits already are
        skipped. ``rated: true`` (log-in needed, else 401) meets only logged-in players at rated tables: no bots
        take their seats, they wait for players (and end as abandoned after ``--waiting-hours``).
        """
        address = client_address(http)
        limiter.hit("joins", address, "seats taken")
        lobby: Lobby = state["lobby"]
        account = await current_account(http)
        if request.rated and account is None:
            raise refused(SeatRefused(401, RATED_LOG_IN), http)
        match = Match(request.game, request.players, _seat_name(request.name, account), request.rated, _bound(account))
        try:
            table_id, seat, token, started = await asyncio.to_thread(
                lobby.quickmatch, match, address, _seated_tables(http)
            )
        except SeatRefused as exc:
            raise refused(exc, http) from None
        except MeepleError as exc:
            raise HTTPException(422, str(exc)) from None
        await lobby.announce(table_id, started)
        return seated(http, table_id, seat, token)


def _bound(account: Account | None) -> tuple[int, str] | None:
    return (account.id, account.username) if account is not None else None


def _seat_name(name: str | None, account: Account | None) -> str:
    """The name a new seat gets: a logged-in player's username, else the ``name`` given (422 if none was)."""
    if account is not None:
        return account.username
    if name is None:
        problem = {"loc": ["body", "name"], "msg": "a name is needed unless you are logged in", "type": "missing"}
        raise HTTPException(422, [problem])
    return name


def _count_refused(reason: str) -> None:
    """Note a request refused by a limit (``origin``, ``body_size``, ``tables``, ``bad_token``...)."""
    log.info("refused: %s", reason)


def _add_api_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI served from this server (the ``swagger-ui-bundle`` package's files; no CDN).

    Raises:
        MeepleError: the package is not installed (``pip install 'meeple[apidocs]'``).
    """
    try:
        from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]
    except ModuleNotFoundError:
        raise MeepleError("--api-docs needs the Swagger UI files: pip install 'meeple[apidocs]'") from None
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.staticfiles import StaticFiles

    app.mount("/static/api-docs", StaticFiles(directory=swagger_ui_path), name="api-docs")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        page = get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="meeple server API",
            swagger_js_url="/static/api-docs/swagger-ui-bundle.js",
            swagger_css_url="/static/api-docs/swagger-ui.css",
            swagger_favicon_url="/static/api-docs/favicon-32x32.png",
        )
        # the page starts Swagger UI with one inline script: allowed by its hash, nothing else inline
        hashes = " ".join(
            f"'sha256-{base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()}'"
            for code in re.findall(r"<script>(.*?)</script>", bytes(page.body).decode(), re.S)
        )
        page.headers["content-security-policy"] = CSP.replace("script-src 'self'", f"script-src 'self' {hashes}")
        return page


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
