"""The pages of people: a player's profile, a game's leaderboard, and my tables.

A profile (``/players/{username}``) shows an account's ratings and latest finished games with links to their
replays; a leaderboard (``/leaderboard/{game}``) its game's best-rated accounts, a page at a time. Both show only
what the API's ``GET /api/players/{username}`` and ``GET /api/leaderboard/{game}`` give anyone. My tables
(``/me/tables``) is ``GET /api/me/tables`` as a page.

Rules: issue #34 "People at the table" (items 5 and 6); docs/web.md.
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from meeple.core.registry import game_class, registered_games
from meeple.i18n import Translator
from meeple.server.accounts import Accounts
from meeple.server.mytables import count_request, my_tables
from meeple.server.ratings import MAX_PAGE, leaderboard
from meeple.server.routes.people import public_profile
from meeple.server.seats import client_address
from meeple.server.services import Services, ServicesDep, current_account
from meeple.web.pages.common import page_reader, render_page, title_of
from meeple.web.pages.social import profile_extras
from meeple.web.render import duration

PAGE = 25
"""Leaderboard entries per page."""
MAX_PAGES = 400
"""The deepest leaderboard page asked for (10,000 entries)."""

router = APIRouter(include_in_schema=False)


def day(timestamp: float) -> str:
    """A Unix time as an ISO date (``2026-11-25``, UTC): the same in every language."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).date().isoformat()


def _utc(moment: float) -> str:
    """A deadline as the page shows it: ``2026-11-28 15:04 UTC`` (the server knows no one's time zone)."""
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


@router.get("/me/tables", response_class=HTMLResponse)
async def my_tables_page(request: Request, services: ServicesDep, lang: str | None = None) -> HTMLResponse:
    """My tables: the logged-in account's live and waiting tables, its turns first (``GET /api/me/tables``)."""
    reader = page_reader(request, lang)
    account = await current_account(request)
    if account is not None:
        count_request(services.limiter, client_address(request), account.id)  # 429 past --my-tables-per-minute
    entries = await my_tables(services.tables, account.id, reader) if account is not None else []
    for entry in entries:
        entry["title"] = game_class(entry["game"]).title
        entry["left"] = duration(entry["deadline"] - services.tables.now(), reader) if entry["deadline"] else None
        entry["until"] = _utc(entry["deadline"]) if entry["deadline"] else None
        mover = entry["current_player"]
        entry["mover"] = entry["seats"][mover]["name"] if mover is not None else None
    return render_page("my_tables.html", reader, request, account=account, entries=entries)


async def profile_page(
    request: Request,
    services: Services,
    reader: Translator,
    username: str,
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    """The profile of ``username`` (404: no such player), with a form's ``error`` answered with HTTP ``status``."""
    found = await public_profile(services, username)
    if found is None:
        raise HTTPException(404, "no such player")
    me = await current_account(request)
    social = await profile_extras(services, me, found, reader)
    mine = me is not None and me.username == found["username"]
    blocks = await asyncio.to_thread(services.blocks.listed, me.id) if me is not None else []
    blocked = any(str(b["username"]).lower() == str(found["username"]).lower() for b in blocks)
    extra = {**social, "blocked": blocked, "blocks": blocks if mine else []}
    page = render_page(
        "profile.html", reader, request, profile=found, me=me, day=day, title_of=title_of, error=error, **extra
    )
    page.status_code = status
    return page


@router.get("/players/{username}", response_class=HTMLResponse)
async def profile(request: Request, services: ServicesDep, username: str, lang: str | None = None) -> HTMLResponse:
    """A player's profile: ratings per game, latest finished games with their replays (404: no such player).

    One's own profile also has the password change and log-out-everywhere forms.
    """
    return await profile_page(request, services, page_reader(request, lang), username)


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
async def board(
    request: Request, services: ServicesDep, game: str, page: int = 1, lang: str | None = None
) -> HTMLResponse:
    """A game's leaderboard, :data:`PAGE` accounts a page (``?page=``, 1 to :data:`MAX_PAGES`)."""
    reader = page_reader(request, lang)
    if game not in registered_games():
        raise HTTPException(404, "no such game")
    if not 1 <= page <= MAX_PAGES:
        raise HTTPException(422, f"page is 1..{MAX_PAGES}")
    total, entries = await asyncio.to_thread(_board, services.accounts, game, page)
    me = await current_account(request)
    pages = max(1, -(-total // PAGE))
    return render_page(
        "leaderboard.html",
        reader,
        request,
        game=game,
        title=title_of(game),
        entries=entries,
        page=page,
        pages=pages,
        games=[(g, title_of(g)) for g in registered_games()],
        me=me,
    )


def _board(accounts: Accounts, game: str, page: int) -> tuple[int, list[dict[str, Any]]]:
    with Session(accounts.engine) as s:
        return leaderboard(s, game, min(PAGE, MAX_PAGE), (page - 1) * PAGE)
