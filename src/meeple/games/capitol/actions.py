"""Capitol's actions (imperative verbs; fields are ints and bools).

Rules: capitol.md §5.2. Identical cards are interchangeable, so card actions name a kind by its lowest id
(``data.CARD_REP``) and the engine picks the copy (which copy a hand holds is hidden, §5.3); identical off-board
buildings (same height and roof) are interchangeable, so building actions name a height.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.core import Action


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Construction: pass for the rest of the phase (final)."""


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Construction: play ``card`` (revealed, then discarded); ``act`` = perform its action."""

    card: int
    act: bool


@dataclass(frozen=True, slots=True)
class PlaceFloor(Action):
    """Floor action, one floor: on an incomplete building of height ``onto`` (``0`` = start a new building)."""

    onto: int


@dataclass(frozen=True, slots=True)
class PlaceRoof(Action):
    """Roof action: roof an incomplete building of height ``height`` with ``roof`` (1 round, 2 triangular)."""

    height: int
    roof: int


@dataclass(frozen=True, slots=True)
class PlaceBuilding(Action):
    """Permit action: move a completed building (``height``, ``roof``) onto the board in ``zone`` (0-based)."""

    height: int
    roof: int
    zone: int


@dataclass(frozen=True, slots=True)
class AddToBid(Action):
    """Improvement: put ``card`` above STOP in the sealed bid being built."""

    card: int


@dataclass(frozen=True, slots=True)
class SealBid(Action):
    """Improvement: finish the sealed bid (the cards added so far; none = STOP on top)."""


@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Improvement: place the tile just won in ``zone`` (a fountain on a small space, else the large space)."""

    zone: int


@dataclass(frozen=True, slots=True)
class DrawCard(Action):
    """End phase: draw the top card of pile ``pile`` (0 roof, 1 floor, 2 permit)."""

    pile: int


ACTION_TYPES: tuple[type[Action], ...] = (
    Pass,
    PlayCard,
    PlaceFloor,
    PlaceRoof,
    PlaceBuilding,
    AddToBid,
    SealBid,
    PlaceTile,
    DrawCard,
)
