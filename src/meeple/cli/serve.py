"""``meeple serve``: host tables for friends at a distance (the authoritative game server).

``meeple serve`` alone serves on 127.0.0.1:8000 with an SQLite database in the user's data directory. With a game
(``meeple serve citadels --seats human,human,bot:hard``) it first creates that table and prints one invitation per
human seat: the command that joins it from another terminal.

Rules: issue "Play online: an authoritative game server" (running it); docs/server.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.cli.common import GAME_OPTIONS, fail, load_game_or_exit, stdout_console
from meeple.core.errors import MeepleError
from meeple.i18n import _
from meeple.server.clock import parse_clock
from meeple.server.db import shown_url
from meeple.server.notify import MAILS_PER_DAY, SmtpSettings
from meeple.server.protocol import ClockSpec, CreateTable
from meeple.server.rated import RatedRules

STARTUP_FAILURE = 1
"""The exit code of ``meeple serve`` when it cannot start: the database or the address is unusable."""
SHUTDOWN_SECONDS = 5
"""Seconds SIGTERM (or Ctrl-C) waits for open requests and connections before the server stops them."""


GRACE = 120.0
"""Seconds an away human's turn waits before a bot plays it (the table of ``meeple serve GAME``; turn-based: none)."""


def default_db() -> str:
    """The embedded database of ``meeple serve``: ``server.db`` in the user's data directory (platformdirs)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('meeple')) / 'server.db'}"


def create_table(db: str, request: CreateTable) -> tuple[str, list[tuple[int, str]]]:
    """Create a table in the database ``db`` (migrated first); return its id and the human seats' tokens.

    Raises:
        MeepleError: a bad game, parameter, seat or bot spec (the message says which).
    """
    from meeple.server.bots import BotPool
    from meeple.server.db import make_engine, migrate
    from meeple.server.policy import SeatPolicy
    from meeple.server.tables import TableService

    engine = make_engine(db)
    try:
        migrate(engine)
        # the operator's own table: any bot spec, bots only if they like, any grace (bot moves are capped all the same)
        policy = SeatPolicy(any_bot=True, bot_tables=True, min_grace=0.0)
        return TableService(engine, BotPool(0), policy=policy).create(request)
    finally:
        engine.dispose()


def serve(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Argument(help="Create a table of this game first and print its invitations.")
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="MEEPLE_DB",
            help="Database URL: sqlite:///FILE (default: in the user data dir) or postgresql+psycopg://...",
        ),
    ] = None,
    seats: Annotated[
        str | None, typer.Option("--seats", help="With GAME: comma-separated human / bot:SPEC per seat.")
    ] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="With GAME: number of players.")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-V", help="With GAME: variant KEY=VALUE.")] = None,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock",
            help="With GAME: a clock INITIAL[+INCREMENT] in seconds (600+10), or a time per move (90s, 2m; 1h to 14d:"
            " turn-based play).",
        ),
    ] = None,
    grace: Annotated[
        float | None,
        typer.Option(
            "--grace",
            help="With GAME: seconds before an away human's turn is bot-played (turn-based: none by default).",
        ),
    ] = GRACE,
    bot_workers: Annotated[int | None, typer.Option("--bot-workers", help="Bot processes (default: cores-1).")] = None,
    password_hash_workers: Annotated[
        int,
        typer.Option(
            "--password-hash-workers", min=1, max=64, help="Password checks at once (each argon2 check: 64 MiB)."
        ),
    ] = 2,
    password_hash_queue: Annotated[
        int,
        typer.Option("--password-hash-queue", min=0, max=1000, help="Password checks that may wait; past it 503."),
    ] = 8,
    allow_seed: Annotated[bool, typer.Option("--allow-seed", help="Accept a deal seed in POST /api/tables.")] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            envvar="MEEPLE_PUBLIC_URL",
            help="The address players use (behind a router or proxy): invitations, and the origin pages may come from.",
        ),
    ] = None,
    smtp: Annotated[
        str | None,
        typer.Option(
            "--smtp",
            envvar="MEEPLE_SMTP",
            help="Send turn e-mails of turn-based tables through this server: smtp://, smtp+starttls:// or"
            " smtps://[USER:PASSWORD@]HOST[:PORT]. Without it no e-mail is sent.",
        ),
    ] = None,
    mail_from: Annotated[
        str | None,
        typer.Option("--mail-from", envvar="MEEPLE_MAIL_FROM", help="The From address of e-mails (with --smtp)."),
    ] = None,
    mails_per_day: Annotated[
        int,
        typer.Option(
            "--mails-per-day",
            min=1,
            max=10_000,
            help="Turn e-mails one address may be sent per UTC day (with --smtp); past it none until the next day.",
        ),
    ] = MAILS_PER_DAY,
    allow_origins: Annotated[
        str | None,
        typer.Option(
            "--allow-origins",
            envvar="MEEPLE_ALLOW_ORIGINS",
            help="More origins (comma-separated scheme://host[:port]) whose pages may post and open WebSockets,"
            " besides --public-url, this server's address and, listening there, localhost.",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Proxies (comma-separated IPs, or *) whose X-Forwarded-For/-Proto are trusted for the client address.",
        ),
    ] = None,
    allow_bot_specs: Annotated[
        bool,
        typer.Option("--allow-bot-specs", help="Accept any bounded bot spec, not only bot:random/easy/medium/hard."),
    ] = False,
    allow_bot_tables: Annotated[
        bool, typer.Option("--allow-bot-tables", help="Accept tables without a human seat.")
    ] = False,
    bot_move_seconds: Annotated[
        float, typer.Option("--bot-move-seconds", min=0.1, help="Wall-clock seconds a bot may think about one move.")
    ] = 10.0,
    tables_per_minute: Annotated[
        int, typer.Option("--tables-per-minute", min=1, help="Tables one address may create per minute.")
    ] = 10,
    max_tables_per_address: Annotated[
        int, typer.Option("--max-tables-per-address", min=1, help="Live tables one address may have created.")
    ] = 20,
    max_tables: Annotated[
        int, typer.Option("--max-tables", min=1, help="Started tables in all (a human came); past it 429.")
    ] = 2000,
    max_unstarted_tables: Annotated[
        int,
        typer.Option(
            "--max-unstarted-tables",
            min=1,
            help="Tables nobody has come to yet (waiting, or live and never opened); past it the oldest is aborted.",
        ),
    ] = 1000,
    no_start_minutes: Annotated[
        float,
        typer.Option(
            "--no-start-minutes",
            min=0.1,
            max=1440,
            help="A table whose player to move never came is aborted after this long (from the start or last move).",
        ),
    ] = 5.0,
    bot_cpu_per_address: Annotated[
        float,
        typer.Option(
            "--bot-cpu-per-address",
            min=1,
            help="CPU seconds an hour the bots of one creator address's tables may think; past it they wait.",
        ),
    ] = 900.0,
    min_grace: Annotated[
        float,
        typer.Option("--min-grace", min=0, max=86_400, help="The shortest grace (seconds) a new table may ask for."),
    ] = 30.0,
    rated_clock: Annotated[
        str,
        typer.Option("--rated-clock", help="The clock of every rated table: a time per move (2m) or a bank (600+10)."),
    ] = "2m",
    rated_grace: Annotated[
        float,
        typer.Option(
            "--rated-grace",
            min=60,
            max=86_400,
            help="Seconds a rated seat may be away on its turn before it forfeits (none with a turn-based clock).",
        ),
    ] = 120.0,
    rated_substitute: Annotated[
        str,
        typer.Option(
            "--rated-substitute", help="The bot that plays a forfeited rated seat: random, easy, medium or hard."
        ),
    ] = "medium",
    claim_after: Annotated[
        float,
        typer.Option(
            "--claim-after",
            min=10,
            max=86_400,
            help="Seconds a rated seat to move must be away before another player may claim against it.",
        ),
    ] = 60.0,
    max_sockets_per_address: Annotated[
        int, typer.Option("--max-sockets-per-address", min=1, help="WebSocket connections one address may hold.")
    ] = 32,
    messages_per_minute: Annotated[
        int, typer.Option("--messages-per-minute", min=1, help="Messages one WebSocket may send per minute.")
    ] = 240,
    bad_tokens_per_minute: Annotated[
        int, typer.Option("--bad-tokens-per-minute", min=1, help="Wrong seat tokens one address may try per minute.")
    ] = 10,
    idle_days: Annotated[
        float, typer.Option("--idle-days", min=0.001, help="A table nobody moved at for this long ends as abandoned.")
    ] = 14.0,
    joins_per_minute: Annotated[
        int, typer.Option("--joins-per-minute", min=1, help="Open seats one address may take per minute.")
    ] = 20,
    chats_per_minute: Annotated[
        int, typer.Option("--chats-per-minute", min=1, help="Chat lines one address may send per minute.")
    ] = 20,
    waiting_hours: Annotated[
        float,
        typer.Option("--waiting-hours", min=0.001, help="A table whose open seats stay free this long is abandoned."),
    ] = 24.0,
    quickmatch_wait: Annotated[
        float,
        typer.Option("--quickmatch-wait", min=0.0, help="Seconds before bots take a quick-match table's open seats."),
    ] = 60.0,
    logins_per_minute: Annotated[
        int,
        typer.Option(
            "--logins-per-minute",
            min=1,
            help="Log-in attempts per address a minute (failures per username and address: 3x that an hour).",
        ),
    ] = 10,
    logins_per_username: Annotated[
        int,
        typer.Option(
            "--logins-per-username",
            min=1,
            help="Log-in attempts at one username from devices it never logged in from, per 10 minutes, whatever"
            " their addresses.",
        ),
    ] = 10,
    min_password_score: Annotated[
        int,
        typer.Option(
            "--min-password-score",
            min=0,
            max=4,
            help="The lowest strength (zxcvbn score, 0-4) of a new password; 0 accepts any of 8-128 characters.",
        ),
    ] = 3,
    reads_per_minute: Annotated[
        int,
        typer.Option(
            "--reads-per-minute",
            min=1,
            help="Pages and API reads (GET) one address may make per minute; static files and probes do not count.",
        ),
    ] = 300,
    my_tables_per_minute: Annotated[
        int,
        typer.Option(
            "--my-tables-per-minute", min=1, help='"My tables" lists one address, and one account, may ask per minute.'
        ),
    ] = 30,
    signups_per_minute: Annotated[
        int, typer.Option("--signups-per-minute", min=1, help="Accounts one address may create per minute.")
    ] = 5,
    boards_per_minute: Annotated[
        int,
        typer.Option(
            "--boards-per-minute",
            min=1,
            help="Catch-ups of a table page (the others' moves played back) one address may ask per minute.",
        ),
    ] = 600,
    header_timeout: Annotated[
        float, typer.Option("--header-timeout", min=0.1, help="Seconds a client has to send a request's headers.")
    ] = 10.0,
    body_timeout: Annotated[
        float,
        typer.Option("--body-timeout", min=0.1, help="Seconds a client has, after a request's headers, for its body."),
    ] = 10.0,
    max_header_bytes: Annotated[
        int,
        typer.Option(
            "--max-header-bytes", min=1024, max=1024 * 1024, help="The largest request line and headers, in bytes."
        ),
    ] = 32 * 1024,
    max_connections: Annotated[
        int | None,
        typer.Option(
            "--max-connections",
            min=1,
            help="Connections open at once (HTTP and WebSocket); past it 503. Default: the file descriptor limit"
            " (ulimit -n) less what the server keeps for itself.",
        ),
    ] = None,
    http: Annotated[
        str, typer.Option("--http", help="The HTTP implementation: auto (httptools if installed), httptools or h11.")
    ] = "auto",
    no_rate_limits: Annotated[
        bool, typer.Option("--no-rate-limits", help="Lift the quotas (load tests on loopback); sizes stay bounded.")
    ] = False,
    api_docs: Annotated[
        bool, typer.Option("--api-docs", help="Serve the API's pages at /docs and /openapi.json.")
    ] = False,
    metrics_allow_ips: Annotated[
        str,
        typer.Option("--metrics-allow-ips", help="Client addresses or networks that may read /metrics (* for any)."),
    ] = "127.0.0.1,::1",
    access_log: Annotated[
        bool, typer.Option("--access-log/--no-access-log", help="Log each request (tokens redacted) on stderr.")
    ] = True,
) -> None:
    """Serve tables over HTTP and WebSockets (see docs/server.md); Ctrl-C stops it, and the tables are kept.

    Every quota and size is bounded by default, for a server on the open internet (docs/server.md, "Limits").
    """
    import uvicorn

    from meeple.server.app import ServerConfig
    from meeple.server.ops import log_config
    from meeple.server.policy import SeatPolicy
    from meeple.server.quotas import Quotas
    from meeple.server.transport import Framing, connection_budget, uvicorn_options
    from meeple.web import create_web_app

    try:
        connections, backlog = connection_budget(asked=max_connections)
        framing = Framing(header_timeout, body_timeout, max_header_bytes, connections)
        protocol = uvicorn_options(framing, http, backlog)
    except ValueError as exc:
        fail(exc)
    url = db or default_db()
    _check_db(url)
    mail: SmtpSettings | None = None
    if smtp is not None:
        try:
            mail = dataclasses.replace(SmtpSettings.from_url(smtp, mail_from), mails_per_day=mails_per_day)
        except ValueError as exc:
            fail(exc)
    elif mail_from is not None:
        fail(_("--mail-from is the sender of the e-mails sent through --smtp: give --smtp too"))
    console = stdout_console()
    base = (public_url or f"http://{_reachable_host(host)}:{port}").rstrip("/")
    origins = _origins(allow_origins, host, port, base)
    if game is not None:
        table_id, tokens = _host_table(url, game, seats, players, variant, ctx.args, clock, grace)
        intro = _("Table {table} ({game}). Invite each player with their line:").format(table=table_id, game=game)
        console.print(escape(intro))
        for seat, token in tokens:
            command = f"meeple play --server {base} --table {table_id} --token {token}"
            console.print("  " + escape(_("seat {seat}: {command}").format(seat=seat, command=command)), soft_wrap=True)
        watch = f"meeple play --server {base} --table {table_id}"
        if seats and "open" in [s.strip() for s in seats.split(",")]:
            join = _("Open seats, for anyone: {command}").format(command=f"{watch} --name NAME")
            console.print(escape(join), soft_wrap=True)
        console.print(escape(_("Spectators: {command}").format(command=watch)), soft_wrap=True)
    elif seats or players or variant or clock:
        fail(_("--seats, --players, --variant and --clock describe a table: give its GAME too"))
    quotas = Quotas(
        rate_limits=not no_rate_limits,
        tables_per_minute=tables_per_minute,
        tables_per_address=max_tables_per_address,
        max_tables=max_tables,
        max_unstarted_tables=max_unstarted_tables,
        no_start_minutes=no_start_minutes,
        bot_cpu_per_address=bot_cpu_per_address,
        sockets_per_address=max_sockets_per_address,
        messages_per_minute=messages_per_minute,
        bad_tokens_per_minute=bad_tokens_per_minute,
        idle_days=idle_days,
        joins_per_minute=joins_per_minute,
        chats_per_minute=chats_per_minute,
        waiting_hours=waiting_hours,
        quickmatch_wait=quickmatch_wait,
        logins_per_minute=logins_per_minute,
        logins_per_username=logins_per_username,
        min_password_score=min_password_score,
        reads_per_minute=reads_per_minute,
        signups_per_minute=signups_per_minute,
        my_tables_per_minute=my_tables_per_minute,
        boards_per_minute=boards_per_minute,
    )
    policy = SeatPolicy(
        any_bot=allow_bot_specs, bot_tables=allow_bot_tables, move_seconds=bot_move_seconds, min_grace=min_grace
    )
    config = ServerConfig(
        db=url,
        allow_seed=allow_seed,
        policy=policy,
        quotas=quotas,
        public_urls=(public_url,) if public_url else (),
        origins=tuple(origins),
        trust_host=forwarded_allow_ips is not None,
        api_docs=api_docs,
        metrics_allow_ips=metrics_allow_ips,
        smtp=mail,
        site=base,
        password_hash_workers=password_hash_workers,
        password_hash_queue=password_hash_queue,
        rated=_rated_rules(rated_clock, rated_grace, rated_substitute, claim_after),
    )
    if bot_workers is not None:
        config = dataclasses.replace(config, bot_workers=bot_workers)
    try:
        app = create_web_app(config)
    except ValueError as exc:  # a bad --metrics-allow-ips
        fail(exc)
    listening = _listen(host, port, backlog)
    serving = _("Serving on {base} (database {db})").format(base=base, db=shown_url(url))
    console.print(escape(serving), soft_wrap=True)
    sys.stdout.flush()  # the invitations must reach a pipe or a log before the server runs
    proxies = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips else {}
    # no per-message deflate: frames are small and compressing them cost more CPU than the rest of a move
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_config=log_config(access_log),
            ws="websockets-sansio",
            ws_per_message_deflate=False,
            ws_max_size=quotas.message_bytes,  # a larger message closes the connection (1009) before it is read whole
            server_header=False,
            timeout_graceful_shutdown=SHUTDOWN_SECONDS,
            **({"proxy_headers": False} if not forwarded_allow_ips else proxies),
            **protocol,
        )
    )
    server.run(sockets=[listening])
    if not server.started:
        raise typer.Exit(STARTUP_FAILURE)  # uvicorn logged why


def _origins(allow_origins: str | None, host: str, port: int, base: str) -> list[str]:
    """The origins pages may come from: this server's address (:func:`default_origins`) and ``--allow-origins``.

    Exits with code 2 and one line for an entry that is not an origin.
    """
    from meeple.server.hardening import default_origins, parse_origins

    try:
        extra = parse_origins(allow_origins or "")
    except ValueError as exc:
        fail(exc)
    return list(dict.fromkeys(default_origins(host, port, base) + extra))


def _rated_rules(clock: str, grace: float, substitute: str, claim_after: float) -> RatedRules:
    """The rules of rated tables from ``--rated-clock``, ``--rated-grace``, ``--rated-substitute``, ``--claim-after``.

    A turn-based ``--rated-clock`` (an hour or more per move) has no grace: its players are away between moves.
    Exits with a one-line error for a bad clock or a substitute that is not a bot level.
    """
    from meeple.server.policy import ALLOWED_BOTS

    try:
        spec = parse_clock(clock)
    except ValueError:
        fail(
            _(
                "--rated-clock takes a time per move (e.g. 2m, 90s, 1d) or INITIAL[+INCREMENT] in seconds (e.g."
                " 600+10), not {clock!r}"
            ).format(clock=clock)
        )
    if substitute not in ALLOWED_BOTS:
        allowed = ", ".join(ALLOWED_BOTS)
        fail(_("--rated-substitute is one of {allowed}, not {value!r}").format(allowed=allowed, value=substitute))
    away = None if spec.turn_based else grace
    return RatedRules(clock=spec, grace=away, substitute=substitute, claim_after=claim_after)


def _reachable_host(host: str) -> str:
    """The address to print in invitations: ``host``, or this machine's own address when listening everywhere.

    For ``0.0.0.0`` / ``::`` it is the address of the interface that routes outwards (a UDP socket is connected
    to a documentation address: no packet is sent), else the host name.
    """
    if host not in ("0.0.0.0", "::", ""):
        return host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        address = str(probe.getsockname()[0])
        if not address.startswith("0."):
            return address
    return socket.gethostname()


def _check_db(url: str) -> None:
    """Exit with one line unless ``url`` is a database the server can use: 2 for a bad URL, 1 for a bad database.

    The database is opened, checked (``PRAGMA quick_check`` on SQLite), and migrated (so it must be writable), before
    anything starts (:func:`meeple.server.ops.check_database`).
    """
    from meeple.server.ops import DatabaseUnusable, check_database

    try:
        check_database(url)
    except DatabaseUnusable as exc:
        fail(exc, STARTUP_FAILURE)
    except MeepleError as exc:
        fail(exc)


def _listen(host: str, port: int, backlog: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, for uvicorn; exit 1 with one line if that is impossible.

    ``backlog``: the kernel's queue of connections not yet accepted (``transport.connection_budget``).

    Bound here, before the server starts, so that a port in use or an address of another machine is one readable
    line (and the address cannot be taken between the check and the start).
    """
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listening = socket.socket(family, kind, proto)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listening.bind(address)
            listening.listen(backlog)
        except OSError:
            listening.close()
            raise
    except OSError as exc:
        reason = exc.strerror or str(exc)
        fail(_("cannot listen on {host}:{port}: {reason}").format(host=host, port=port, reason=reason), STARTUP_FAILURE)
    listening.set_inheritable(True)
    return listening


