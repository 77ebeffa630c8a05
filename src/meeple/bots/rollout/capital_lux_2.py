"""Fast rollout policy of Capital Lux 2: stay within each district's MAX, take majorities, aim the Agent and the Clerc.

Rules used (capital_lux_2.md): §10 a City district over its Capital's MAX (visible total plus face-down items) is
discarded whole; §11 the highest City total of a district takes its highest Capital card; "Tiles A" the Agent's
modifier is added to a district's MAX, the Clerc moves the lowest card of a non-pink Capital district to the City;
"Solo / ROB" ROB places a card in its City only if the district then stays within the *visible* Capital total, and
places its reserve that way at round end. A rival's district is therefore often exactly at the visible total, where a
negative modifier or a card taken from the Capital busts it.

Measured (docs/bots.md): playing 300 whole solo games on its own, this policy loses to ROB by 22 points a game on
average, where the first version (highest fitting card to the City, every power choice at random) lost by 37; the
rollouts of the solo ``hard`` level (``ismcts:...:rollout=policy``) follow it.
"""

from __future__ import annotations

import random
from typing import Any

from meeple.core.action import Action
from meeple.core.state import State
from meeple.games.capital_lux_2.actions import ChooseDistrict, KeepCard, PlayToCapital, PlayToCity, TakeCard
from meeple.games.capital_lux_2.data import CARD_COLOUR, CARD_VALUE
from meeple.games.capital_lux_2.rules import total
from meeple.games.capital_lux_2.solo import split_reserve

MAJORITY_VALUE = 4.0
"""Worth, in points, of a City play that takes the lead of a district from the best rival (§11 bonus card)."""
CAPITAL_COST = 0.5
"""Cost per point of card value of a Capital play (the card scores nothing, but raises the MAX)."""
NEAR_FULL = 2
"""Agent: a district whose room under its MAX is at most this is "near full"."""
AGENT_TIEBREAK = 0.1
"""Agent: weight of the modifier on a near-full own district when no bust is at stake."""


def rollout_policy(state: State[Any], legal: list[Action], rnd: random.Random) -> Action:
    """Pick a move for the seat to move in a determinized Capital Lux 2 state.

    * Draft: keep one of the highest cards.
    * Play: the best of: a City play that stays within the district's MAX (its value, plus
      :data:`MAJORITY_VALUE` when it takes the lead from the best rival); a Capital play (minus
      :data:`CAPITAL_COST` × its value, plus the City district it saves when it lifts the MAX back over it).
    * Agent: the district where the drawn modifier saves the most of the player's City or busts the most of a
      rival's; busting one of the player's own districts counts against it.
    * Clerc: the Capital card that adds the most to the player's City, counting a rival's district it busts for it
      and the player's own district it busts against it.
    * Every other decision (other powers, ROB's bonus card on a tie, paying gold): uniformly random.

    Ties are broken at random. Only cards of the state are read; the search gives it determinizations, which hold
    nothing the searching seat may not know.

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
        return _pick([a for a in legal if isinstance(a, KeepCard) and CARD_VALUE[a.card] == best], rnd)
    st: Any = state
    kind = st.stack[-1].kind if st.stack else ""
    if isinstance(first, PlayToCity | PlayToCapital):
        scored = _score_plays(st, legal)
    elif isinstance(first, ChooseDistrict) and kind == "agent":
        scored = _score_agent(st, legal)
    elif isinstance(first, TakeCard) and kind == "clerc":
        scored = _score_clerc(st, legal)
    else:
        scored = []
    if not scored:
        return legal[int(rnd.random() * len(legal))]
    top = max(v for v, _ in scored)
    return _pick([a for v, a in scored if v == top], rnd)


def _pick(actions: list[Action], rnd: random.Random) -> Action:
    return actions[int(rnd.random() * len(actions))] if len(actions) > 1 else actions[0]


def limits(st: Any) -> list[int]:
    """Each district's MAX at resolution: the Capital's visible total plus what lies face down on it (§10).

    Face-down items are ``[district, kind, value, owner]``: kind 0 a modifier worth ``value`` (Agent), kind 1 a card
    whose id is ``value`` (Infiltré, a provisional tile).

    Returns:
        4 ints in points, one per district (blue, pink, yellow, green).
    """
    return _limits(st, [total(cards) for cards in st.capital])


def _limits(st: Any, visible: list[int]) -> list[int]:
    out = visible.copy()
    for item in st.hidden:
        out[item[0]] += item[2] if item[1] == 0 else CARD_VALUE[item[2]]
    return out


def rivals(st: Any, seat: int, visible: list[int] | None = None) -> list[int]:
    """Each district's best City total among the other participants (solo: ROB's, with its reserve placed).

    ROB's reserve goes in by ROB's own rule: district order, highest card first, each card only if the district then
    stays within the visible Capital total ("Solo / ROB").

    Args:
        st: a Capital Lux 2 state.
        seat: the seat whose rivals are wanted.
        visible: the Capital's visible district totals, if the caller has them.

    Returns:
        4 ints in points, one per district (blue, pink, yellow, green).
    """
    out = [0, 0, 0, 0]
    for p in range(st.np):
        if p != seat:
            out = [max(best, total(cards)) for best, cards in zip(out, st.city[p], strict=True)]
    if st.solo:
        cap = visible if visible is not None else [total(cards) for cards in st.capital]
        for c in split_reserve(st.rob_reserve, out, cap)[0]:
            out[CARD_COLOUR[c]] += CARD_VALUE[c]
    return out


def _districts(st: Any) -> tuple[list[int], list[int], list[int]]:
    """Per district, for the seat to move: the MAX, its own City total and the best rival's total."""
    seat = st.current_player()
    visible = [total(cards) for cards in st.capital]
    return _limits(st, visible), [total(cards) for cards in st.city[seat]], rivals(st, seat, visible)


