"""Constants shared by the Citadels state modules: phases, turn flags, decision kinds and district bit masks."""

from __future__ import annotations

from meeple.games.citadels.data import (
    GRAVEYARD,
    GREAT_WALL,
    KIND_COLOUR,
    LABORATORY,
    LIBRARY,
    OBSERVATORY,
    SCHOOL_OF_MAGIC,
    SMITHY,
)

DRAFT = 0
TURNS = 1
OVER = 2

# turn flags
F_ACTION = 1
F_INCOME = 2
F_POWER = 4
F_LAB = 8
F_SMITHY = 16

# pending decisions
D_KEEP = 0
D_EXCHANGE = 1
D_DESTROY = 2
D_GRAVEYARD = 3
DECISION_NAMES = ("keep_card", "exchange", "destroy", "graveyard")

LAB_BIT = 1 << LABORATORY
SMITHY_BIT = 1 << SMITHY
OBS_BIT = 1 << OBSERVATORY
LIB_BIT = 1 << LIBRARY
GRAVE_BIT = 1 << GRAVEYARD
WALL_BIT = 1 << GREAT_WALL
SCHOOL_BIT = 1 << SCHOOL_OF_MAGIC
COLOUR_MASKS = tuple(sum(1 << k for k, c in enumerate(KIND_COLOUR) if c == colour) for colour in range(5))
