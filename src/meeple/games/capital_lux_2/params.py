"""Parameters (variant flags) of Capital Lux 2.

Rules: capital_lux_2.md "Setup" §6 (tile choice), "Tiles A" (Agent, Marchand flags), "Solo / ROB" (ROB deck).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from meeple.games.capital_lux_2.data import DEFAULT_AGENT_MODIFIERS, DEFAULT_ROB_DECK


@dataclass(frozen=True)
class CapitalLux2Params:
    """Parameters of a Capital Lux 2 game."""

    players: int = field(default=3, metadata={"doc": "number of players (1 = solo against ROB)"})
    config: Literal["A", "B", "C", "D", "random", "custom"] = field(
        default="A",
        metadata={
            "doc": "power tiles: preset A (Commencement), B-D (provisional stand-ins), random (one per colour) "
            "or custom (see tiles)"
        },
    )
    tiles: str = field(
        default="",
        metadata={"doc": "config=custom: four tile ids, one per colour, e.g. agent,clerc,marchand,savant"},
    )
    provisional_powers: bool = field(
        default=False,
        metadata={"doc": "allow the provisional stand-in tiles of configurations B-D (the real texts are unknown)"},
    )
    agent_modifiers: tuple[int, ...] = field(
        default=DEFAULT_AGENT_MODIFIERS, metadata={"doc": "the Agent's modifier tokens (comma list)"}
    )
    merchant_gold_covers_excess: bool = field(
        default=False,
        metadata={"doc": "with the Marchand: at resolution a player may pay the excess in gold to keep a district"},
    )
    clerc_excludes_pink: bool = field(
        default=True,
        metadata={"doc": "Clerc takes from a non-pink Capital district only (CL1); False: from any district"},
    )
    rob_deck: str = field(
        default=DEFAULT_ROB_DECK,
        metadata={"doc": "solo: ROB deck as left=count/red/bonus,right=...,top=... (red and bonus cards distinct)"},
    )