def _host_table(
    url: str,
    game: str,
    seats: str | None,
    players: int | None,
    variant: list[str] | None,
    extra: list[str],
    clock: str | None,
    grace: float | None,
) -> tuple[str, list[tuple[int, str]]]:
    given = [s.strip() for s in seats.split(",")] if seats else None
    if players is None and given is not None:
        players = len(given)  # one seat per player
    loaded = load_game_or_exit(game, players, variant, extra)
    n = loaded.num_players
    seat_list = given if given is not None else ["human"] + ["bot:medium"] * (n - 1)
    clock_spec: ClockSpec | None = None
    if clock is not None:
        try:
            clock_spec = parse_clock(clock)
        except ValueError:
            fail(
                _(
                    "--clock takes INITIAL[+INCREMENT] in seconds (e.g. 600+10), or a time per move of 1h to 14d"
                    " for turn-based play (e.g. 3d), not {clock!r}"
                ).format(clock=clock)
            )
        if clock_spec.turn_based and grace == GRACE:
            grace = None  # turn-based: players are away between their moves; the clock alone ends a turn
    params: dict[str, Any] = loaded.params_dict()
    try:
        request = CreateTable(game=game, params=params, seats=seat_list, clock=clock_spec, grace=grace)
        return create_table(url, request)
    except (MeepleError, ValueError) as exc:
        fail(exc)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve", context_settings=GAME_OPTIONS)(serve)
