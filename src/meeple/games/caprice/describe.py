"""Texts of Caprice actions, redacted for the seats that may not see their hidden part (the manual symbol order).

Rules: caprice.md §4-14; docs/decisions.md "Caprice" (what is public about an exchange and an order).
"""

from __future__ import annotations

from meeple.core.action import Action
from meeple.games.caprice.actions import ExchangeSymbol, KeepSymbol, Move, OrderSymbol, Place, SkipMove


def describe(action: Action, actor: int, perspective: int | None) -> str:
    """Return the text of ``action`` by ``actor`` as ``perspective`` may see it (``None``: full text).

    Raises:
        TypeError: ``action`` is not a Caprice action.
    """
    if isinstance(action, Place):
        return f"place {action.piece} on {action.space}"
    if isinstance(action, Move):
        return f"move the top piece of {action.source} to {action.target}"
    if isinstance(action, SkipMove):
        return "do not move"
    if isinstance(action, KeepSymbol):
        return "keep the drawn symbol"
    if isinstance(action, ExchangeSymbol):
        return "exchange the drawn symbol (set it aside and draw again)"
    if isinstance(action, OrderSymbol):
        if perspective is not None and perspective != actor:
            return "choose the next symbol of the order"
        return f"put {action.symbol} next in the order"
    raise TypeError(f"not a Caprice action: {action!r}")
