"""The lobby's pages: the lobby, its create-table form, quick match ("Play now") and joining a waiting table.

The forms call the same use cases as the REST routes (:class:`meeple.server.lobby.Lobby`: ``create_table``,
``quick_match``, ``join``) and answer their refusals with the lobby again, the problem in the reader's language and
the status the API gives the same request.

Rules: issue "Play online: the browser client"; issue #42, item 3 (one use-case layer); docs/web.md.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from meeple.core.errors import InvalidParameterError, MeepleError
from meeple.core.params import build_params
from meeple.core.registry import game_class, registered_games
from meeple.i18n import M, Translator
from meeple.server.clock import is_turn_based
from meeple.server.db import SeatRow
from meeple.server.live import TableNotFound
from meeple.server.lobby import SeatRefused
from meeple.server.once import MAX_KEY, request_key
from meeple.server.protocol import ClockSpec, CreateTable, JoinTable
from meeple.server.quotas import QuotaExceeded
from meeple.server.replies import cut, validation_text
from meeple.server.seats import client_address, seated_tables, with_seat_cookie
from meeple.server.services import Services, ServicesDep, current_account
from meeple.web.boards import who
from meeple.web.games import companion_for, variant_words
from meeple.web.pages.common import page_reader, render_page, seat_of, title_of, with_lang
from meeple.web.pages.filters import OTHERS_SHOWN, WAITING_SHOWN, LobbyFilters, lobby_filters
from meeple.web.pages.returns import safe_next

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, services: ServicesDep, lang: str | None = None) -> HTMLResponse:
    """The games, a form to create a table, the tables to join or watch.

    ``?invite=USERNAME`` fills the form's second seat with an invitation to that player (a friend's page links here).
    """
    invite = request.query_params.get("invite", "")[:24]
    return await lobby_page(request, services, page_reader(request, lang), invite=invite or None)


async def lobby_page(
    request: Request,
    services: Services,
    reader: Translator,
    error: str | None = None,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    """The lobby, with ``error`` (a form's problem) answered with HTTP ``status``; ``context``: more (``chosen``)."""
    games = [game_card(name) for name in registered_games()]
    extra = {"error": error, **context} if error is not None else context
    filters = lobby_filters(request)
    page = render_page(
        "lobby.html",
        reader,
        request,
        games=games,
        filters=filters,
        once=lambda: secrets.token_urlsafe(16),
        next_path=safe_next(request.query_params.get("next")),
        waiting=await lobby_tables(services, filters, waiting=True),
        tables=[] if filters.waiting_only else await lobby_tables(services, filters),
        who=lambda p: who(p, reader),
        me=await current_account(request),
        **extra,
    )
    page.status_code = status
    return page


@router.post("/tables", response_class=HTMLResponse)
async def create(
    request: Request, services: ServicesDep, game: Annotated[str, Form()], lang: str | None = None
) -> HTMLResponse:
    """Create a table from the lobby's form and show each seat's invite link (shown only here)."""
    reader = page_reader(request, lang)
    form = await request.form()
    try:
        asked = _create_request(game, form)
        created = await services.lobby.create_table(asked, client_address(request), await current_account(request))
    except (MeepleError, ValueError, QuotaExceeded) as exc:
        message = _problem(exc, reader)
        page = await lobby_page(request, services, reader, message, _status(exc), chosen=game)
        if isinstance(exc, QuotaExceeded):  # as POST /api/tables answers the same request
            services.refused(exc.reason)
            page.headers["Retry-After"] = str(exc.retry_after)
        return page
    table_id, tokens = created.table, created.tokens
    config = services.config
    base = (config.public_urls[0] if config.public_urls else str(request.base_url)).rstrip("/")
    links = [(seat, f"{base}/tables/{table_id}?token={token}") for seat, token in tokens]
    return render_page(
        "invite.html",
        reader,
        request,
        table=table_id,
        game=game,
        title=game_class(game).title,
        links=links,
        watch=f"{base}/tables/{table_id}",
    )


def _create_request(game: str, form: Any) -> CreateTable:
    """The lobby form's table as ``POST /api/tables`` takes it: parameters, seats, clock, rated.

    Raises:
        MeepleError: an unknown game or a parameter out of its range.
        ValueError: a field :class:`CreateTable` refuses (a pydantic ``ValidationError``), or a number that is not one.
    """
    spec = game_class(game)
    params: dict[str, Any] = {}
    for p in spec.describe_params():
        value = form.get(f"param_{p.name}")
        if isinstance(value, str) and value != "":
            params[p.name] = value
    players = int(build_params(spec.params_type, params, game).players)  # in range before seats are read
    seats = [_form_seat(form, s) for s in range(players)]
    clock = _form_clock(form)
    rated = form.get("rated") == "1"
    fields: dict[str, Any] = {"game": game, "params": params, "seats": seats, "rated": rated}
    if clock is not None:  # none chosen: left unset, so that a rated table takes the server's rated rules
        fields["clock"] = clock
    return CreateTable.model_validate(fields)


def _form_seat(form: Any, seat: int) -> str | dict[str, str]:
    """Seat ``seat`` of the lobby's form: its choice, or ``{"invite": USERNAME}`` for "invite a player by name"."""
    choice = str(form.get(f"seat_{seat}") or "human")
    if choice != "invite":
        return choice
    return {"invite": str(form.get(f"invite_{seat}") or "").strip()[:64]}


@router.post("/quickmatch", response_class=HTMLResponse)
async def play_now(
    request: Request,
    services: ServicesDep,
    game: Annotated[str, Form(max_length=64)],
    players: Annotated[int, Form(ge=1, le=16)],
    name: Annotated[str | None, Form(max_length=96)] = None,
    rated: Annotated[bool, Form()] = False,
    once: Annotated[str | None, Form(max_length=4 * MAX_KEY)] = None,
    lang: str | None = None,
) -> Response:
    """The lobby's "Play now": a quick-match seat (``POST /api/quickmatch``), then its table page.

    Logged in, the seat is bound to the account and ``rated`` may be asked; a guest gives a name. ``once``: the
    form's key, drawn when the page was rendered: the same form sent twice (a double click) gets one seat.
    """
    reader = page_reader(request, lang)
    address = client_address(request)
    try:
        player = (_guest_name(name), await current_account(request))
        asked = {"game": game, "players": players, "name": name, "rated": rated}
        key = request_key(once, address, player[1], asked) if once else None
        seat = await services.once.run(
            key, lambda: services.lobby.quick_match(game, players, rated, player, address, seated_tables(request))
        )
    except (MeepleError, ValueError, QuotaExceeded) as exc:
        return await lobby_page(request, services, reader, _problem(exc, reader), _status(exc))
    target = with_lang(f"/tables/{seat.table}", lang)
    return with_seat_cookie(RedirectResponse(target, status_code=303), request, seat.table, seat.token)


@router.post("/tables/{table_id}/join", response_class=HTMLResponse)
async def join_page(
    request: Request,
    services: ServicesDep,
    table_id: str,
    name: Annotated[str | None, Form(max_length=96)] = None,
    lang: str | None = None,
) -> Response:
    """The lobby's "Join" of a waiting table (``POST /api/tables/{id}/join``), then its table page."""
    reader = page_reader(request, lang)
    target = with_lang(f"/tables/{table_id}", lang)
    if await seat_of(services, request, table_id) is not None:
        return RedirectResponse(target, status_code=303)  # this browser holds a seat there already
    try:
        me = await current_account(request)
        seat = await services.lobby.join(table_id, _guest_name(name), me, client_address(request))
    except TableNotFound:
        raise HTTPException(404, f"no table {cut(table_id)!r}") from None
    except (MeepleError, ValueError, QuotaExceeded) as exc:
        return await lobby_page(request, services, reader, _problem(exc, reader), _status(exc))
    return with_seat_cookie(RedirectResponse(target, status_code=303), request, table_id, seat.token)


async def lobby_tables(services: Services, filters: LobbyFilters, waiting: bool = False) -> list[dict[str, Any]]:
    """The waiting tables (``waiting``), else the newest others: id, game, status, seats (who plays, connected).

    Nothing secret. Filtered by the lobby's ``filters`` (:mod:`meeple.web.pages.filters`).
    """
    if waiting:
        rows = await services.listing.rows(WAITING_SHOWN, None, "waiting", filters.which)
    else:
        rows = [
            r for r in await services.listing.rows(OTHERS_SHOWN, None, None, filters.which) if r[0].status != "waiting"
        ]
    return [
        {
            "id": row.id,
            "game": row.game,
            "title": title_of(row.game),
            "status": row.status,
            "rated": bool(row.rated),
            "clock": row.clock,
            "grace": row.grace,
            "substitute": row.substitute,
            "ended": row.ended,
            "seats": [
                {"player": s.player, "online": online.get(s.seat, False), "name": s.name, "reserved": _reserved(s)}
                for s in seats
            ],
            "free": sum(1 for s in seats if s.player == "open" and not _reserved(s)),
            "open": sum(1 for s in seats if s.player == "human" and not online.get(s.seat, False)),
            "days": _days_per_move(row.clock),
        }
        for row, seats, online, _users in rows
    ]


def _reserved(seat: SeatRow) -> bool:
    """An open seat kept for someone (an invitation by name, a rematch's seat): nobody else may join it."""
    return seat.player == "open" and (seat.invited is not None or seat.reserved_from is not None)


def game_card(name: str) -> dict[str, Any]:
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


def _days_per_move(clock: dict[str, Any] | None) -> int:
    """Whole days per move of a turn-based clock (0: not turn-based, or under a day), for the lobby's list."""
    if clock is None or not is_turn_based(clock):
        return 0
    return int(float(clock["spec"]["per_move"]) // 86_400)


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
