"""Pure rule functions of Capital Lux 2: totals, card selection, scoring and winners.

Rules: capital_lux_2.md §10-§14 and "Solo / ROB" (tie rule on gold).
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.games.capital_lux_2.data import CARD_VALUE, GOLD_VP

_VALUE = CARD_VALUE.__getitem__


def total(cards: Sequence[int]) -> int:
    """Return the summed value of a pile of citizen card ids."""
    return sum(map(_VALUE, cards))


def lowest_cards(cards: Sequence[int]) -> list[int]:
    """Return the cards of lowest value of a pile (all of them when several share it), in pile order."""
    if not cards:
        return []
    low = min(CARD_VALUE[c] for c in cards)
    return [c for c in cards if CARD_VALUE[c] == low]


def highest_cards(cards: Sequence[int]) -> list[int]:
    """Return the cards of highest value of a pile, in pile order (the last one is the one placed last)."""
    if not cards:
        return []
    high = max(CARD_VALUE[c] for c in cards)
    return [c for c in cards if CARD_VALUE[c] == high]


def score(city: Sequence[Sequence[int]], bonus: Sequence[int], gold: int) -> int:
    """Return a final score: City card values + Bonus card values + 2 per gold (spec §13).

    Args:
        city: the four City districts (card ids).
        bonus: the Bonus pile's cards.
        gold: gold tokens.
    """
    return sum(total(d) for d in city) + total(bonus) + GOLD_VP * gold


def winners(scores: Sequence[int], golds: Sequence[int]) -> list[int]:
    """Return the winning seats: highest score, then fewest gold; still tied = shared win (spec §14)."""
    best = max(zip(scores, (-g for g in golds), strict=True))
    return [i for i, key in enumerate(zip(scores, (-g for g in golds), strict=True)) if key == best]


def solo_wins(player_score: int, player_gold: int, rob_score: int, rob_gold: int) -> bool:
    """Return True when the solo player beats ROB: higher score, or equal score with less gold than ROB."""
    return player_score > rob_score or (player_score == rob_score and player_gold < rob_gold)


def bonus_outcome(city_totals: Sequence[int]) -> tuple[int, list[int]]:
    """Return the bonus outcome of one district from the City totals (after discards), spec §11.

    Returns:
        ``(winner, [])`` when one seat has the strictly highest total >= 1; ``(-1, tied)`` when several share the
        highest total >= 1 (each takes 1 gold); ``(-1, [])`` when nobody has >= 1.
    """
    best = max(city_totals, default=0)
    if best < 1:
        return -1, []
    top = [i for i, t in enumerate(city_totals) if t == best]
    if len(top) == 1:
        return top[0], []
    return -1, top
