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
from meeple.games.capital_lux_2.data import CARD_COLOUR
from meeple.games.capital_lux_2.powers import PowerTile
from meeple.games.capital_lux_2.vocabulary import CARD, COLOUR
from meeple.i18n.message import M, Message


def describe(tiles: Sequence[PowerTile], action: Action, actor: int, perspective: int | None) -> Message:
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
    match action:
        case KeepCard(card=card):
            return M("keep a draft card") if hidden else M("keep {card}", card=CARD[card])
        case PlayToCity(card=card):
            return M("play {card} to the City", card=CARD[card])
        case PlayToCapital(card=card):
            return M(
                "play {card} to the Capital ({tile})", card=CARD[card], tile=tiles[CARD_COLOUR[card]].label_message
            )
        case TakeCard(card=card):
            return M("take {card}", card=CARD[card])
        case SelectCard(card=card):
            return M("keep one of the cards seen") if hidden else M("select {card}", card=CARD[card])
        case GiveCard(card=card):
            return M("give {card}", card=CARD[card])
        case ChooseDistrict(district=d):
            return M("choose the {colour} district", colour=COLOUR[d])
        case ChooseSeat(seat=seat):
            return M("choose seat {seat}", seat=seat)
        case PayExcess(gold=gold, district=d):
            return M("pay {gold} gold to keep the {colour} district", gold=gold, colour=COLOUR[d])
        case DiscardDistrict(district=d):
            return M("discard the {colour} City district", colour=COLOUR[d])
    raise TypeError(f"not a Capital Lux 2 action: {action!r}")
