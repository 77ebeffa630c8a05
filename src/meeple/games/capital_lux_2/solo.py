"""The solo mode against ROB: setup, ROB's turn, placement rule, bonus symbol, reserve, round end.

Rules: capital_lux_2.md "Solo / ROB" (FR pages 6-8). ROB is participant 1 (City, Bonus pile, gold), not a seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.data import (
    CARD_COLOUR,
    CARD_VALUE,
    ROB_BONUS,
    ROB_HAND,
    ROB_RED,
    ROB_RED_LIMIT,
    ROB_RESERVE,
    ROB_TOP,
)
from meeple.games.capital_lux_2.rules import lowest_cards, total

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

ROB = 1


def setup(st: CapitalLux2State) -> None:
    """ROB's 2-card hand and one card in ROB's City (FR solo setup)."""
    st.rob_hand = [st.draw() for _ in range(ROB_HAND)]
    card = st.draw()
    st.city[ROB][CARD_COLOUR[card]].append(card)


def start_round(st: CapitalLux2State) -> None:
    """Refill ROB's reserve to 5 and reshuffle all ROB cards (FR solo, draft and "before the next round")."""
    while len(st.rob_reserve) < ROB_RESERVE:
        card = st.draw()
        if card < 0:
            break
        st.rob_reserve.append(card)
    st.rob_deck = list(st.game.rob_cards)
    st.rng.shuffle(st.rob_deck)
    st.rob_red = []
    st.rob_blue = []


def fits(st: CapitalLux2State, card: int) -> bool:
    """ROB's placement test: the City district total after placing is <= the visible Capital total."""
    d = CARD_COLOUR[card]
    return total(st.city[ROB][d]) + CARD_VALUE[card] <= total(st.capital[d])


def rob_turn(st: CapitalLux2State) -> bool:
    """Play one ROB turn: flip a ROB card, pick the citizen card, place it, maybe take a bonus, refill.

    Returns:
        True when the round is over (the caller ends it with ``flow.end_round``); False when play goes on,
        including when the player must first choose ROB's bonus card.
    """
    st.turn = ROB
    if not st.rob_deck:
        st.rob_last = []
        return finish_rob_turn(st)
    code = st.rob_deck.pop()
    (st.rob_red if code & ROB_RED else st.rob_blue).append(code)
    kind = code & 3
    if kind == ROB_TOP:
        card = st.draw()
    else:
        card = st.rob_hand[kind]
        st.rob_hand[kind] = -1
    st.rob_last = [code, card, -1, -1]
    if card < 0:
        return finish_rob_turn(st)
    d = CARD_COLOUR[card]
    if fits(st, card):
        st.city[ROB][d].append(card)
        st.rob_last[2] = 0
    else:
        st.capital[d].append(card)
        st.rob_last[2] = 1
        if code & ROB_BONUS:
            cands = rob_bonus_candidates(st, card)
            if len(cands) > 1:
                st.stack.append(Decision(0, "rob_bonus", (card,)))
                return False
            if cands:
                take_rob_bonus(st, cands[0])
    return finish_rob_turn(st)


def rob_bonus_candidates(st: CapitalLux2State, played: int) -> list[int]:
    """The lowest-value Capital cards, the card just played excluded (the player chooses on a tie)."""
    return lowest_cards([c for d in range(4) for c in st.capital[d] if c != played])


def take_rob_bonus(st: CapitalLux2State, card: int) -> None:
    """Move a Capital card to ROB's Bonus pile."""
    st.capital[st.capital_district_of(card)].remove(card)
    st.bonus[ROB].append(card)
    if st.rob_last:
        st.rob_last[3] = card


def finish_rob_turn(st: CapitalLux2State) -> bool:
    """Refill ROB's empty hand slot, then: round end, the player's last turn, or the player's turn.

    Returns:
        True when the round is over (the caller ends it with ``flow.end_round``).
    """
    for slot in range(ROB_HAND):
        if st.rob_hand[slot] < 0:
            st.rob_hand[slot] = st.draw()
    if st.ending:
        return True
    if len(st.rob_red) >= ROB_RED_LIMIT:
        st.ending = True
    if not st.hand[0]:
        return True
    st.turn = 0
    return False


def after_player_turn(st: CapitalLux2State) -> bool:
    """After the player's turn: round end (after the player's last turn), ROB's last turn, or ROB's turn.

    Returns:
        True when the round is over (the caller ends it with ``flow.end_round``).
    """
    if st.ending:
        return True
    if not st.hand[0]:
        st.ending = True
    return rob_turn(st)


def split_reserve(reserve: list[int], city: list[int], visible: list[int]) -> tuple[list[int], list[int]]:
    """Split ROB's reserve at round end into the cards it places and the cards it keeps ("Solo / ROB").

    Cards are tried in district order, highest first within a colour (ties by card id); each goes to ROB's City
    if that district's total then stays within the visible Capital total, counting the reserve cards placed before it.

    Args:
        reserve: ROB's reserve, citizen card ids.
        city: ROB's 4 City district totals, in points (blue, pink, yellow, green).
        visible: the Capital's 4 visible district totals, in points (face-down items do not count).

    Returns:
        ``(placed, kept)``: card ids, each list in the order the cards were tried.
    """
    totals = list(city)
    placed: list[int] = []
    kept: list[int] = []
    for card in sorted(reserve, key=lambda c: (CARD_COLOUR[c], -CARD_VALUE[c], c)):
        d, v = CARD_COLOUR[card], CARD_VALUE[card]
        if totals[d] + v <= visible[d]:
            totals[d] += v
            placed.append(card)
        else:
            kept.append(card)
    return placed, kept


def place_reserve(st: CapitalLux2State) -> None:
    """Place each reserve card that fits, district order, highest first within a colour; the rest stay."""
    city = [total(cards) for cards in st.city[ROB]]
    placed, st.rob_reserve = split_reserve(st.rob_reserve, city, [total(cards) for cards in st.capital])
    for card in placed:
        st.city[ROB][CARD_COLOUR[card]].append(card)
