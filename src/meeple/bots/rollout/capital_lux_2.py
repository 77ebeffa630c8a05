"""Fast rollout policy of Capital Lux 2: keep high cards, play to the City only what stays within the Capital's MAX.

The same test ROB applies to its own plays (capital_lux_2.md "Solo / ROB": a card goes to the City if the district
total after placing it is ≤ the Capital total, otherwise to the Capital), which keeps rollouts from busting City
districts the way uniformly random play does (§10: a City district over the Capital's MAX is discarded whole).
"""

from __future__ import annotations

import random
from typing import Any

from meeple.core.action import Action
from meeple.core.state import State
from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity
from meeple.games.capital_lux_2.data import CARD_COLOUR, CARD_VALUE
from meeple.games.capital_lux_2.rules import total


def rollout_policy(state: State[Any], legal: list[Action], rnd: random.Random) -> Action:
    """Pick a move for the seat to move in a determinized Capital Lux 2 state.

    Draft: keep one of the highest cards. Play: a card that fits under the Capital's visible total in the City
    (the highest such card, ties at random), else a card to the Capital (the lowest, so MAX grows cheaply).
    Every other decision (power targets, bonus choices, paying gold): uniformly random.

    Args:
        state: a Capital Lux 2 state (a search's determinization).
        legal: its legal actions, non-empty.
        rnd: the rollout's generator.

    Returns:
        One action of ``legal``.
    """
    first = legal[0]
    if isinstance(first, KeepCard):
        best = max(CARD_VALUE[a.card] for a in legal if isinstance(a, KeepCard))
        keep = [a for a in legal if isinstance(a, KeepCard) and CARD_VALUE[a.card] == best]
        return keep[int(rnd.random() * len(keep))]
    if not isinstance(first, PlayToCity | PlayToCapital):
        return legal[int(rnd.random() * len(legal))]
    seat = state.current_player()
    city = state.city[seat]  # type: ignore[attr-defined]
    capital = state.capital  # type: ignore[attr-defined]
    room = [total(capital[d]) - total(city[d]) for d in range(4)]  # what each City district can still take
    fitting: list[Action] = []
    fit_value = -1
    cheapest: list[Action] = []
    cheap_value = 99
    for a in legal:
        if isinstance(a, PlayToCity):
            d = CARD_COLOUR[a.card]
            v = CARD_VALUE[a.card]
            if v <= room[d] and v >= fit_value:
                if v > fit_value:
                    fitting, fit_value = [], v
                fitting.append(a)
        elif isinstance(a, PlayToCapital):
            v = CARD_VALUE[a.card]
            if v <= cheap_value:
                if v < cheap_value:
                    cheapest, cheap_value = [], v
                cheapest.append(a)
    pool = fitting or cheapest or legal
    return pool[int(rnd.random() * len(pool))]
