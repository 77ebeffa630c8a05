"""How a table ends other than by its last move: aborted, and the forfeit of a rated seat.

*Aborted*: never played, no result, nobody rated. *Forfeit*: a rated seat ranks last for the rating, and the
substitute bot finishes the game for the others.

Both run inside the table's own transaction (:class:`meeple.server.tables.TableService`), on its cached
:class:`~meeple.server.live.LiveTable`; the caller then writes the change (``_finish_change``: status, seats,
deadline, revision, notification).

- **Arrival.** A human seat *arrives* when its human first connects or moves (:func:`arrive`). A seat that never
  arrived is never played by a bot, and when it is to move and has not come within the no-start window
  (``--no-start-minutes``, :meth:`LiveTable.no_show_at`) its table is aborted (``no_show``), as lichess's
  ``noStart`` aborts a game whose player never made a first move. The operator's own tables wait.
- **Aborted** (:func:`abort`): the status ``aborted`` with its reason (:data:`ABORTS`) and time; no move is taken
  any more, and nobody is rated, the table being marked as settled in the same transaction.
- **Forfeit** (:func:`forfeit`): a rated seat gives up its result: it ranks last for the rating, tied with any other
  forfeited seat (:func:`rating_ranks`). Before its own first move it aborts the table instead (``no_move``):
  nobody is rated. As soon as at most one seat has not forfeited, the ratings are settled at once (no later move
  could change them); otherwise at the game's end. A "resign" reuses :func:`forfeit` with its own reason.

Rules: issue 41, items 2 ("a human seat that never connected is never bot-played"), 3 ("unplayed tables are
aborted") and 7 ("a rating only ever reflects moves made by the account's own human").
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, update

from meeple.core.rewards import competition_ranks
from meeple.i18n import M, Message
from meeple.server.db import TableRow
from meeple.server.live import LiveTable
from meeple.server.ratings import close_unrated, rate_table

ABORTS: dict[str, Message] = {
    "no_show": M("aborted: a player never came to the table"),
    "no_move": M("aborted: a player of this rated game left before their first move; nobody is rated"),
    "server_full": M("aborted: the server was full and nobody had played at this table yet"),
    "lapsed": M("aborted: the rematch offer lapsed before everyone accepted"),
    "declined": M("aborted: a player declined the rematch"),
}
"""Why a table was aborted (``tables.ended``), as the pages and the terminal say it."""


def arrive(live: LiveTable, seat: int, now: float, moved: bool = False) -> bool:
    """``seat``'s human came (a connection, or a move of their own when ``moved``); True if the cache changed."""
    state = live.seats[seat]
    if not state.is_human:
        return False
    changed = False
    if state.arrived is None:
        state.arrived, changed = now, True
    if moved and state.moved is None:
        state.moved, changed = now, True
    if changed:
        live.seats_dirty.add(seat)
    return changed


def abort(s: Connection, live: LiveTable, reason: str, now: float) -> None:
    """End ``live`` as ``aborted`` for ``reason`` (a key of :data:`ABORTS`): no result, nobody rated.

    The caller writes the status with the rest of the change.
    """
    live.status, live.ended, live.ended_at = "aborted", reason, now
    s.execute(update(TableRow).where(TableRow.id == live.id).values(ended=reason, ended_at=now))
    if live.rated:
        close_unrated(s, live.id, now)


def forfeit(s: Connection, live: LiveTable, seat: int, why: str, now: float) -> bool:
    """``seat`` of the rated table ``live`` forfeits for ``why`` (``time``, ``away``, ``claim``...).

    It ranks last for the rating; the ratings are settled now if at most one seat has not forfeited. A seat that has
    not made a move of its own yet aborts the table instead (``no_move``: nobody rated). Returns True if the table
    was aborted. Does nothing at an unrated table, or for a seat that forfeited already.
    """
    state = live.seats[seat]
    if not live.rated or state.forfeit is not None:
        return False
    if state.moved is None:
        abort(s, live, "no_move", now)
        return True
    state.forfeit = why
    live.seats_dirty.add(seat)
    settle(s, live, now)
    return False


def rating_ranks(forfeits: Sequence[bool], finish: Sequence[int] | None) -> list[int] | None:
    """Each seat's rank for the rating (1 = first), or None while it is not decided.

    Seats that did not forfeit are ranked by ``finish`` (the game's :func:`~meeple.core.rewards.finish_ranks`); the
    forfeited ones all tie last. Without ``finish`` (the game goes on) it is decided only when at most one seat has
    not forfeited.
    """
    playing = [s for s, lost in enumerate(forfeits) if not lost]
    if finish is None and len(playing) > 1:
        return None
    keys = [(0, 0) if lost else (1, -(finish[s] if finish is not None else 1)) for s, lost in enumerate(forfeits)]
    return competition_ranks(keys)


def settle(s: Connection, live: LiveTable, now: float, finish: Sequence[int] | None = None) -> bool:
    """Rate the rated table ``live`` if its ranks are decided (:func:`rating_ranks`); True if it was settled now.

    Every seat forfeited: nobody is rated (the table is only marked settled). A table is settled once.
    """
    if not live.rated:
        return False
    forfeits = [seat.forfeit is not None for seat in live.seats]
    if all(forfeits):
        return close_unrated(s, live.id, now)
    ranks = rating_ranks(forfeits, finish)
    if ranks is None:
        return False
    return rate_table(s, live.id, live.game, ranks, now)
