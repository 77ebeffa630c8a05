"""Parameters (variant flags) of Caprice.

Rules: caprice.md §3 (players), §5 (third-symbol exchange), §13 (choosing the order), docs/decisions.md "Caprice".
Every parameter that is not a choice has a checked range (issue 41, item 1; :mod:`meeple.core.params`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from meeple.core.params import param


@dataclass(frozen=True)
class CapriceParams:
    """Caprice parameters.

    Attributes:
        players: 2 to 4 players.
        third_symbol_exchange: "optional" (the drawing player decides, as the French rules say) or "mandatory".
        symbol_order: "best" (the engine scores each player's best order) or "manual" (each player chooses).
        first_player: the seat that starts; -1 draws it with the game's seeded generator.
    """

    players: int = param(2, "number of players (2-4)", low=2, high=4)
    third_symbol_exchange: Literal["optional", "mandatory"] = field(
        default="optional",
        metadata={
            "doc": "a drawn third copy of a symbol held twice: 'optional' = the drawer may exchange it (FR rules), "
            "'mandatory' = it is always set aside and replaced"
        },
    )
    symbol_order: Literal["best", "manual"] = field(
        default="best",
        metadata={
            "doc": "final order of each player's symbols: 'best' = the engine picks the best of the orders, "
            "'manual' = each player chooses it symbol by symbol at the end"
        },
    )
    first_player: int = param(-1, "seat of the first player; -1 = drawn at random from the game's seed", low=-1, high=3)
