"""The pages of the browser client, added to the game server's FastAPI app.

Every page is rendered from what its reader may know: a seat's board from ``game_view(state, seat)`` (the same view
the WebSocket sends), a spectator's from the public view, a replay only once the game is over. The language is the
``lang`` query parameter, else the ``lang`` cookie the switch sets, else ``Accept-Language``, else English.

Rules: issue "Play online: the browser client"; docs/web.md.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape

from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord
from meeple.core.registry import game_class, registered_games
from meeple.i18n import LANGUAGES, N_, Message, Translator, language_from_accept, translator
from meeple.server.app import ServerConfig, check_token, client_address, create_app, cut, seat_cookie
from meeple.server.clock import clock_view
from meeple.server.live import LiveTable, TableNotFound
from meeple.server.protocol import ClockSpec, CreateTable
from meeple.server.quotas import Limiter, QuotaExceeded
from meeple.server.tables import TableService
from meeple.server.views import game_view, log_texts
from meeple.web.boards import board_context

HERE = Path(__file__).resolve().parent
TEMPLATES = Environment(
    loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]), trim_blocks=True
)
PITCHES = {
    "citadels": N_("Pick a secret character each round and build the most prestigious city."),
    "capitol": N_("Raise the buildings of Rome floor by floor and win the majorities of its nine zones."),
    "capital_lux_2": N_("Grow your City without outgrowing the Capital, whose cards set the limits."),
    "caprice": N_("Stack six towers in the order only your hidden symbols know."),
}
"""One line per game for the lobby (English msgids: translated with the page)."""
STATUS = {"live": N_("live"), "finished": N_("finished")}
"""A table's status in words: marked here for the catalogs; the lobby template translates ``status`` by its id."""


SEAT_COOKIE_DAYS = 60
"""How long a browser keeps a seat's cookie (a game may be played over days)."""


def _reader(request: Request, lang: str | None) -> Translator:
    """The page's language: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``, else English."""
    for candidate in (lang, request.cookies.get("lang")):
        if candidate:
            try:
                return translator(candidate)
            except ValueError:
                continue
    return translator(language_from_accept(request.headers.get("accept-language")))


def _page(name: str, reader: Translator, request: Request, **context: Any) -> HTMLResponse:
    """Render a template with the reader's language helpers; remember an explicit ``?lang=`` in a cookie."""
    html = TEMPLATES.get_template(name).render(
        _=reader.gettext,
        ngettext=reader.ngettext,
        tr=reader.message,
        lang=reader.lang,
        languages=LANGUAGES,
        path=request.url.path,
        query=dict(request.query_params),
        **context,
    )
    response = HTMLResponse(html)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie("lang", reader.lang, max_age=365 * 86400, samesite="lax")
    return response