def _score_plays(st: Any, legal: list[Action]) -> list[tuple[float, Action]]:
    limit, mine, rival = _districts(st)
    out: list[tuple[float, Action]] = []
    for a in legal:
        if isinstance(a, PlayToCity):
            d, v = CARD_COLOUR[a.card], CARD_VALUE[a.card]
            if mine[d] + v <= limit[d]:
                out.append((v + (MAJORITY_VALUE if mine[d] <= rival[d] < mine[d] + v else 0.0), a))
        elif isinstance(a, PlayToCapital):
            d, v = CARD_COLOUR[a.card], CARD_VALUE[a.card]
            saved = mine[d] if limit[d] < mine[d] <= limit[d] + v else 0
            out.append((saved - CAPITAL_COST * v, a))
    return out


def _score_agent(st: Any, legal: list[Action]) -> list[tuple[float, Action]]:
    modifier = st.mat["agent_drawn"][0]
    limit, mine, rival = _districts(st)
    out: list[tuple[float, Action]] = []
    for a in legal:
        if not isinstance(a, ChooseDistrict):
            continue
        d = a.district
        before, after = limit[d], limit[d] + modifier
        value = _bust_change(mine[d], before, after) - _bust_change(rival[d], before, after)
        if mine[d] >= before - NEAR_FULL:
            value += AGENT_TIEBREAK * modifier
        out.append((value, a))
    return out


def _score_clerc(st: Any, legal: list[Action]) -> list[tuple[float, Action]]:
    limit, mine, rival = _districts(st)
    out: list[tuple[float, Action]] = []
    for a in legal:
        if not isinstance(a, TakeCard):
            continue
        d, v = st.capital_district_of(a.card), CARD_VALUE[a.card]
        after = limit[d] - v
        value = float(v) if mine[d] + v <= after else float(-mine[d])
        value -= _bust_change(rival[d], limit[d], after)
        out.append((value, a))
    return out


def _bust_change(city_total: int, before: int, after: int) -> float:
    """Points a City district keeps (+) or loses (-) when its MAX goes from ``before`` to ``after``."""
    if before < city_total <= after:
        return float(city_total)
    if after < city_total <= before:
        return float(-city_total)
    return 0.0
