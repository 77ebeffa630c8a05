"""Texts of Caprice actions, redacted for the seats that may not see their hidden part (the manual symbol order).

Rules: caprice.md §4-14; docs/decisions.md "Caprice" (what is public about an exchange and an order).
"""

from __future__ import annotations

from meeple.core.action import Action
from meeple.games.caprice.actions import ExchangeSymbol, KeepSymbol, Move, OrderSymbol, Place, SkipMove
from meeple.i18n.message import M, Message


def describe(action: Action, actor: int, perspective: int | None) -> Message:
    """Return the text of ``action`` by ``actor`` as ``perspective`` may see it (``None``: full text).

    Pieces and symbols keep their codes (``DR``: dark round, ``LT``: light toothed) and spaces their letters in
    every language: they are what a player types (the renderers' legend names them in words).

    Raises:
        TypeError: ``action`` is not a Caprice action.
    """
    match action:
        case Place(piece=piece, space=space):
            return M("place {piece} on {space}", piece=piece, space=space)
        case Move(source=source, target=target):
            return M("move the top piece of {source} to {target}", source=source, target=target)
        case SkipMove():
            return M("do not move")
        case KeepSymbol():
            return M("keep the drawn symbol")
        case ExchangeSymbol():
            return M("exchange the drawn symbol (set it aside and draw again)")
        case OrderSymbol(symbol=symbol):
            if perspective is not None and perspective != actor:
                return M("choose the next symbol of the order")
            return M("put {symbol} next in the order", symbol=symbol)
    raise TypeError(f"not a Caprice action: {action!r}")
