"""The actions of Caprice.

Rules: caprice.md §5 (exchange), §6 (placement), §7 (move), §13 (manual order).
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.core.action import Action
from meeple.games.caprice.data import PIECE_INDEX, SPACE_INDEX


def _check_piece(piece: str) -> None:
    if piece not in PIECE_INDEX:
        raise ValueError(f"unknown piece {piece!r}; pieces are {', '.join(PIECE_INDEX)}")


def _check_space(space: str) -> None:
    if space not in SPACE_INDEX:
        raise ValueError(f"unknown space {space!r}; spaces are {', '.join(SPACE_INDEX)}")


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place a piece of type ``piece`` from the supply on space ``space`` (§6).

    Attributes:
        piece: "DR", "DT", "LR" or "LT".
        space: "A".."F".
    """

    piece: str
    space: str

    def __post_init__(self) -> None:
        _check_piece(self.piece)
        _check_space(self.space)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move the lone or top piece of space ``source`` onto space ``target`` (§7).

    Attributes:
        source: "A".."F".
        target: "A".."F", different from ``source``.
    """

    source: str
    target: str

    def __post_init__(self) -> None:
        _check_space(self.source)
        _check_space(self.target)
        if self.source == self.target:
            raise ValueError("a piece must move to a different space")


@dataclass(frozen=True, slots=True)
class SkipMove(Action):
    """Decline the optional move of this turn (§7)."""


@dataclass(frozen=True, slots=True)
class KeepSymbol(Action):
    """Keep the symbol just drawn from the bag (§4-5)."""


@dataclass(frozen=True, slots=True)
class ExchangeSymbol(Action):
    """Set aside the third copy just drawn and draw until another symbol comes (§5)."""


@dataclass(frozen=True, slots=True)
class OrderSymbol(Action):
    """Put a symbol next (from the bottom) in one's final order (§10, variant ``symbol_order="manual"``).

    Attributes:
        symbol: "DR", "DT", "LR" or "LT".
    """

    symbol: str

    def __post_init__(self) -> None:
        _check_piece(self.symbol)


ACTION_TYPES: tuple[type[Action], ...] = (Place, Move, SkipMove, KeepSymbol, ExchangeSymbol, OrderSymbol)
"""Every action class of Caprice."""
