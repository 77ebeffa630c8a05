"""Static Citadels data: colours, the 8 characters, the district kinds and the deck profiles.

Card instances have stable ids ``0..N-1`` (N = 65 for the ``fr1`` and ``en`` profiles, 66 with the Great Wall),
assigned kind by kind in table order. Actions refer to district *kinds* (an index into :data:`KINDS`), never to
hand positions.

Rules: citadels.md §5.1 (district table), §1.2 (the ``en`` profile), §5.2 (characters).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# ---------------------------------------------------------------- colours
BLUE: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
RED: Final = 3
PURPLE: Final = 4
COLOURS: Final[tuple[str, ...]] = ("blue", "yellow", "green", "red", "purple")
"""Colour names by colour index: religious, noble, trade, military, prestige."""

# ---------------------------------------------------------------- characters
ASSASSIN: Final = 1
THIEF: Final = 2
MAGICIAN: Final = 3
KING: Final = 4
BISHOP: Final = 5
MERCHANT: Final = 6
ARCHITECT: Final = 7
WARLORD: Final = 8
CHARACTERS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8)
CHARACTER_NAMES: Final[tuple[str, ...]] = (
    "",
    "Assassin",
    "Thief",
    "Magician",
    "King",
    "Bishop",
    "Merchant",
    "Architect",
    "Warlord",
)
"""English character names by number (index 0 unused)."""
CHARACTER_COLOUR: Final[tuple[int, ...]] = (-1, -1, -1, -1, YELLOW, BLUE, GREEN, -1, RED)
"""The colour whose districts pay income to each character (-1: none)."""


@dataclass(frozen=True, slots=True)
class DistrictKind:
    """One district kind (a row of the district table).

    Attributes:
        key: stable identifier, e.g. ``"temple"``.
        name_fr: the French rulebook's name (the French catalog translates ``name`` to it: tests/i18n checks).
        name: English name.
        colour: colour index (see :data:`COLOURS`).
        cost: building cost in gold.
        score: points at final scoring (cost, except University and Dracoport: 8).
        count_fr1: copies in the ``fr1`` deck (the French rulebook).
        count_en: copies in the ``en`` deck (Church 3, Palace 3; Great Wall 1, used only with ``great_wall``).
    """

    key: str
    name_fr: str
    name: str
    colour: int
    cost: int
    score: int
    count_fr1: int
    count_en: int


KINDS: Final[tuple[DistrictKind, ...]] = (
    DistrictKind("temple", "Temple", "Temple", BLUE, 1, 1, 3, 3),
    DistrictKind("eglise", "Église", "Church", BLUE, 2, 2, 4, 3),
    DistrictKind("monastere", "Monastère", "Monastery", BLUE, 3, 3, 3, 3),
    DistrictKind("cathedrale", "Cathédrale", "Cathedral", BLUE, 5, 5, 2, 2),
    DistrictKind("manoir", "Manoir", "Manor", YELLOW, 3, 3, 5, 5),
    DistrictKind("chateau", "Château", "Castle", YELLOW, 4, 4, 4, 4),
    DistrictKind("palais", "Palais", "Palace", YELLOW, 5, 5, 2, 3),
    DistrictKind("taverne", "Taverne", "Tavern", GREEN, 1, 1, 5, 5),
    DistrictKind("echoppe", "Échoppe", "Trading Post", GREEN, 2, 2, 3, 3),
    DistrictKind("marche", "Marché", "Market", GREEN, 2, 2, 4, 4),
    DistrictKind("comptoir", "Comptoir", "Docks", GREEN, 3, 3, 3, 3),
    DistrictKind("port", "Port", "Harbor", GREEN, 4, 4, 3, 3),
    DistrictKind("hotel_de_ville", "Hôtel de ville", "Town Hall", GREEN, 5, 5, 2, 2),
    DistrictKind("tour_de_guet", "Tour de guet", "Watchtower", RED, 1, 1, 3, 3),
    DistrictKind("prison", "Prison", "Prison", RED, 2, 2, 3, 3),
    DistrictKind("caserne", "Caserne", "Battlefield", RED, 3, 3, 3, 3),
    DistrictKind("forteresse", "Forteresse", "Fortress", RED, 5, 5, 2, 2),
    DistrictKind("cour_des_miracles", "Cour des miracles", "Haunted City", PURPLE, 2, 2, 1, 1),
    DistrictKind("donjon", "Donjon", "Keep", PURPLE, 3, 3, 2, 2),
    DistrictKind("laboratoire", "Laboratoire", "Laboratory", PURPLE, 5, 5, 1, 1),
    DistrictKind("manufacture", "Manufacture", "Smithy", PURPLE, 5, 5, 1, 1),
    DistrictKind("observatoire", "Observatoire", "Observatory", PURPLE, 5, 5, 1, 1),
    DistrictKind("cimetiere", "Cimetière", "Graveyard", PURPLE, 5, 5, 1, 1),
    DistrictKind("bibliotheque", "Bibliothèque", "Library", PURPLE, 6, 6, 1, 1),
    DistrictKind("ecole_de_magie", "École de magie", "School of Magic", PURPLE, 6, 6, 1, 1),
    DistrictKind("universite", "Université", "University", PURPLE, 6, 8, 1, 1),
    DistrictKind("dracoport", "Dracoport", "Dragon Gate", PURPLE, 6, 8, 1, 1),
    DistrictKind("grande_muraille", "Grande muraille", "Great Wall", PURPLE, 6, 6, 0, 1),
)
"""Every district kind, in table order; the index is the kind id used by actions."""

KIND_INDEX: Final[dict[str, int]] = {k.key: i for i, k in enumerate(KINDS)}
NUM_KINDS: Final = len(KINDS)

HAUNTED_CITY: Final = KIND_INDEX["cour_des_miracles"]
KEEP: Final = KIND_INDEX["donjon"]
LABORATORY: Final = KIND_INDEX["laboratoire"]
SMITHY: Final = KIND_INDEX["manufacture"]
OBSERVATORY: Final = KIND_INDEX["observatoire"]
GRAVEYARD: Final = KIND_INDEX["cimetiere"]
LIBRARY: Final = KIND_INDEX["bibliotheque"]
SCHOOL_OF_MAGIC: Final = KIND_INDEX["ecole_de_magie"]
UNIVERSITY: Final = KIND_INDEX["universite"]
DRACOPORT: Final = KIND_INDEX["dracoport"]
GREAT_WALL: Final = KIND_INDEX["grande_muraille"]

KIND_COST: Final[tuple[int, ...]] = tuple(k.cost for k in KINDS)
KIND_SCORE: Final[tuple[int, ...]] = tuple(k.score for k in KINDS)
KIND_COLOUR: Final[tuple[int, ...]] = tuple(k.colour for k in KINDS)
KIND_NAME: Final[tuple[str, ...]] = tuple(k.name for k in KINDS)


def deck_kinds(profile: str, great_wall: bool) -> tuple[int, ...]:
    """Return the kind id of every card instance of a deck profile; index = card id.

    Args:
        profile: ``"fr1"`` (the French rulebook, 65 cards) or ``"en"`` (Church 3, Palace 3: 65 cards).
        great_wall: add the Great Wall (``en`` only): 66 cards.

    Raises:
        ValueError: unknown profile, or ``great_wall`` with the ``fr1`` profile.
    """
    if profile not in ("fr1", "en"):
        raise ValueError(f"unknown deck profile {profile!r}")
    if great_wall and profile != "en":
        raise ValueError("the Great Wall exists only in the 'en' deck profile")
    out: list[int] = []
    for i, k in enumerate(KINDS):
        count = k.count_fr1 if profile == "fr1" else k.count_en
        if i == GREAT_WALL and not great_wall:
            count = 0
        out.extend([i] * count)
    return tuple(out)


def _validate() -> None:
    assert len(deck_kinds("fr1", False)) == 65
    assert len(deck_kinds("en", False)) == 65
    assert len(deck_kinds("en", True)) == 66
    assert sum(1 for k in deck_kinds("fr1", False) if KINDS[k].colour != PURPLE) == 54
    assert len(KIND_INDEX) == NUM_KINDS
    for k in KINDS:
        assert 0 <= k.colour < 5 and k.cost >= 1
        assert k.score == (8 if k.key in ("universite", "dracoport") else k.cost)


_validate()
