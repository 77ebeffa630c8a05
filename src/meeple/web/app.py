"""The pages of the browser client, added to the game server's FastAPI app.

Every page is rendered from what its reader may know: a seat's board from ``game_view(state, seat)`` (the same view
the WebSocket sends), a spectator's from the public view, a replay only once the game is over. The language is the
``lang`` query parameter, else the ``lang`` cookie the switch sets, else ``Accept-Language``, else English.

Rules: issue "Play online: the browser client"; docs/web.md.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import FastAPI, Form, HTTPException, Query, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, FunctionLoader, select_autoescape
from markupsafe import Markup, escape
from pydantic import ValidationError

from meeple.core.errors import InvalidParameterError, MeepleError
from meeple.core.params import build_params
from meeple.core.records import GameRecord
from meeple.core.registry import game_class, registered_games
from meeple.core.state import SPECTATOR
from meeple.i18n import LANGUAGES, N_, M, Translator, language_from_accept, translator
from meeple.server import ServerConfig, create_app
from meeple.server.clock import TURN_BASED_CHOICES, clock_view, is_turn_based
from meeple.server.live import LiveTable, TableNotFound
from meeple.server.lobby import SeatRefused
from meeple.server.mytables import count_request, my_tables
from meeple.server.protocol import ClockSpec, CreateTable, JoinTable
from meeple.server.quotas import QuotaExceeded
from meeple.server.rated import RatedRules
from meeple.server.replies import cut, validation_text
from meeple.server.seats import (
    NO_SEAT,
    client_address,
    expired_cookie_header,
    seat_cookie,
    seated_tables,
    with_seat_cookie,
)
from meeple.server.services import Services, current_account, services_of
from meeple.server.views import game_view
from meeple.web.boards import badges, board_context, display_name, log_lines, move_texts, name_the_moves, who
from meeple.web.games import companion_for, quoted, seat_name, variant_words
from meeple.web.motion import add_motion_routes, note_lines, undo_offer
from meeple.web.people import add_people_pages
from meeple.web.replays import replay_steps, step_of
from meeple.web.table_rules import board_extras, ending_words, rated_words, rules_words

HERE = Path(__file__).resolve().parent


def _companion_template(name: str) -> tuple[str, str, Any] | None:
    """``games/<game>/<file>.html``: the file in the game's web companion's ``templates/`` folder (else None)."""
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != "games":
        return None
    try:
        folder = companion_for(parts[1]).folder
    except MeepleError:
        return None
    path = folder / "templates" / parts[2] if folder is not None else None
    if path is None or not path.is_file():
        return None
    return path.read_text(encoding="utf-8"), str(path), lambda: True


TEMPLATES = Environment(
    loader=ChoiceLoader([FileSystemLoader(HERE / "templates"), FunctionLoader(_companion_template)]),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
)
STATUS = {
    "waiting": N_("waiting for players"),
    "live": N_("live"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
    "aborted": N_("aborted"),
}
"""A table's status in words: marked here for the catalogs; the lobby template translates ``status`` by its id."""


def _reader(request: Request, lang: str | None) -> Translator:
    """The page's language: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``, else English."""
    for candidate in (lang, request.cookies.get("lang")):
        if candidate:
            try:
                return translator(candidate)
            except ValueError:
                continue
    return translator(language_from_accept(request.headers.get("accept-language")))


