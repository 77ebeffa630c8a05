"""Parameters (variant flags) of Capital Lux 2.

Rules: capital_lux_2.md "Setup" §6 (tile choice), "Tiles A" (Agent, Marchand flags), "Solo / ROB" (ROB deck).
Every parameter that is not a choice has a checked range (issue 41, item 1; :mod:`meeple.core.params`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from meeple.core.params import param
from meeple.games.capital_lux_2.data import (
    DEFAULT_AGENT_MODIFIERS,
    DEFAULT_ROB_DECK,
    ROB_DECK_MAX,
    ROB_KIND_MAX,
    parse_rob_deck,
)

MAX_MODIFIERS = 8
"""Agent modifier tokens at most (the game has 4)."""
MODIFIER_RANGE = 10
"""An Agent modifier token is from -10 to 10 (the game's are +4, +2, -1, -3)."""


@dataclass(frozen=True)
class CapitalLux2Params:
    """Parameters of a Capital Lux 2 game."""

    players: int = param(3, "number of players (1 = solo against ROB)", low=1, high=4)
    config: Literal["A", "B", "C", "D", "random", "custom"] = field(
        default="A",
        metadata={
            "doc": "power tiles: preset A (Commencement), B-D (provisional stand-ins), random (one per colour) "
            "or custom (see tiles)"
        },
    )
    tiles: str = param(
        "", "config=custom: four tile ids, one per colour, e.g. agent,clerc,marchand,savant", max_length=64
    )
    provisional_powers: bool = field(
        default=False,
        metadata={"doc": "allow the provisional stand-in tiles of configurations B-D (the real texts are unknown)"},
    )
    agent_modifiers: tuple[int, ...] = param(
        DEFAULT_AGENT_MODIFIERS,
        "the Agent's modifier tokens (comma list)",
        min_length=1,
        max_length=MAX_MODIFIERS,
        low=-MODIFIER_RANGE,
        high=MODIFIER_RANGE,
    )
    merchant_gold_covers_excess: bool = field(
        default=False,
        metadata={"doc": "with the Marchand: at resolution a player may pay the excess in gold to keep a district"},
    )
    clerc_excludes_pink: bool = field(
        default=True,
        metadata={"doc": "Clerc takes from a non-pink Capital district only (CL1); False: from any district"},
    )
    rob_deck: str = param(
        DEFAULT_ROB_DECK,
        "solo: ROB deck as left=count/red/bonus,right=...,top=... (red and bonus cards distinct)",
        max_length=64,
        check=parse_rob_deck,
        expands=f"at most {ROB_KIND_MAX} cards of a kind, 1 to {ROB_DECK_MAX} ROB cards in all",
    )
