"""Citadels parameters (variant flags).

Rules: citadels.md §5.2 (3–7 players by the French rulebook; rules 4, 5, 15, 24), §1.2 (deck profiles). Every
parameter that is not a choice has a checked range (issue 41, item 1; :mod:`meeple.core.params`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from meeple.core.params import param

MAX_ROUNDS = 1000
"""The highest ``max_rounds`` (the default, 100, is already far above any real game: issue 41, item 1)."""


@dataclass(frozen=True)
class CitadelsParams:
    """The variant flags of Citadels; every default is the French 1st-edition rulebook."""

    players: int = param(4, "number of players: 3-7 (2 only with variant_2p_ffg)", low=2, high=7)
    quick_game: Literal["off", "7", "6"] = field(
        default="off", metadata={"doc": "quick game: end at 7 or 6 districts instead of 8 (3 players: 10)"}
    )
    killed_king_takes_crown: bool = field(
        default=False,
        metadata={"doc": "an assassinated King still takes the crown at the end of the round (rulebook VARIANTE)"},
    )
    deck: Literal["fr1", "en"] = field(
        default="fr1", metadata={"doc": "deck profile: fr1 (Church 4, Palace 2) or en (Church 3, Palace 3)"}
    )
    great_wall: bool = field(
        default=False,
        metadata={"doc": "en deck only: add the Great Wall (cost 6; the Warlord pays 1 more in its city)"},
    )
    variant_2p_ffg: bool = field(
        default=False, metadata={"doc": "2 players, 2 characters each, FFG draft with face-down discards, end at 8"}
    )
    variant_3p_ffg: bool = field(
        default=False, metadata={"doc": "3 players, 2 characters each, with the Assassin, end at 8"}
    )
    max_rounds: int = param(100, "engine safety cap: the game is scored after this many rounds", low=1, high=MAX_ROUNDS)
