"""Why a Caprice move is refused, in words the seat to move may read (``State.why_illegal``).

First the phase (drawing symbols, placing, moving, ordering), then the move's own rule (a full tower, the supply, the
piece just placed, the red marker). Rules: caprice.md §5-§10.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.games.caprice.actions import ExchangeSymbol, KeepSymbol, Move, OrderSymbol, Place, SkipMove
from meeple.games.caprice.const import DRAW, MOVE, ORDER, PLACE
from meeple.games.caprice.data import MAX_HEIGHT, SPACE_INDEX
from meeple.games.caprice.vocabulary import PIECE
from meeple.i18n.message import M, Message

if TYPE_CHECKING:
    from meeple.games.caprice.state import CapriceState


def why_illegal(st: CapriceState, action: Action) -> Message | None:
    """A move refused by the rules, in words (§5-§9): the phase, a full tower, the supply, the marker..."""
    if isinstance(action, Place):
        return _why_place(st, action)
    if isinstance(action, Move):
        return _why_move(st, action)
    if isinstance(action, SkipMove):
        return M("now is not the time to move a piece")
    if isinstance(action, (KeepSymbol, ExchangeSymbol)):
        if st.phase != DRAW:
            return M("symbols are drawn, kept or exchanged before play begins")
        return M("you may exchange the drawn symbol only if you already hold two copies of it")
    if isinstance(action, OrderSymbol):
        if st.phase != ORDER:
            return M("symbols are put in order at the end of the game")
        return M("no {piece} symbol of yours is left to put in order", piece=PIECE[action.symbol])
    return None


def _why_place(st: CapriceState, action: Place) -> Message:
    """A placement (§6): in the placing step, on a tower with room, from the supply."""
    if st.phase != PLACE:
        return M("now is not the time to place a piece")
    if len(st.towers[SPACE_INDEX[action.space]]) >= MAX_HEIGHT:
        return M("tower {space} is full (4 pieces)", space=action.space)
    return M("no {piece} piece is left in the supply", piece=PIECE[action.piece])


def _why_move(st: CapriceState, action: Move) -> Message:
    """A move (§7-§8): a top piece not just placed nor marked, onto another tower with room."""
    if st.phase != MOVE:
        return M("now is not the time to move a piece")
    src, dst = SPACE_INDEX[action.source], SPACE_INDEX[action.target]
    if not st.towers[src]:
        return M("there is no piece on {space}", space=action.source)
    if src == st.placed:
        return M("the piece on {space} was just placed: it cannot move this turn", space=action.source)
    if src == st.marker:
        return M("the top piece of {space} moved last (the red marker): it cannot move", space=action.source)
    if src == dst:
        return M("a piece moves onto another tower")
    return M("tower {space} is full (4 pieces)", space=action.target)
