"""The lobby's filters (issue #44, item 7): game, player count, rated or not, waiting tables only.

The lobby's filter form is a GET of ``/`` (``?game=&players=&rated=yes|no&waiting=1``), the same filters as
``GET /api/tables?game=&players=&rated=&status=waiting``. A value the form cannot have sent (an unknown game, a
count out of range, another word) filters nothing and is shown as "any": a page never fails on its own filters.

Waiting tables are listed apart, before the others (up to :data:`WAITING_SHOWN`), so that a waiting table stays in
view until it starts however many tables are made after it; the newest other tables follow (:data:`OTHERS_SHOWN`).

Rules: issue #44 "People who come back", item 7 (lobby filters; a waiting table stays listed until it starts).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from meeple.core.registry import registered_games
from meeple.server.tables import TableFilter

WAITING_SHOWN = 200
"""Waiting tables the lobby lists at most (the API's largest page)."""
OTHERS_SHOWN = 50
"""Live and ended tables the lobby lists (the newest)."""
MAX_PLAYERS = 16


@dataclass(frozen=True)
class LobbyFilters:
    """What the lobby's filter form asked for (each None: any)."""

    game: str | None = None
    players: int | None = None
    rated: bool | None = None
    waiting_only: bool = False

    @property
    def which(self) -> TableFilter | None:
        """The filter of the tables' listing (None: every table)."""
        if (self.game, self.players, self.rated) == (None, None, None):
            return None
        return TableFilter(self.game, self.players, self.rated)

    @property
    def active(self) -> bool:
        """Whether any filter is set (the page says so and offers to clear them)."""
        return self.which is not None or self.waiting_only


def lobby_filters(request: Request) -> LobbyFilters:
    """The filters of the lobby's query string; values it cannot hold are "any"."""
    query = request.query_params
    game = query.get("game")
    players = query.get("players", "")
    rated = {"yes": True, "no": False}.get(query.get("rated", ""))
    return LobbyFilters(
        game=game if game in registered_games() else None,
        players=int(players) if players.isdigit() and 1 <= int(players) <= MAX_PLAYERS else None,
        rated=rated,
        waiting_only=query.get("waiting") == "1",
    )
