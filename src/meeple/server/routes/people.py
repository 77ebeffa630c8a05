"""The REST routes of people: a player's profile, a game's leaderboard, the logged-in account's tables.

- ``GET /api/players/{username}``: a profile (ratings, latest finished games). ``GET /api/leaderboard/{game}``.
- ``GET /api/me/tables``: the account's live and waiting tables, its turns first.

Rules: issue #34 "People at the table" (items 5 and 6); issue #39 (my tables); docs/server.md.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from sqlalchemy.orm import Session

from meeple.core.registry import registered_games
from meeple.i18n import M
from meeple.server.accounts import MAX_USERNAME, Accounts
from meeple.server.mytables import MyTable, count_request, my_tables
from meeple.server.ratings import MAX_OFFSET, MAX_PAGE, leaderboard, ratings_of, recent_games
from meeple.server.replies import AcceptLanguage, LangQuery, reader_of, request_reader
from meeple.server.results import statistics
from meeple.server.seats import client_address
from meeple.server.services import Services, ServicesDep, current_account

router = APIRouter()


@router.get("/api/players/{username}", responses={404: {"description": "no such player"}})
async def player(username: str, http: Request, services: ServicesDep) -> dict[str, Any]:
    """A player's profile: ``{username, created, online, ratings: {game: {...}}, stats: {game: {...}}, games}``.

    ``online``: a page viewed or a live connection in the last 5 minutes. ``stats``: per game, ``{games, wins,
    ranked, average_rank, history}`` (``history``: the rating after each rated game, for a chart). ``games``: the
    latest finished games, newest first, each ``{table, game, created, rated, seat, rank, players, record,
    replay}`` (the final ranks; links to the record and the replay page). Never a live or waiting game.
    """
    profile = await public_profile(services, username)
    if profile is None:
        raise HTTPException(404, request_reader(http).message(M("no player {name!r}", name=username[:MAX_USERNAME])))
    return profile


@router.get("/api/leaderboard/{game}", responses={404: {"description": "no such game"}})
async def board(
    game: str,
    http: Request,
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="entries per page")] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET, description="entries skipped")] = 0,
) -> dict[str, Any]:
    """The best-rated accounts at ``game``, best ``rating`` (mu - 3 sigma) first; 404 for an unknown game.

    ``{game, total, limit, offset, entries: [{rank, username, rating, mu, sigma, games, updated}]}``.
    """
    if game not in registered_games():
        raise HTTPException(404, request_reader(http).message(M("no game {game!r}", game=game[:64])))
    total, entries = await asyncio.to_thread(_leaderboard, services.accounts, game, limit, offset)
    return {"game": game, "total": total, "limit": limit, "offset": offset, "entries": entries}


@router.get("/api/me/tables", response_model=list[MyTable], responses={401: {"description": "not logged in"}})
async def me_tables(
    http: Request, services: ServicesDep, lang: LangQuery = None, accept_language: AcceptLanguage = None
) -> list[dict[str, Any]]:
    """The logged-in account's live and waiting tables: its turns first (soonest deadline first).

    Each: the table, game, status, the account's ``seat``, ``your_turn``, ``current_player``, the seats (public
    names), ``turn_based``, ``per_move`` and the running turn's ``deadline``: nothing hidden, no token. 401
    without a session. Names of bots and unnamed seats in ``lang`` (else ``Accept-Language``, else English).
    429 with ``Retry-After`` past ``--my-tables-per-minute`` per address or per account.
    """
    reader = reader_of(lang, accept_language)
    account = await current_account(http)
    if account is None:
        raise HTTPException(401, reader.message(M("log in first")))
    count_request(services.limiter, client_address(http), account.id)
    return await my_tables(services.tables, account.id, reader)


async def public_profile(services: Services, username: str) -> dict[str, Any] | None:
    """:func:`profile_of` and whether the player is ``online`` (:meth:`meeple.server.friends.Friends.online`)."""
    if len(username) > MAX_USERNAME:
        return None
    profile = await asyncio.to_thread(profile_of, services.accounts, username)
    if profile is not None:
        online = await asyncio.to_thread(services.friends.online, [profile["id"]])
        profile["online"] = online[profile.pop("id")]
    return profile


def profile_of(accounts: Accounts, username: str) -> dict[str, Any] | None:
    """The public profile of ``username`` and its account's ``id`` (not public), or None: no such live account."""
    account = accounts.by_username(username)
    if account is None:
        return None
    with Session(accounts.engine) as s:
        return {
            "id": account.id,
            "username": account.username,
            "created": account.created,
            "ratings": ratings_of(s, account.id),
            "stats": statistics(s, account.id),
            "games": recent_games(s, account.id),
        }


def _leaderboard(accounts: Accounts, game: str, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
    with Session(accounts.engine) as s:
        return leaderboard(s, game, limit, offset)
