"""Static data of Capitol: the 62 action cards, the tiles, and the board layouts.

Rules: capitol.md §1 (board), §4 (decks), §5.1 (components).

Card ids are stable: ``0..13`` roof cards (values 1..7, two each), ``14..37`` floor cards (1..8, three each),
``38..61`` permits (colour ``C1`` values 1..8, then ``C2``, then ``C3``). Each player's STOP card has the id
``62 + seat``; it never leaves its owner (an empty bid means STOP on top), so hands hold only ids ``0..61``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

ROOF: Final = 0
FLOOR: Final = 1
PERMIT: Final = 2
CARD_TYPES: Final = ("roof", "floor", "permit")
"""Card type names by type id (also the names of the three draw piles)."""

NUM_CARDS: Final = 62
STOP_BASE: Final = 62
"""The STOP card of seat ``s`` has id ``STOP_BASE + s``."""

COLOURS: Final = ("C1", "C2", "C3")
"""Neutral colour ids of zones and permits (capitol.md §1: the naming schemes of the sources disagree)."""
COLOUR_NAMES: Final[dict[str, tuple[str, str, str]]] = {
    "fr_board": ("blue", "pink", "mauve"),
    "it_board": ("blue", "white", "red"),
    "fr_permits": ("black", "white", "red"),
}
"""Display names of the colour groups C1, C2, C3 in each source (display only: the rules know C1-C3).

