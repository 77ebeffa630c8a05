"""Pure rule functions of Caprice: scoring, the best order of a player's symbols, the tie-break.

Pieces and symbols are type codes 0..3 (see :mod:`meeple.games.caprice.data`); a tower is a sequence of codes
from bottom to top, of length 0 to 4.

Rules: caprice.md §10-14.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from meeple.games.caprice.data import FULL_BONUS, MAX_HEIGHT, NUM_TYPES, PIECE_INDEX, PIECE_TYPES


def tower_points(order: Sequence[int], tower: Sequence[int]) -> int:
    """Return the points an order of symbols scores on one tower.

    One point per position ``i < len(tower)`` where ``order[i] == tower[i]``, plus :data:`FULL_BONUS` when the
    tower is complete (height 4) and all four positions match. Rules: caprice.md §11.

    Args:
        order: the player's 4 symbols, bottom to top.
        tower: the tower's pieces, bottom to top (0 to 4 of them).
    """
    matches = 0
    for s, t in zip(order, tower, strict=False):
        if s == t:
            matches += 1
    if matches == MAX_HEIGHT and len(tower) == MAX_HEIGHT:
        matches += FULL_BONUS
    return matches


def order_points(order: Sequence[int], towers: Sequence[Sequence[int]]) -> int:
    """Return the total points of an order over every tower (unplaced pieces do not count). Rules: §11-12."""
    return sum(tower_points(order, t) for t in towers)


@lru_cache(maxsize=64)
def distinct_orders(symbols: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Return every distinct arrangement of ``symbols`` (at most 24), sorted. Rules: caprice.md §13."""
    return tuple(sorted(set(permutations(symbols))))


def best_order(symbols: Sequence[int], towers: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], int]:
    """Return a player's best order of their symbols and its points.

    Ties between orders go to the smallest order in type-code order (DR < DT < LR < LT), so the result is
    deterministic. Rules: caprice.md §13 (the engine picks the best of the 24 permutations).

    The points of an order are the sum over positions ``i`` of the number of towers showing ``order[i]`` at
    position ``i``, plus the bonus for each complete tower equal to the order (the same as :func:`order_points`).

    Args:
        symbols: the player's symbols (any order).
        towers: every tower, bottom to top.

    Returns:
        ``(order, points)``.
    """
    counts = [[0] * NUM_TYPES for _ in range(MAX_HEIGHT)]
    complete: dict[tuple[int, ...], int] = {}
    for tower in towers:
        for i, piece in enumerate(tower):
            counts[i][piece] += 1
        if len(tower) == MAX_HEIGHT:
            key = tuple(tower)
            complete[key] = complete.get(key, 0) + 1
    c0, c1, c2, c3 = counts
    best: tuple[int, ...] = ()
    best_points = -1
    for order in distinct_orders(tuple(sorted(symbols))):
        points = c0[order[0]] + c1[order[1]] + c2[order[2]] + c3[order[3]]
        if complete:
            points += FULL_BONUS * complete.get(order, 0)
        if points > best_points:
            best, best_points = order, points
    return best, best_points


def tie_break_winner(points: Sequence[int], ender: int) -> int:
    """Return the winner: most points; among tied players the one soonest after the ender in turn order.

    The ender comes last in that ranking, so the ender loses every tie. Rules: caprice.md §14 (our reading of
    "the player seated furthest to the right of the player who ended the game").

    Args:
        points: points per seat.
        ender: the seat whose placement or move ended the game.
    """
    n = len(points)
    top = max(points)
    tied = [s for s in range(n) if points[s] == top]
    return min(tied, key=lambda s: (s - ender - 1) % n)


def codes(names: Sequence[str]) -> list[int]:
    """Return the type codes of piece or symbol names such as ``["DR", "LT"]``.

    Raises:
        KeyError: an unknown name.
    """
    return [PIECE_INDEX[name] for name in names]


def names(type_codes: Sequence[int]) -> list[str]:
    """Return the names (``"DR"``...) of type codes."""
    return [PIECE_TYPES[c] for c in type_codes]
