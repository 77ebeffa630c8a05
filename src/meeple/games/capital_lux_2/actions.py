"""Actions of Capital Lux 2 (frozen dataclasses, interned by the game's codec).

Rules: capital_lux_2.md §7 (draft), §8 (play), §11 (bonus choice), power tiles, "Solo / ROB".
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.core.action import Action
from meeple.games.capital_lux_2.data import NUM_CARDS


@dataclass(frozen=True, slots=True)
class KeepCard(Action):
    """Keep one card of the draft pack (hidden from the other seats). Rules: §7."""

    card: int


@dataclass(frozen=True, slots=True)
class PlayToCity(Action):
    """Play a hand card to the matching district of your City. Rules: §8."""

    card: int


@dataclass(frozen=True, slots=True)
class PlayToCapital(Action):
    """Play a hand card to the matching Capital district, triggering its power. Rules: §8."""

    card: int


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    """Choose a face-up card (a power's target, a bonus card among equal values, ROB's bonus). Public."""

    card: int


@dataclass(frozen=True, slots=True)
class SelectCard(Action):
    """Choose a card only you can see (e.g. the card kept by the Explorateur). Hidden from the other seats."""

    card: int


@dataclass(frozen=True, slots=True)
class GiveCard(Action):
    """Choose a card of your hand to play into another player's City (Étranger). Public."""

    card: int


@dataclass(frozen=True, slots=True)
class ChooseDistrict(Action):
    """Choose a district (0 blue, 1 pink, 2 yellow, 3 green) for a power."""

    district: int


@dataclass(frozen=True, slots=True)
class ChooseSeat(Action):
    """Choose another seat as a power's target."""

    seat: int


@dataclass(frozen=True, slots=True)
class PayExcess(Action):
    """Pay gold equal to the excess to keep a City district (Marchand flag ``merchant_gold_covers_excess``)."""

    district: int
    gold: int


@dataclass(frozen=True, slots=True)
class DiscardDistrict(Action):
    """Discard a City district that is over the Capital's MAX (instead of paying gold)."""

    district: int


ACTION_TYPES: tuple[type[Action], ...] = (
    KeepCard,
    PlayToCity,
    PlayToCapital,
    TakeCard,
    SelectCard,
    GiveCard,
    ChooseDistrict,
    ChooseSeat,
    PayExcess,
    DiscardDistrict,
)

MAX_PAY = 60
"""Largest excess that ``PayExcess`` can encode."""


def all_actions(players: int) -> list[Action]:
    """Return every distinct action in code order."""
    out: list[Action] = []
    for cls in (KeepCard, PlayToCity, PlayToCapital, TakeCard, SelectCard, GiveCard):
        out += [cls(c) for c in range(NUM_CARDS)]
    out += [ChooseDistrict(d) for d in range(4)]
    out += [ChooseSeat(s) for s in range(max(players, 2))]
    out += [PayExcess(d, g) for d in range(4) for g in range(1, MAX_PAY + 1)]
    out += [DiscardDistrict(d) for d in range(4)]
    return out