def duration(seconds: float, reader: Translator) -> str:
    """A clock's time as shown: ``m:ss`` under an hour, ``h:mm:ss`` under a day, else ``2 d 5 h`` (translated).

    Args:
        seconds: the time left (negative counts as 0).
        reader: the page's language (the days-and-hours form is a translated text).
    """
    left = max(0, int(seconds))
    if left >= 86_400:
        return reader.gettext("{days} d {hours} h").format(days=left // 86_400, hours=left % 86_400 // 3_600)
    if left >= 3_600:
        return f"{left // 3_600}:{left % 3_600 // 60:02d}:{left % 60:02d}"
    return f"{left // 60}:{left % 60:02d}"


def _page(name: str, reader: Translator, request: Request, **context: Any) -> HTMLResponse:
    """Render a template with the reader's language helpers; remember an explicit ``?lang=`` in a cookie."""
    html = TEMPLATES.get_template(name).render(
        _=reader.gettext,
        ngettext=reader.ngettext,
        tr=reader.message,
        lang=reader.lang,
        languages=LANGUAGES,
        flags=lambda game, text: companion_for(game).flag_words(text, reader),
        lang_links=language_links(request),
        status_words=STATUS,
        duration=lambda seconds: duration(seconds, reader),
        turn_based_choices=TURN_BASED_CHOICES,
        table_rules=lambda t: rules_words(t["clock"], t["grace"], t["substitute"], t["rated"], reader),
        rated_rules=rated_words(request, reader),
        ending=lambda status, ended: ending_words(status, ended, reader),
        **context,
    )
    response = HTMLResponse(html)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie("lang", reader.lang, max_age=365 * 86400, samesite="lax")
    return response


def language_links(request: Request) -> dict[str, str]:
    """The page's address in each language (the switch at the top): its path and query, ``lang`` set, no ``token``.

    Every key and value is URL-encoded: a crafted link's query key (``a%26token%3DT``) must not come back as a
    ``token=`` of the switch's link, which would plant a seat cookie (issue #41, item 15).
    """
    kept = [(k, v) for k, v in request.query_params.multi_items() if k not in ("lang", "token")]
    path = quote(request.url.path)
    return {code: f"{path}?{urlencode([*kept, ('lang', code)])}" for code in LANGUAGES}


def _days_per_move(clock: dict[str, Any] | None) -> int:
    """Whole days per move of a turn-based clock (0: not turn-based, or under a day), for the lobby's list."""
    if clock is None or not is_turn_based(clock):
        return 0
    return int(float(clock["spec"]["per_move"]) // 86_400)


def _utc(moment: float) -> str:
    """A deadline as the page shows it: ``2026-11-28 15:04 UTC`` (the server knows no one's time zone)."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _form_clock(form: Any) -> ClockSpec | None:
    """The lobby form's clock: minutes per player and an increment, or a turn-based time per move (not both).

    Raises:
        InvalidParameterError: both kinds were chosen.
        ValueError: a number that is not one, or outside :class:`ClockSpec`'s bounds.
    """
    minutes = str(form.get("clock_minutes") or "").strip()
    per_move = str(form.get("per_move") or "").strip()
    if minutes and per_move:
        raise InvalidParameterError(M("choose a clock in minutes or turn-based play, not both"))
    if per_move:
        return ClockSpec(per_move=float(per_move))
    if minutes:
        return ClockSpec(initial=float(minutes) * 60, increment=float(str(form.get("clock_increment") or 0)))
    return None


def create_web_app(config: ServerConfig) -> FastAPI:
    """Return the game server's app with the browser pages and their static files.

    Args:
        config: the server's configuration (``meeple serve`` builds it).
    """
    app = create_app(config)
    app.state.refusal_page = _refusal_page  # the read quota's 429 for pages (meeple.server.reads)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def services() -> Services:
        return services_of(app)

    async def table(table_id: str) -> LiveTable:
        try:
            return await services().tables.read(table_id)  # a finished table is not kept in memory for a page
        except TableNotFound:
            raise HTTPException(404, f"no table {cut(table_id)!r}") from None

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request, lang: str | None = None) -> HTMLResponse:
        """The games, a form to create a table, the tables to join or watch."""
        reader = _reader(request, lang)
        games = [_game_card(name) for name in registered_games()]
        tables = await _tables()
        me = await current_account(request)
        return _page("lobby.html", reader, request, games=games, tables=tables, who=lambda p: who(p, reader), me=me)

    @app.get("/me/tables", response_class=HTMLResponse, include_in_schema=False)
    async def my_tables_page(request: Request, lang: str | None = None) -> HTMLResponse:
        """My tables: the logged-in account's live and waiting tables, its turns first (``GET /api/me/tables``)."""
        reader = _reader(request, lang)
        account = await current_account(request)
        if account is not None:
            count_request(services().limiter, client_address(request), account.id)  # 429 past --my-tables-per-minute
        entries = await my_tables(services().tables, account.id, reader) if account is not None else []
        for entry in entries:
            entry["title"] = game_class(entry["game"]).title
            entry["left"] = duration(entry["deadline"] - services().tables.now(), reader) if entry["deadline"] else None
            entry["until"] = _utc(entry["deadline"]) if entry["deadline"] else None
            mover = entry["current_player"]
            entry["mover"] = entry["seats"][mover]["name"] if mover is not None else None
        return _page("my_tables.html", reader, request, account=account, entries=entries)

    @app.post("/tables", response_class=HTMLResponse, include_in_schema=False)
    async def create(request: Request, game: Annotated[str, Form()], lang: str | None = None) -> HTMLResponse:
        """Create a table from the lobby's form and show each seat's invite link (shown only here)."""
        reader = _reader(request, lang)
        form = await request.form()
        address = client_address(request)
        try:
            spec = game_class(game)
            params: dict[str, Any] = {}
            for p in spec.describe_params():
                value = form.get(f"param_{p.name}")
                if isinstance(value, str) and value != "":
                    params[p.name] = value
            players = int(build_params(spec.params_type, params, game).players)  # in range before seats are read
            seats = [str(form.get(f"seat_{s}") or "human") for s in range(players)]
            clock = _form_clock(form)
            rated = form.get("rated") == "1"
            fields: dict[str, Any] = {"game": game, "params": params, "seats": seats, "rated": rated}
            if clock is not None:  # none chosen: left unset, so that a rated table takes the server's rated rules
                fields["clock"] = clock
            request_model = CreateTable.model_validate(fields)
            created = await services().lobby.create_table(request_model, address, await current_account(request))
        except (MeepleError, ValueError, QuotaExceeded) as exc:
            message = reader.message(exc.message) if isinstance(exc, MeepleError) else cut(str(exc), 300)
            games = [_game_card(name) for name in registered_games()]
            tables = await _tables()
            page = _page(
                "lobby.html",
                reader,
                request,
                games=games,
                tables=tables,
                error=message,
                chosen=game,
                who=lambda p: who(p, reader),
                me=await current_account(request),
            )
            page.status_code = _status(exc)  # as POST /api/tables answers the same request
            if isinstance(exc, QuotaExceeded):
                services().refused(exc.reason)
                page.headers["Retry-After"] = str(exc.retry_after)
            return page
        table_id, tokens = created.table, created.tokens
        base = (config.public_urls[0] if config.public_urls else str(request.base_url)).rstrip("/")
        links = [(seat, f"{base}/tables/{table_id}?token={token}") for seat, token in tokens]
        return _page(
            "invite.html",
            reader,
            request,
            table=table_id,
            game=game,
            title=game_class(game).title,
            links=links,
            watch=f"{base}/tables/{table_id}",
        )

    async def _lobby_error(request: Request, reader: Translator, message: str, status: int) -> HTMLResponse:
        games = [_game_card(name) for name in registered_games()]
        page = _page(
            "lobby.html",
            reader,
            request,
            games=games,
            tables=await _tables(),
            error=message,
            who=lambda p: who(p, reader),
            me=await current_account(request),
        )
        page.status_code = status
        return page

    add_people_pages(app, _page, _reader, _lobby_error)

    @app.post("/quickmatch", response_class=HTMLResponse, include_in_schema=False)
    async def play_now(
        request: Request,
        game: Annotated[str, Form(max_length=64)],
        players: Annotated[int, Form(ge=1, le=16)],
        name: Annotated[str | None, Form(max_length=96)] = None,
        rated: Annotated[bool, Form()] = False,
        lang: str | None = None,
    ) -> Response:
        """The lobby's "Play now": a quick-match seat (``POST /api/quickmatch``), then its table page.

        Logged in, the seat is bound to the account and ``rated`` may be asked; a guest gives a name.
        """
        reader = _reader(request, lang)
        try:
            who = (_guest_name(name), await current_account(request))
            seat = await services().lobby.quick_match(
                game, players, rated, who, client_address(request), seated_tables(request)
            )
        except (MeepleError, ValueError, QuotaExceeded) as exc:
            return await _lobby_error(request, reader, _problem(exc, reader), _status(exc))
        target = f"/tables/{seat.table}" + (f"?lang={lang}" if lang in LANGUAGES else "")
        return with_seat_cookie(RedirectResponse(target, status_code=303), request, seat.table, seat.token)

    @app.post("/tables/{table_id}/join", response_class=HTMLResponse, include_in_schema=False)
    async def join_page(
        request: Request,
        table_id: str,
        name: Annotated[str | None, Form(max_length=96)] = None,
        lang: str | None = None,
    ) -> Response:
        """The lobby's "Join" of a waiting table (``POST /api/tables/{id}/join``), then its table page."""
        reader = _reader(request, lang)
        target = f"/tables/{table_id}" + (f"?lang={lang}" if lang in LANGUAGES else "")
        if await _seat(request, table_id, request.cookies.get(seat_cookie(table_id))) is not None:
            return RedirectResponse(target, status_code=303)  # this browser holds a seat there already
        try:
            me = await current_account(request)
            seat = await services().lobby.join(table_id, _guest_name(name), me, client_address(request))
        except TableNotFound:
            raise HTTPException(404, f"no table {cut(table_id)!r}") from None
        except (MeepleError, ValueError, QuotaExceeded) as exc:
            return await _lobby_error(request, reader, _problem(exc, reader), _status(exc))
        return with_seat_cookie(RedirectResponse(target, status_code=303), request, table_id, seat.token)

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
                raise HTTPException(403, _reader(request, lang).message(NO_SEAT))
            target = f"/tables/{table_id}" + (f"?lang={lang}" if lang in LANGUAGES else "")
            return with_seat_cookie(RedirectResponse(target, status_code=303), request, table_id, token)
        reader, live, seat, board = await _view(request, table_id, lang)
        may_start, fill_at = await asyncio.to_thread(services().lobby.creator_choice, table_id, seat)
        bots_in = max(0, round(fill_at - services().tables.now())) if fill_at is not None else None
        page = _page(
            "table.html",
            reader,
            request,
            may_start=may_start,
            bots_in=bots_in,
            table=table_id,
            game=live.game,
            title=game_class(live.game).title,
            seat_label=seat_name(seat, reader, None, [s.name for s in live.seats])
            if seat is not None
            else reader.gettext("spectator"),
            seat=seat,
            board=board,
            has_style=_has_style(live.game),
        )
        return _expire_stale(page, request, table_id, seat)  # a stale cookie is sent no more

    @app.get("/tables/{table_id}/board", response_class=HTMLResponse, include_in_schema=False)
    async def board_fragment(request: Request, table_id: str, lang: str | None = None) -> HTMLResponse:
        """The board of a seat (its cookie) or a spectator now: the fragment the script swaps in after each frame."""
        _reader, _live, seat, board = await _view(request, table_id, lang)
        return _expire_stale(HTMLResponse(board), request, table_id, seat)

    def _expire_stale(response: HTMLResponse, request: Request, table_id: str, seat: int | None) -> HTMLResponse:
        """``response``, deleting the request's seat cookie of ``table_id`` if it opened no seat (item 10)."""
        if seat is None and seat_cookie(table_id) in request.cookies:
            response.headers.append("set-cookie", expired_cookie_header(request, table_id)["set-cookie"])
        return response

    @app.post("/tables/{table_id}/token", response_class=HTMLResponse, include_in_schema=False)
    async def new_link(request: Request, table_id: str, lang: str | None = None) -> Response:
        """The seat's holder (its cookie) gets a new invite link; the old link and cookies stop working."""
        reader = _reader(request, lang)
        live = await table(table_id)
        seat = await _seat(request, table_id, request.cookies.get(seat_cookie(table_id)))
        if seat is None:
            stale = expired_cookie_header(request, table_id) if seat_cookie(table_id) in request.cookies else None
            raise HTTPException(403, "only the seat's holder may replace its link", headers=stale)
        token = await services().lobby.new_token(table_id, seat)  # the old token's connections close
        base = str(request.base_url).rstrip("/")
        links = [(seat, f"{base}/tables/{table_id}?token={token}")]
        page = _page(
            "invite.html",
            reader,
            request,
            table=table_id,
            game=live.game,
            title=game_class(live.game).title,
            links=links,
            watch=f"{base}/tables/{table_id}",
        )
        return with_seat_cookie(page, request, table_id, token)

    @app.get("/tables/{table_id}/replay-view", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(
        request: Request,
        table_id: str,
        step_text: Annotated[str | None, Query(alias="step", max_length=12)] = None,
        version_text: Annotated[str | None, Query(alias="version", max_length=12)] = None,
        seat_text: Annotated[str | None, Query(alias="seat")] = None,
        lang: str | None = None,
    ) -> HTMLResponse:
        """Step through a finished game from a seat's view or the full view (409 while it runs).

        ``?step=n`` shows the game once the reader's log holds ``n`` numbered lines: the slider's "Move n" is line n
        of the log (:mod:`meeple.web.replays`). ``?version=`` (a number of actions) shows the step that reaches it.
        Without either, the end.
        """
        reader = _reader(request, lang)
        seat = int(seat_text) if seat_text and seat_text.isdecimal() else None
        live = await table(table_id)
        if not live.over:  # live, or waiting for players: its deal is secret
            raise HTTPException(409, reader.gettext("the game is not over: replays open when it ends"))
        if seat is not None and seat >= len(live.seats):
            raise HTTPException(422, f"seat is 0..{len(live.seats) - 1} (or omitted)")
        record = GameRecord.from_state(live.state)
        steps = await asyncio.to_thread(replay_steps, record, SPECTATOR if seat is None else seat)
        last = len(steps) - 1
        if step_text is not None and step_text.isdecimal():
            step = min(int(step_text), last)
        elif version_text is not None and version_text.isdecimal():
            step = step_of(steps, int(version_text))
        else:
            step = last  # a replay opens at the end
        state = await asyncio.to_thread(record.replay, steps[step])
        # the full view: one board, the spectator's, then each seat's secrets under its own heading
        names = [s.name for s in live.seats]
        main = render_board(
            state, seat, state.history_messages(SPECTATOR if seat is None else seat), reader, None, names=names
        )
        secrets = []
        if seat is None:
            for s in range(len(live.seats)):
                obs = state.observation(s)
                secrets.append({"name": seat_name(s, reader, None, names), "items": _secrets(live.game, obs, reader)})
        return _page(
            "replay.html",
            reader,
            request,
            table=table_id,
            game=live.game,
            title=game_class(live.game).title,
            seat=seat,
            seat_names=[seat_name(s, reader, None, names) for s in range(len(live.seats))],
            step=step,
            total=last,
            actions=steps[step],
            seats=len(live.seats),
            board=main,
            secrets=secrets,
            has_style=_has_style(live.game),
        )

    async def _tables() -> list[dict[str, Any]]:
        """The newest tables: id, game, status, seats (who plays, connected) — nothing secret."""
        rows = await services().listing.rows(50)
        return [
            {
                "id": row.id,
                "game": row.game,
                "title": _title(row.game),
                "status": row.status,
                "rated": bool(row.rated),
                "clock": row.clock,
                "grace": row.grace,
                "substitute": row.substitute,
                "ended": row.ended,
                "seats": [{"player": s.player, "online": online.get(s.seat, False), "name": s.name} for s in seats],
                "open": sum(1 for s in seats if s.player == "human" and not online.get(s.seat, False)),
                "days": _days_per_move(row.clock),
            }
            for row, seats, online, _users in rows
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
        """The seat bound to the session's account, else the seat ``token`` opens, or None.

        429 after too many wrong tokens from the address.
        """
        seats = services().seats
        seat = await seats.account_seat(request, table_id)  # the session first: a revoked cookie is not a wrong token
        if seat is not None or not token:
            return seat
        try:
            return await seats.check_token(table_id, token, client_address(request))
        except QuotaExceeded as exc:
            services().refused(exc.reason)
            raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None

    async def _board(live: LiveTable, seat: int | None, reader: Translator) -> str:
        async with live.lock:
            return await _board_now(live, seat, reader, services().tables.rated)

    async def _seat_of(request: Request, table_id: str) -> int | None:
        return await _seat(request, table_id, request.cookies.get(seat_cookie(table_id)))

    async def _now(live: LiveTable, seat: int | None, reader: Translator) -> str:
        return await _board_now(live, seat, reader, services().tables.rated)

    add_motion_routes(app, _reader, table, _seat_of, render_board, _now)

    @app.get("/games/{game}/style.css", include_in_schema=False)
    async def game_style(game: str) -> FileResponse:
        """A game's own stylesheet section (its web companion's ``style.css``)."""
        try:
            folder = companion_for(game).folder
        except MeepleError:
            raise HTTPException(404, f"no game {game!r}") from None
        if folder is None or not (folder / "style.css").is_file():
            raise HTTPException(404, f"{game!r} has no stylesheet")
        return FileResponse(folder / "style.css", media_type="text/css")

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def rules_page(
        request: Request,
        game: str,
        table_id: Annotated[str | None, Query(alias="table", max_length=64)] = None,
        lang: str | None = None,
    ) -> HTMLResponse:
        """The rules summary of ``game`` and its variants (those in force at ``?table=``, else the defaults)."""
        reader = _reader(request, lang)
        try:
            cls = game_class(game)
        except MeepleError:
            raise HTTPException(404, f"no game {game!r}") from None
        params: dict[str, Any] = {}
        if table_id:
            live = await table(table_id)
            if live.game != game:
                raise HTTPException(404, f"table {table_id!r} plays {live.game!r}")
            params = dict(live.params)
        return _page(
            "rules.html",
            reader,
            request,
            game=game,
            title=cls.title,
            table=table_id if params or table_id else None,
            summary=summary_html(
                companion_for(game).flag_words(
                    _without_parameter_list(reader.message(cls.rules_summary_message()), game), reader
                ),
                game,
                reader,
            ),
            variants=_variants_in_force(game, params),
            tooltips=companion_for(game).tooltips(reader),
            has_style=_has_style(game),
        )

    return app


async def _board_now(live: LiveTable, seat: int | None, reader: Translator, rated: RatedRules | None) -> str:
    """The board of ``seat`` now, with its moves and, when the engine allows it, Undo (``live.lock`` held).

    ``rated``: the server's rated rules (a claim against the seat to move).
    """
    undo = await undo_offer(live, seat)
    return render_board(live.state, seat, live.log_of(seat), reader, live, undo=undo, rated=rated)


def _refusal_page(scope: Any, reader: Translator, text: str) -> bytes:
    """The page of a read refused past ``--reads-per-minute``: ``text``, in the reader's language."""
    return bytes(_page("busy.html", reader, Request(scope), message=text).body)


def _guest_name(name: str | None) -> str | None:
    """The name a guest typed, checked as ``POST /api/tables/{id}/join`` checks it (None: none typed).

    Raises:
        ValidationError: a name the API refuses (too long, control characters...).
    """
    return JoinTable(name=name).name if name else None


def _status(exc: Exception) -> int:
    """The status of a lobby form's refusal, as the API answers it: 429 a quota, a seat's own, else 422."""
    if isinstance(exc, QuotaExceeded):
        return 429
    return exc.status if isinstance(exc, SeatRefused) else 422


def _problem(exc: Exception, reader: Translator) -> str:
    """What was wrong with a lobby form, in the reader's language (a name's bound, a full table, a quota...)."""
    if isinstance(exc, MeepleError):
        return reader.message(exc.message)
    if isinstance(exc, QuotaExceeded):
        return exc.words(reader)  # in the page's language (issue #44, item 9)
    if isinstance(exc, ValidationError):
        return "; ".join(validation_text(e, reader) for e in exc.errors()[:3])
    return cut(str(exc), 300)


def _board_args(
    state: Any,
    seat: int | None,
    log: list[Any],
    reader: Translator,
    live: LiveTable | None = None,
    names: Sequence[str | None] = (),
    rated: RatedRules | None = None,
    words: str | None = None,
    undo: bool = False,
) -> dict[str, Any]:
    """What ``board.html`` renders for ``seat``: the view, the game's names and codes, prompt, badges, log, results.

    ``words``: an earlier position played back (issue #43): no move, and the prompt says the move in words.
    ``undo``: the seat may take its last moves back now (an Undo button).
    ``names``: the seats' chosen names (by default ``live``'s seats'), wherever a seat is named (issue #41, item 18).
    """
    view = game_view(state, seat, log, reader)
    if (live is not None and live.status != "live") or words is not None:
        view["legal_actions"] = []  # a waiting (or abandoned) table takes no move: none is offered, as in its frames
    game = state.game.name
    web = companion_for(game)
    obs = view["observation"]
    moves = move_texts(web, view["legal_actions"], reader)
    over = state.is_terminal()
    names = [s.name for s in live.seats] if live is not None and not names else list(names)
    notes = note_lines(live.takebacks, SPECTATOR if seat is None else seat) if live is not None else []
    return {
        "_": reader.gettext,
        "ngettext": reader.ngettext,
        "tr": reader.message,
        "tr_json": lambda data: web.say(data, reader),
        "game": game,
        "seat": seat,
        "view": view,
        "seat_name": lambda s: display_name(s, reader, seat, names),
        "round_phase": web.round_phase(obs, reader),
        "prompt": web.prompt(view, seat, reader),
        "moves": moves,
        "controls": [m for m in moves if m["type"] in web.controls],
        "log": log_lines(web, log, reader, seat, [m for _after, _seat, m in state.log_events], names, notes),
        "badges": badges(
            web, obs, live.public_seats() if live is not None else None, state.game.num_players, reader, seat, names
        ),
        "clock": clock_view(live.clock) if live is not None else None,
        "duration": lambda seconds: duration(seconds, reader),
        "table": live.id if live is not None else None,
        "results": web.results(obs, state.returns(), state.scores(), reader, seat, names) if over else None,
        "status": live.status if live is not None else "finished",
        "board": board_context(game, view, seat, reader, names),
        "playback": words,
        "undo": undo and words is None,
        **board_extras(live, seat, rated, reader),
    }


def render_board(
    state: Any,
    seat: int | None,
    log: list[Any],
    reader: Translator,
    live: LiveTable | None = None,
    names: Sequence[str | None] = (),
    rated: RatedRules | None = None,
    words: str | None = None,
    undo: bool = False,
) -> str:
    """The board fragment of ``seat`` (None: spectator), every clickable move named by its words.

    ``words`` and ``undo`` as :func:`_board_args`. ``names``: the seats' chosen names, if ``live`` does not give them
    (a replay). With ``live``, also the table's rules, how it ended, forfeits, a claim (``rated``: the server's rated
    rules) and a wait of its bots (:func:`meeple.web.table_rules.board_extras`).
    """
    args = _board_args(state, seat, log, reader, live, names, rated, words, undo)
    return name_the_moves(TEMPLATES.get_template("board.html").render(**args), args["moves"])


MARKDOWN_STRONG = re.compile(r"\*\*(.+?)\*\*")
MARKDOWN_CODE = re.compile(r"`([^`]+)`")


def summary_html(text: str, game: str, reader: Translator) -> Markup:
    """A rules summary (the games' short Markdown: ``#`` titles, ``**bold**``, ```code```, ``-`` lists) as HTML.

    A variant flag's name in code (```third_symbol_exchange```) reads as the variant's label in the reader's language.
    """
    words = companion_for(game).variants

    def inline(line: str) -> str:
        line = str(escape(line))
        line = MARKDOWN_STRONG.sub(r"<strong>\1</strong>", line)

        def code(match: re.Match[str]) -> str:
            name = match.group(1).split("=")[0]
            if match.group(1).startswith(("«", "“")):
                return match.group(1)
            if name in words:
                return str(escape(quoted(reader.gettext(words[name].label), reader)))
            return f"<code>{match.group(1)}</code>"

        return MARKDOWN_CODE.sub(code, line)

    out = []
    for block in text.strip().split("\n\n"):
        lines = block.strip().splitlines()
        if lines and lines[0].startswith("#"):
            out.append(f"<h2>{inline(lines[0].lstrip('#').strip())}</h2>")
            lines = lines[1:]
        if (
            lines
            and lines[0].lstrip().startswith(("- ", "* "))
            and all(x.lstrip().startswith(("- ", "* ")) or x.startswith("  ") for x in lines)
        ):
            items: list[str] = []
            for x in lines:
                if x.lstrip().startswith(("- ", "* ")):
                    items.append(x.lstrip()[2:])
                else:
                    items[-1] += " " + x.strip()
            out.append("<ul>" + "".join(f"<li>{inline(i.strip())}</li>" for i in items) + "</ul>")
        elif lines:
            out.append(f"<p>{inline(' '.join(x.strip() for x in lines))}</p>")
    return Markup("\n".join(out))


def _without_parameter_list(text: str, game: str) -> str:
    """A rules summary without its section listing the parameters as the command line types them.

    That section ("## Variant flags": "- `deck` = fr1 (...) | en (...)") is for ``meeple rules``; the rules page lists
    the variants itself, with their help in a player's words (issue #43 item 8).
    """
    names = tuple(p.name for p in game_class(game).describe_params())

    def is_parameter(item: str) -> bool:
        return item.lstrip("-* `").startswith(names)

    blocks = text.strip().split("\n\n")
    kept: list[str] = []
    skipping = False
    for block in blocks:
        lines = block.strip().splitlines()
        heading = bool(lines) and lines[0].startswith("#")
        rest = lines[1:] if heading else lines
        items = [x for x in rest if x.lstrip().startswith(("- ", "* "))]
        if heading:
            skipping = bool(items) and all(is_parameter(x) for x in items)
        elif skipping and not (items and all(is_parameter(x) for x in items)):
            skipping = False
        if not skipping:
            kept.append(block)
    return "\n\n".join(kept)


def _title(game: str) -> str:
    try:
        return game_class(game).title
    except MeepleError:
        return game


def _has_style(game: str) -> bool:
    folder = companion_for(game).folder
    return folder is not None and (folder / "style.css").is_file()


def _secrets(game: str, observation: Mapping[str, Any], reader: Translator) -> list[str]:
    """What a seat alone knew, in words, for the replay's full view (its hand, characters, symbols...)."""
    return companion_for(game).secrets(observation, reader)


def _game_card(name: str) -> dict[str, Any]:
    """A game for the lobby: title, pitch, player counts and its variants in words (``variants``).

    A variant's ``doc`` is its help for players (``Variant.help``), else the parameter's own description; its
    ``choices`` are the values the lobby offers, ``words`` every value's word (the rules page names any value).
    """
    cls = game_class(name)
    params = cls.describe_params()
    choosable = [p for p in params if p.choices and p.name != "players"]
    words = variant_words(name, [p.name for p in choosable])
    return {
        "name": name,
        "title": cls.title,
        "pitch": companion_for(name).pitch,
        "min": cls.min_players,
        "max": cls.max_players,
        "default_players": next((p.default for p in params if p.name == "players"), cls.min_players),
        "variants": [
            {
                "name": p.name,
                "label": words[p.name].label,
                "doc": words[p.name].help or p.doc,
                "default": str(p.default),
                "choices": [
                    (str(c), words[p.name].values.get(c, str(c)))
                    for c in p.choices or ()
                    if c not in words[p.name].hidden
                ],
                "words": {str(c): words[p.name].values.get(c, str(c)) for c in p.choices or ()},
            }
            for p in choosable
        ],
    }


def _variants_in_force(name: str, params: dict[str, Any]) -> list[dict[str, str]]:
    """The variants of a table (or the defaults) as ``{"label", "value", "doc"}`` msgids, for the rules page."""
    card = _game_card(name)
    out = []
    for v in card["variants"]:
        chosen = str(params.get(v["name"], v["default"]))
        value = v["words"].get(chosen, chosen)
        out.append({"label": v["label"], "value": value, "doc": v["doc"]})
    return out
