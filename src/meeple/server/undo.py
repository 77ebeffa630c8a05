"""Undo at a server's table: a seat takes back its own moves of the running turn, never across a reveal.

An undo is an event of the table's log like a move: ``{"undo": k}`` (the last ``k`` actions are taken back), written
with the seat and the client's ``move_id`` in the transaction that checks it, so a restart or another process
replaying the log reaches the same position (:func:`apply_undo`), and a resent undo is applied once. The engine
decides what may be taken back (:func:`meeple.core.undo.undo_in_turn`: within the seat's turn, never across a card
drawn, a character revealed or a bid opened).

Each undo leaves a :class:`Takeback` note: where it sits in each reader's log, and which readers saw something
change. Only those are told ("Ann took back a move", an ``undone`` frame): a reader whose view did not change (the
undone step was hidden from it inside a run of hidden steps that goes on) learns nothing, not even that an undo
happened, so no count of another seat's hidden steps leaks.

Rules: issue #43 item 5 (undo in the browser, as Board Game Arena does); docs/server.md ("undo").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meeple.core.errors import InvalidStateError
from meeple.core.records import GameRecord
from meeple.core.state import SPECTATOR, State

if TYPE_CHECKING:
    from meeple.server.live import LiveTable

UNDO = "undo"
"""The key of an undo event's ``action`` column: ``{"undo": k}``."""


@dataclass(frozen=True)
class Takeback:
    """One undo, as the log shows it.

    Attributes:
        seat: the seat that took its moves back.
        kept: per perspective (a seat, or :data:`SPECTATOR`), how many lines of its log remained: the note follows
            that line.
        seen: the perspectives whose view (observation or log) changed: only they are told.
    """

    seat: int
    kept: Mapping[int, int]
    seen: frozenset[int]


def undo_count(action: Any) -> int | None:
    """The number of actions an undo event takes back, or None if ``action`` is a move's JSON."""
    if isinstance(action, dict) and set(action) == {UNDO} and isinstance(action[UNDO], int):
        return int(action[UNDO])
    return None


def perspectives(state: State[Any]) -> list[int]:
    """Every reader of a table: each seat, then the spectator."""
    return [*range(state.game.num_players), SPECTATOR]


def _views(state: State[Any]) -> dict[int, str]:
    """Each perspective's view (observation and redacted log) as one comparable text."""
    out = {}
    for p in perspectives(state):
        observation = state.observation(None if p == SPECTATOR else p)
        log = [(actor, message.to_json()) for actor, message in state.history_messages(p)]
        out[p] = json.dumps([observation, log], sort_keys=True, default=str)
    return out


def apply_undo(live: LiveTable, seat: int, count: int, earlier: State[Any] | None = None) -> Takeback:
    """Take the last ``count`` actions of ``live`` back (the event ``{"undo": count}`` by ``seat``); note it.

    Args:
        live: the table (its state, ``by_bot`` and logs are replaced; the note is appended to ``takebacks``).
        seat: the seat that undoes.
        count: how many actions go.
        earlier: the position already rebuilt (the master computed it to check the undo), else replayed here.

    Raises:
        InvalidStateError: ``count`` is not between 1 and the number of actions (a corrupted log).
    """
    length = len(live.state.history)
    if not 0 < count <= length:
        raise InvalidStateError(f"undo of {count} actions in a history of {length}")
    before = _views(live.state)
    if earlier is None or len(earlier.history) != length - count:
        earlier = GameRecord.from_state(live.state).replay(length - count)
    live.state = earlier
    live.by_bot = live.by_bot[: length - count]
    live.logs.clear()
    after = _views(earlier)
    kept = {p: len(earlier.history_messages(p)) for p in after}
    note = Takeback(seat, kept, frozenset(p for p in after if after[p] != before[p]))
    live.takebacks.append(note)
    return note
