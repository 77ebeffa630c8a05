"""The REST routes of friends and presence (issue #44, item 3).

- ``PUT /api/me/friends/{username}``: follow (one way); ``DELETE``: unfollow; ``GET /api/me/friends``: the accounts
  followed, each ``online`` and, unless hidden by its player, the live table it plays at.
- ``GET`` / ``PUT /api/me/presence``: whether the account hides its live table from its followers.

Each reads the request, calls :class:`meeple.server.friends.Friends` and translates its refusals (docs/server.md).

Rules: issue #44 "People who come back", item 3; docs/server.md.
"""

from __future__ import annotations

from typing import Any, NoReturn

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from meeple.i18n import M
from meeple.server.accounts import Account
from meeple.server.friends import FriendRefused
from meeple.server.replies import request_reader
from meeple.server.seats import client_address
from meeple.server.services import ServicesDep, current_account

router = APIRouter()

NOT_LOGGED_IN: dict[int | str, dict[str, Any]] = {401: {"description": "not logged in"}}


class FriendTable(BaseModel):
    """The live table a friend plays at: what any spectator may open."""

    table: str
    game: str


class FriendEntry(BaseModel):
    """An account followed (``GET /api/me/friends``)."""

    username: str
    online: bool = Field(description="a page viewed or a live connection in the last 5 minutes")
    table: FriendTable | None = Field(description="the live table it plays at; None if none or hidden by its player")
    since: float = Field(description="when it was followed (Unix seconds)")


class Unfollowed(BaseModel):
    """``DELETE /api/me/friends/{username}``'s answer."""

    username: str
    following: bool = Field(description="always false: the account is not followed (any more)")
    was_following: bool = Field(description="it was followed until this request")


class PresenceSettings(BaseModel):
    """What an account shows its followers (``PUT /api/me/presence``)."""

    hide_table: bool = Field(description="hide the live table you play at from the accounts that follow you")

    model_config = ConfigDict(extra="forbid")


async def _me(http: Request) -> Account:
    account = await current_account(http)
    if account is None:
        raise HTTPException(401, request_reader(http).message(M("log in first")))
    return account


def _refused(exc: FriendRefused, http: Request) -> NoReturn:
    raise HTTPException(exc.status, request_reader(http).message(exc.message)) from None


@router.get("/api/me/friends", response_model=list[FriendEntry], responses=NOT_LOGGED_IN)
async def friends(http: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """The accounts the logged-in account follows, online ones first, then by username.

    Each ``{username, online, table, since}``: ``online`` is a page viewed or a live connection in the last 5
    minutes (any server process); ``table`` the live table it plays at (``{table, game}``: what a spectator may
    open), None if none or if its player hides it. 401 without a session.
    """
    me = await _me(http)
    return [f.to_json() for f in await services.friends.friends(me)]


@router.put(
    "/api/me/friends/{username}",
    response_model=FriendEntry,
    responses={
        **NOT_LOGGED_IN,
        404: {"description": "no such player"},
        409: {"description": "too many players followed"},
        422: {"description": "yourself"},
        429: {"description": "too many follows this minute (Retry-After)"},
    },
)
async def follow(username: str, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Follow ``username`` (any case; one way: it is not told): 200 with the friend as ``GET /api/me/friends`` lists it.

    Again: 200, nothing changes. 404 for no such account, 422 for yourself, 409 past 500 accounts followed, 429
    past ``--follows-per-minute`` (per account and per address), 401 without a session.
    """
    me = await _me(http)
    try:
        return (await services.friends.follow(me, username, client_address(http))).to_json()
    except FriendRefused as exc:
        _refused(exc, http)


@router.delete(
    "/api/me/friends/{username}",
    response_model=Unfollowed,
    responses={**NOT_LOGGED_IN, 404: {"description": "no such player"}},
)
async def unfollow(username: str, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Stop following ``username``: 200 ``{username, following: false, was_following}``; 404 for no such account."""
    me = await _me(http)
    try:
        was = await services.friends.unfollow(me, username)
    except FriendRefused as exc:
        _refused(exc, http)
    return {"username": username, "following": False, "was_following": was}


@router.get("/api/me/presence", response_model=PresenceSettings, responses=NOT_LOGGED_IN)
async def presence(http: Request, services: ServicesDep) -> dict[str, bool]:
    """``{hide_table}``: whether the logged-in account hides its live table from its followers."""
    me = await _me(http)
    return {"hide_table": await services.friends.hides_table(me)}


@router.put(
    "/api/me/presence",
    response_model=PresenceSettings,
    responses={**NOT_LOGGED_IN, 429: {"description": "too many changes this minute (Retry-After)"}},
)
async def set_presence(settings: PresenceSettings, http: Request, services: ServicesDep) -> dict[str, bool]:
    """Body ``{"hide_table": true|false}``: hide (or show) the live table you play at from those who follow you.

    429 past ``--follows-per-minute`` changes (per account and per address).
    """
    me = await _me(http)
    return {"hide_table": await services.friends.set_hide_table(me, settings.hide_table, client_address(http))}
