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
F_CANCELLED = 32
"""The Magician cancelled an exchange this turn: he may still swap hands, not start another exchange."""

# pending decisions: the kinds of the core ``Decision`` records on the state's stack (their data in parentheses)
D_KEEP = "keep_card"
"""Keep one of the drawn cards: data ``(drawn card ids, how many still to keep)``. Rules: §5.2 rule 8."""
D_EXCHANGE = "exchange"
"""The Magician selects the cards to exchange with the deck: data ``(selected card ids,)``. Rules: §5.2 rule 14."""
D_DESTROY = "destroy"
"""The Warlord may destroy a district: no data. Rules: §5.2 rule 17."""
D_GRAVEYARD = "graveyard"
"""The Graveyard's owner may buy the destroyed district: data ``(card id,)``. Rules: §5.2 rule 19."""
DECISION_NAMES = (D_KEEP, D_EXCHANGE, D_DESTROY, D_GRAVEYARD)

LAB_BIT = 1 << LABORATORY
SMITHY_BIT = 1 << SMITHY
OBS_BIT = 1 << OBSERVATORY
LIB_BIT = 1 << LIBRARY
GRAVE_BIT = 1 << GRAVEYARD
WALL_BIT = 1 << GREAT_WALL
SCHOOL_BIT = 1 << SCHOOL_OF_MAGIC
COLOUR_MASKS = tuple(sum(1 << k for k, c in enumerate(KIND_COLOUR) if c == colour) for colour in range(5))
