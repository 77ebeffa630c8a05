"""Pure Citadels rule functions: income, the Warlord's price, colours and final scoring.

Every function takes plain data (district kind ids, flags) so that it can be unit-tested without a state.

Rules: citadels.md §5.2 rules 9, 17, 20, 21, 22.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from meeple.games.citadels.data import (
    CHARACTER_COLOUR,
    GREAT_WALL,
    HAUNTED_CITY,
    KIND_COLOUR,
    KIND_COST,
    KIND_SCORE,
    PURPLE,
    SCHOOL_OF_MAGIC,
)


def income(city_kinds: Sequence[int], character: int) -> int:
    """Return the colour income of ``character`` for a city (the School of Magic counts as the character's colour).

    Args:
        city_kinds: the kind ids of the districts in the city.
        character: the character number (1–8); only King, Bishop, Merchant and Warlord have a colour.

    Returns:
        Gold earned (0 for a character without colour). Rules: §5.2 rule 9.
    """
    colour = CHARACTER_COLOUR[character]
    if colour < 0:
        return 0
    return sum(1 for k in city_kinds if KIND_COLOUR[k] == colour or k == SCHOOL_OF_MAGIC)


def destroy_price(kind: int, city_has_great_wall: bool) -> int:
    """Return what the Warlord pays to destroy a district: cost − 1 (+1 for another district of a Great Wall city).

    Rules: §5.2 rule 17 (University and Dracoport cost 6, so the Warlord pays 5); §1.2 Great Wall (``en`` profile).
    """
    price = KIND_COST[kind] - 1
    if city_has_great_wall and kind != GREAT_WALL:
        price += 1
    return price


def has_five_colours(city_kinds: Sequence[int], haunted_city_counts: bool) -> bool:
    """Return True if the city shows all five colours.

    Args:
        city_kinds: the kind ids of the city.
        haunted_city_counts: the Haunted City may stand for any colour (False if it was built in the final round:
            it then counts as purple only). Rules: §5.2 rule 20.
    """
    wild = haunted_city_counts and HAUNTED_CITY in city_kinds
    colours = {KIND_COLOUR[k] for k in city_kinds if not (wild and k == HAUNTED_CITY)}
    return len(colours) >= (4 if wild else 5)


def district_value(city_kinds: Sequence[int]) -> int:
    """Return the sum of the district scores (costs; University and Dracoport 8), without bonuses."""
    return sum(KIND_SCORE[k] for k in city_kinds)


class Score(TypedDict):
    """A seat's score breakdown in points, as observations give it (provisional before the end; public).

    Rules: §5.2 rules 20–21.
    """

    districts: int
    five_colours: int
    first_complete: int
    complete: int
    total: int


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """One seat's score: district values, the three bonuses, and the total.

    Attributes:
        districts: sum of the district scores.
        five_colours: 3 if the city has all five colours, else 0.
        first_complete: 4 for the first player to complete the city, else 0.
        complete: 2 for every other player with a complete city, else 0.
        total: the sum.
    """

    districts: int
    five_colours: int
    first_complete: int
    complete: int

    @property
    def total(self) -> int:
        """The final score."""
        return self.districts + self.five_colours + self.first_complete + self.complete

    def to_json(self) -> Score:
        """Return the breakdown as the observation's :class:`Score` (``total`` included)."""
        return {
            "districts": self.districts,
            "five_colours": self.five_colours,
            "first_complete": self.first_complete,
            "complete": self.complete,
            "total": self.total,
        }


def score_city(city_kinds: Sequence[int], *, first: bool, threshold: int, haunted_city_counts: bool) -> ScoreBreakdown:
    """Score one city.

    Args:
        city_kinds: the kind ids of the city.
        first: this seat was the first to reach ``threshold`` districts.
        threshold: districts that complete a city (8; 10 with 3 players of the 1st edition; 7 or 6 quick game).
        haunted_city_counts: the Haunted City was not built in the final round.

    Rules: §5.2 rule 21: districts + 3 (five colours) + 4 (first complete) or 2 (other complete).
    """
    complete = len(city_kinds) >= threshold
    return ScoreBreakdown(
        districts=district_value(city_kinds),
        five_colours=3 if has_five_colours(city_kinds, haunted_city_counts) else 0,
        first_complete=4 if first and complete else 0,
        complete=2 if complete and not first else 0,
    )


def winners(totals: Sequence[int], values: Sequence[int], gold: Sequence[int]) -> list[int]:
    """Return the winning seats: most points, then most district value (no bonuses), then most gold; else shared.

    Rules: §5.2 rule 22 (FFG errata; a remaining tie is a shared win).
    """
    keys = [(totals[s], values[s], gold[s]) for s in range(len(totals))]
    best = max(keys)
    return [s for s in range(len(keys)) if keys[s] == best]


__all__ = [
    "PURPLE",
    "ScoreBreakdown",
    "destroy_price",
    "district_value",
    "has_five_colours",
    "income",
    "score_city",
    "winners",
]
