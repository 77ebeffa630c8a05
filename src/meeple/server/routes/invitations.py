"""The REST routes of an account's invitations and blocks.

``GET /api/me/invitations``, ``DELETE /api/me/invitations/{table}`` (issue #44, item 2) and ``GET /api/me/blocks``,
``PUT``/``DELETE /api/me/blocks/{username}`` (item 6). Each needs a session (401 without). The handlers translate:
the use cases are :class:`meeple.server.rematch.Rematches` and :class:`meeple.server.blocks.Blocks`.

Rules: issue #44, items 2 and 6; docs/server.md.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from meeple.core.errors import MeepleError
from meeple.server.blocks import BlockRefused
from meeple.server.replies import request_reader
from meeple.server.routes.accounts import me_or_401
from meeple.server.routes.lobby import refused
from meeple.server.services import ServicesDep

router = APIRouter()

_SESSION: dict[int | str, dict[str, Any]] = {
    401: {"description": "no session"},
    429: {"description": "quota reached (Retry-After)"},
}


@router.get("/api/me/invitations", responses=_SESSION)
async def invitations(http: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """The waiting tables where a seat is reserved for the logged-in account, newest first (at most 100).

    ``[{"table", "game", "seat", "by" (the creator's username), "rated", "rematch_of" (the finished table of a
    rematch, else null), "lapse_at" (when a rematch offer lapses), "created"}]``: public facts, no token. The seat
    is taken with ``POST /api/tables/{id}/join`` (or ``rematch`` from the finished table); ``DELETE`` declines.
    """
    account = await me_or_401(http)
    services.limiter.hit("my_tables", f"account {account.id}", "lists of your tables")
    return await asyncio.to_thread(services.rematches.invitations, account.id)


@router.delete("/api/me/invitations/{table_id}", responses={404: {"description": "no invitation there"}, **_SESSION})
async def decline(table_id: str, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Decline the invitation to ``table_id``: 200 ``{"table", "declined": true}``.

    A rematch ends at once (``aborted``, ``ended: "declined"``); at another table the seat becomes an ordinary open
    seat. 404 if no invitation of this account waits there (or no such table).
    """
    account = await me_or_401(http)
    try:
        await services.rematches.decline_invitation(table_id, account)
    except MeepleError as exc:
        refused(exc, http, table_id)
    return {"table": table_id, "declined": True}


@router.get("/api/me/blocks", responses=_SESSION)
async def blocks(http: Request, services: ServicesDep) -> list[dict[str, Any]]:
    """The accounts the logged-in account blocks: ``[{"username", "since"}]`` (Unix seconds), oldest first."""
    account = await me_or_401(http)
    return await asyncio.to_thread(services.blocks.listed, account.id)


async def _change(http: Request, services: ServicesDep, username: str, block: bool) -> dict[str, Any]:
    account = await me_or_401(http)
    try:
        if block:
            username = await asyncio.to_thread(services.blocks.block, account.id, username)
        else:
            await asyncio.to_thread(services.blocks.unblock, account.id, username)
    except BlockRefused as exc:
        raise HTTPException(exc.status, request_reader(http).message(exc.message)) from None
    names = await asyncio.to_thread(services.blocks.blocked_names, account.id)
    await services.hub.blocks_changed(account.id, names)
    return {"username": username, "blocked": block}


@router.put(
    "/api/me/blocks/{username}",
    responses={404: {"description": "no such player"}, 409: {"description": "too many blocked"}, **_SESSION},
)
async def block(username: str, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Block ``username`` (any case): 200 ``{"username", "blocked": true}``; blocking again changes nothing.

    Their chat lines are hidden from you (at once, on your open tables too), quick match never seats you together,
    their invitations are refused. They are not told. 404 for no such player, 422 for yourself, 409 past 500
    blocked players, 429 past ``--blocks-per-minute`` changes.
    """
    return await _change(http, services, username[:64], True)


@router.delete("/api/me/blocks/{username}", responses={404: {"description": "no such player"}, **_SESSION})
async def unblock(username: str, http: Request, services: ServicesDep) -> dict[str, Any]:
    """Unblock ``username``: 200 ``{"username", "blocked": false}`` (also if they were not blocked)."""
    return await _change(http, services, username[:64], False)
