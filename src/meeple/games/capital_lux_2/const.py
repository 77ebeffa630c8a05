"""Constants shared by the Capital Lux 2 state modules: the phases of a round and the kinds of bonus decision.

Rules: capital_lux_2.md §7 (draft), §8 (play), §10-§11 (resolution, bonus cards), solo (ROB's bonus card).
"""

from __future__ import annotations

from typing import Literal

PH_DRAFT = 0
PH_PLAY = 1
PH_RESOLVE = 2
PH_END = 3
PHASES: tuple[Literal["draft", "play", "resolution", "end"], ...] = ("draft", "play", "resolution", "end")
"""Phase names, indexed by phase code (the observation's ``phase``)."""

BONUS = "bonus"
"""Decision kind: the bonus taker chooses among equal highest Capital cards (spec §11)."""
ROB_BONUS = "rob_bonus"
"""Decision kind (solo): the player chooses ROB's bonus card among equal lowest Capital cards."""
