"""Texts of Capital Lux 2 actions, redacted for the seats that may not see their hidden part.

Hidden parts: a draft pick, and which of the cards seen a seat kept.

Rules: capital_lux_2.md §7 (the draft is secret), the power tiles (cards seen by one seat).
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.core.action import Action
from meeple.games.capital_lux_2.actions import (
    ChooseDistrict,
    ChooseSeat,
    DiscardDistrict,
    GiveCard,
    KeepCard,
    PayExcess,
    PlayToCapital,
    PlayToCity,
    SelectCard,
    TakeCard,
)
from meeple.games.capital_lux_2.data import CARD_COLOUR, COLOUR_NAMES, card_name
from meeple.games.capital_lux_2.powers import PowerTile


def describe(tiles: Sequence[PowerTile], action: Action, actor: int, perspective: int | None) -> str:
    """Return the text of ``action`` by ``actor`` as ``perspective`` may see it (``None``: full text).

    Args:
        tiles: the game's four power tiles (blue, pink, yellow, green), fixed for the whole game.
        action: the action.
        actor: the seat that plays it.
        perspective: the seat reading, or None for the full text.

    Raises:
        TypeError: ``action`` is not a Capital Lux 2 action.
    """
    hidden = perspective is not None and perspective != actor
    if isinstance(action, KeepCard):
        return "keep a draft card" if hidden else f"keep {card_name(action.card)}"
    if isinstance(action, PlayToCity):
        return f"play {card_name(action.card)} to the City"
    if isinstance(action, PlayToCapital):
        return f"play {card_name(action.card)} to the Capital ({tiles[CARD_COLOUR[action.card]].label})"
    if isinstance(action, TakeCard):
        return f"take {card_name(action.card)}"
    if isinstance(action, SelectCard):
        return "keep one of the cards seen" if hidden else f"select {card_name(action.card)}"
    if isinstance(action, GiveCard):
        return f"give {card_name(action.card)}"
    if isinstance(action, ChooseDistrict):
        return f"choose the {COLOUR_NAMES[action.district]} district"
    if isinstance(action, ChooseSeat):
        return f"choose seat {action.seat}"
    if isinstance(action, PayExcess):
        return f"pay {action.gold} gold to keep the {COLOUR_NAMES[action.district]} district"
    if isinstance(action, DiscardDistrict):
        return f"discard the {COLOUR_NAMES[action.district]} City district"
    raise TypeError(f"not a Capital Lux 2 action: {action!r}")