def create_web_app(config: ServerConfig) -> FastAPI:
    """Return the game server's app with the browser pages and their static files.

    Args:
        config: the server's configuration (``meeple serve`` builds it).
    """
    app = create_app(config)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def service() -> TableService:
        found: TableService = app.state.meeple["service"]
        return found

    async def table(table_id: str) -> LiveTable:
        try:
            return await service().get(table_id)
        except TableNotFound:
            raise HTTPException(404, f"no table {cut(table_id)!r}") from None

    def limiter() -> Limiter:
        found: Limiter = app.state.meeple["limiter"]
        return found

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request, lang: str | None = None) -> HTMLResponse:
        """The games, a form to create a table, the tables to join or watch."""
        reader = _reader(request, lang)
        games = [_game_card(name) for name in registered_games()]
        return _page("lobby.html", reader, request, games=games, tables=await _tables())

    @app.post("/tables", response_class=HTMLResponse, include_in_schema=False)
    async def create(request: Request, game: Annotated[str, Form()], lang: str | None = None) -> HTMLResponse:
        """Create a table from the lobby's form and show each seat's invite link (shown only here)."""
        reader = _reader(request, lang)
        form = await request.form()
        address = client_address(request)
        try:
            limiter().hit("tables", address, "tables created")
            spec = game_class(game)
            params: dict[str, Any] = {}
            for p in spec.describe_params():
                value = form.get(f"param_{p.name}")
                if isinstance(value, str) and value != "":
                    params[p.name] = value
            default_players = next(int(p.default) for p in spec.describe_params() if p.name == "players")
            players = int(params.get("players", default_players))
            seats = [str(form.get(f"seat_{s}") or "human") for s in range(players)]
            clock: ClockSpec | None = None
            minutes = form.get("clock_minutes")
            if isinstance(minutes, str) and minutes.strip():
                increment = float(str(form.get("clock_increment") or 0))
                clock = ClockSpec(initial=float(minutes) * 60, increment=increment)
            request_model = CreateTable(game=game, params=params, seats=seats, clock=clock)
            table_id, tokens = await asyncio.to_thread(service().create, request_model, address)
        except (MeepleError, ValueError, QuotaExceeded) as exc:
            message = reader.message(exc.message) if isinstance(exc, MeepleError) else cut(str(exc), 300)
            games = [_game_card(name) for name in registered_games()]
            tables = await _tables()
            page = _page("lobby.html", reader, request, games=games, tables=tables, error=message, chosen=game)
            if isinstance(exc, QuotaExceeded):
                app.state.meeple["refused"](exc.reason)
                page.status_code = 429
                page.headers["Retry-After"] = str(exc.retry_after)
            return page
        await service().evaluate(table_id)
        base = (config.public_urls[0] if config.public_urls else str(request.base_url)).rstrip("/")
        links = [(seat, f"{base}/tables/{table_id}?token={token}") for seat, token in tokens]
        return _page(
            "invite.html", reader, request, table=table_id, game=game, links=links, watch=f"{base}/tables/{table_id}"
        )

    @app.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(
        request: Request, table_id: str, token: str | None = None, lang: str | None = None
    ) -> Response:
        """A seat's table (its cookie) or a spectator's; the script keeps it up to date.

        An invite link ``?token=T`` sets the seat's cookie (HttpOnly, SameSite=Strict, Secure over https) and is
        answered 303 to the same page without the token, so that the token leaves the address bar, the history and
        the logs (403 for a wrong token).
        """
        if token is not None:
            await table(table_id)
            if await _seat(request, table_id, token) is None:
                raise HTTPException(403, "this token opens no seat at this table")
            target = f"/tables/{table_id}" + (f"?lang={lang}" if lang in LANGUAGES else "")
            return _with_seat_cookie(RedirectResponse(target, status_code=303), request, table_id, token)
        reader, live, seat, board = await _view(request, table_id, lang)
        return _page("table.html", reader, request, table=table_id, game=live.game, seat=seat, board=board)

    @app.get("/tables/{table_id}/board", response_class=HTMLResponse, include_in_schema=False)
    async def board_fragment(request: Request, table_id: str, lang: str | None = None) -> HTMLResponse:
        """The board of a seat (its cookie) or a spectator now: the fragment the script swaps in after each frame."""
        return HTMLResponse((await _view(request, table_id, lang))[3])

    @app.post("/tables/{table_id}/token", response_class=HTMLResponse, include_in_schema=False)
    async def new_link(request: Request, table_id: str, lang: str | None = None) -> Response:
        """The seat's holder (its cookie) gets a new invite link; the old link and cookies stop working."""
        reader = _reader(request, lang)
        live = await table(table_id)
        seat = await _seat(request, table_id, request.cookies.get(seat_cookie(table_id)))
        if seat is None:
            raise HTTPException(403, "only the seat's holder may replace its link")
        token = await asyncio.to_thread(service().rotate_token, table_id, seat)
        base = str(request.base_url).rstrip("/")
        links = [(seat, f"{base}/tables/{table_id}?token={token}")]
        page = _page(
            "invite.html",
            reader,
            request,
            table=table_id,
            game=live.game,
            links=links,
            watch=f"{base}/tables/{table_id}",
        )
        return _with_seat_cookie(page, request, table_id, token)

    @app.get("/tables/{table_id}/replay-view", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(
        request: Request,
        table_id: str,
        version: Annotated[int, Query(ge=0)] = 0,
        seat_text: Annotated[str | None, Query(alias="seat")] = None,
        lang: str | None = None,
    ) -> HTMLResponse:
        """Step through a finished game from a seat's view or the full view (409 while it runs)."""
        reader = _reader(request, lang)
        seat = int(seat_text) if seat_text and seat_text.isdecimal() else None
        live = await table(table_id)
        if not live.over:  # live, or waiting for players: its deal is secret
            raise HTTPException(409, reader.gettext("the game is not over: replays open when it ends"))
        total = len(live.state.history)
        version = min(version, total)
        if seat is not None and seat >= len(live.seats):
            raise HTTPException(422, f"seat is 0..{len(live.seats) - 1} (or omitted)")
        record = GameRecord.from_state(live.state)
        state = await asyncio.to_thread(record.replay, version)
        views = [seat] if seat is not None else list(range(len(live.seats)))
        boards = [
            TEMPLATES.get_template("board.html").render(**_board_args(state, s, state.history_messages(s), reader))
            for s in views
        ]
        return _page(
            "replay.html",
            reader,
            request,
            table=table_id,
            game=live.game,
            seat=seat,
            version=version,
            total=total,
            seats=len(live.seats),
            boards=boards,
        )

    async def _tables() -> list[dict[str, Any]]:
        """The newest tables: id, game, status, seats (who plays, connected) — nothing secret."""
        rows = await asyncio.to_thread(service().list_rows, 50)
        return [
            {
                "id": row.id,
                "game": row.game,
                "status": row.status,
                "seats": [{"player": s.player, "online": online.get(s.seat, False)} for s in seats],
                "open": sum(1 for s in seats if s.player == "human" and not online.get(s.seat, False)),
            }
            for row, seats, online in rows
        ]

    async def _view(request: Request, table_id: str, lang: str | None) -> tuple[Translator, LiveTable, int | None, str]:
        """The reader's language, the table, the seat of its cookie, and that seat's board HTML.

        Without a cookie, or with one that no longer opens a seat, the reader is a spectator.
        """
        reader = _reader(request, lang)
        live = await table(table_id)
        seat = await _seat(request, table_id, request.cookies.get(seat_cookie(table_id)))
        return reader, live, seat, await _board(live, seat, reader)

    async def _seat(request: Request, table_id: str, token: str | None) -> int | None:
        """The seat ``token`` opens, or None; 429 after too many wrong tokens from the address."""
        if not token:
            return None
        try:
            return await check_token(app.state.meeple, table_id, token, client_address(request))
        except QuotaExceeded as exc:
            app.state.meeple["refused"](exc.reason)
            raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None

    async def _board(live: LiveTable, seat: int | None, reader: Translator) -> str:
        async with live.lock:
            log = live.log_of(seat)
            args = _board_args(live.state, seat, log, reader, live)
        return TEMPLATES.get_template("board.html").render(**args)

    return app


def _with_seat_cookie(response: Response, request: Request, table_id: str, token: str) -> Response:
    """``response`` setting the seat's cookie of ``table_id`` (HttpOnly, SameSite=Strict, Secure over https)."""
    response.set_cookie(
        seat_cookie(table_id),
        token,
        max_age=SEAT_COOKIE_DAYS * 86_400,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def _board_args(
    state: Any, seat: int | None, log: list[Any], reader: Translator, live: LiveTable | None = None
) -> dict[str, Any]:
    view = game_view(state, seat, log, reader)
    return {
        "_": reader.gettext,
        "ngettext": reader.ngettext,
        "tr": reader.message,
        "tr_json": lambda data: reader.message(Message.from_json(data)),
        "game": state.game.name,
        "seat": seat,
        "view": view,
        "log": log_texts(log, reader),
        "seats": live.public_seats() if live is not None else None,
        "clock": clock_view(live.clock) if live is not None else None,
        "table": live.id if live is not None else None,
        "scores": list(state.scores()) if state.is_terminal() else None,
        "status": live.status if live is not None else "finished",
        "board": board_context(state.game.name, view, seat, reader),
    }


def _game_card(name: str) -> dict[str, Any]:
    cls = game_class(name)
    return {
        "name": name,
        "title": cls.title,
        "pitch": PITCHES.get(name, ""),
        "min": cls.min_players,
        "max": cls.max_players,
        "params": cls.describe_params(),
    }