FR's rules text names the zones "trois bleues, trois roses et trois mauves" and its component list the permit decks
"8 blanc, 8 noir, 8 rouge"; IT names the zones blue, white and red (capitol.md §1 "Colours: what is known"). No
source links the schemes; [our choice] docs/decisions.md "Capitol colour names": a name two sources share is one
group (blue: FR and IT; white and red: IT and FR's permits), so blue and white are different groups, as in IT.
"""
COLOUR_SOURCES: Final = ("fr_board", "it_board", "fr_permits")
"""The order in which the legends list the sources; the first one labels a zone."""

NO_ROOF: Final = 0
ROUND: Final = 1
TRIANGULAR: Final = 2
ROOF_NAMES: Final = ("none", "round", "triangular")
ROOF_SHORT: Final = ("-", "R", "T")

NO_TILE: Final = 0
AMPHITHEATRE: Final = 1
TEMPLE: Final = 2
FOUNTAIN: Final = 3
TILE_NAMES: Final = ("none", "amphitheatre", "temple", "fountain")

TOTAL_FLOORS: Final = 90
TOTAL_FOUNTAINS: Final = 8
ROOFS_PER_TYPE: Final = 5
ROUNDS: Final = 4
LOTS_EARLY: Final = (FOUNTAIN, FOUNTAIN, AMPHITHEATRE)
LOTS_LATE: Final = (FOUNTAIN, FOUNTAIN, TEMPLE)
STARTING_BUILDINGS: Final = ((1, ROUND), (2, ROUND), (1, TRIANGULAR), (2, TRIANGULAR))
"""(height, roof) of the four completed off-board buildings every player starts with (§5.1.5)."""
DEAL: Final = (2, 2, 4)
"""Cards dealt per player from the roof, floor and permit decks (§5.1.4)."""


def _build_cards() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    types: list[int] = []
    values: list[int] = []
    colours: list[int] = []
    names: list[str] = []
    for v in range(1, 8):
        for _ in range(2):
            types.append(ROOF)
            values.append(v)
            colours.append(-1)
            names.append(f"roof{v}")
    for v in range(1, 9):
        for _ in range(3):
            types.append(FLOOR)
            values.append(v)
            colours.append(-1)
            names.append(f"floor{v}")
    for c in range(3):
        for v in range(1, 9):
            types.append(PERMIT)
            values.append(v)
            colours.append(c)
            names.append(f"permit{COLOURS[c]}-{v}")
    return tuple(types), tuple(values), tuple(colours), tuple(names)


CARD_TYPE, CARD_VALUE, CARD_COLOUR, CARD_NAME = _build_cards()
"""Per card id: type id, value, permit colour index (-1 for roof and floor cards), and text name."""

CARD_REP: Final[tuple[int, ...]] = tuple(CARD_NAME.index(n) for n in CARD_NAME)
"""Per card id: the lowest id of an identical card (same type, value and colour). Identical cards are
interchangeable, so the legal actions name only one card of each kind in a hand."""

CARD_BY_NAME: Final[dict[str, int]] = {n: CARD_NAME.index(n) for n in CARD_NAME}
"""Card name -> lowest id with that name."""

DECKS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(c for c in range(NUM_CARDS) if CARD_TYPE[c] == t) for t in range(3)
)
"""The card ids of each deck, by type."""


@dataclass(frozen=True)
class Zone:
    """One zone of the board.

    Attributes:
        name: display name (``Z1``..``Z9``).
        colour: colour index into :data:`COLOURS`.
        small_spaces: building squares (fountain tiles use them too).
        printed_fountains: fountains printed on the board, on extra squares that are always occupied.
    """

    name: str
    colour: int
    small_spaces: int
    printed_fountains: int


LAYOUTS: Final[dict[str, str]] = {
    "provisional_54": "C1:5:0,C1:6:1,C1:7:0,C2:5:0,C2:6:1,C2:7:0,C3:5:0,C3:6:2,C3:7:0",
}
"""Named board layouts in the compact form ``colour:small_spaces:printed_fountains`` per zone (capitol.md §1)."""


def parse_layout(spec: str) -> tuple[Zone, ...]:
    """Return the zones of a layout: a name of :data:`LAYOUTS` or a compact string.

    Args:
        spec: ``"provisional_54"`` or nine comma-separated ``colour:small_spaces:printed_fountains`` entries,
            e.g. ``"C1:5:0,C1:6:1,..."``. Every colour must have exactly three zones; small spaces 1..12;
            printed fountains 0..4.

    Raises:
        ValueError: a malformed layout, with the reason.
    """
    text = LAYOUTS.get(spec, spec)
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) != 9:
        raise ValueError(f"a board layout has 9 zones, not {len(parts)}; named layouts: {', '.join(LAYOUTS)}")
    zones: list[Zone] = []
    for i, part in enumerate(parts):
        fields = part.split(":")
        if len(fields) != 3 or fields[0] not in COLOURS:
            raise ValueError(f"zone {i + 1}: {part!r} is not colour:small_spaces:printed_fountains (colour C1..C3)")
        try:
            small, printed = int(fields[1]), int(fields[2])
        except ValueError:
            raise ValueError(f"zone {i + 1}: {part!r} has a non-integer count") from None
        if not 1 <= small <= 12 or not 0 <= printed <= 4:
            raise ValueError(f"zone {i + 1}: small spaces must be 1..12 and printed fountains 0..4")
        zones.append(Zone(f"Z{i + 1}", COLOURS.index(fields[0]), small, printed))
    for c in range(3):
        if sum(1 for z in zones if z.colour == c) != 3:
            raise ValueError(f"colour {COLOURS[c]} must have exactly 3 zones")
    return tuple(zones)


def _validate() -> None:
    assert len(CARD_TYPE) == NUM_CARDS
    assert [len(d) for d in DECKS] == [14, 24, 24]
    assert sum(CARD_VALUE[c] for c in DECKS[ROOF]) == 56
    assert sum(CARD_VALUE[c] for c in DECKS[FLOOR]) == 108
    assert sum(CARD_VALUE[c] for c in DECKS[PERMIT]) == 108
    assert len(set(CARD_NAME)) == 14 // 2 + 24 // 3 + 24
    default = parse_layout("provisional_54")
    assert sum(z.small_spaces for z in default) == 54
    assert sum(z.printed_fountains for z in default) == 4


_validate()
