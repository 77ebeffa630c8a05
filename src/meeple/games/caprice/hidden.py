"""Re-dealing the hidden symbol tokens for ``resample_from_infostate``.

What a seat knows of the symbols: its own tokens (in draw order) and the token it is looking at, the public draw
schedule, and every exchange (who, at which draw, how many tokens set aside). A re-deal replays the draws in
order and gives every other seat tokens from the pool of tokens that seat cannot see, respecting those facts:
an exchange needs two copies of the set-aside symbol already in hand, enough copies in the bag at that time and a
different kept token; under ``third_symbol_exchange="mandatory"`` a kept token is never a third copy.

Rules: caprice.md §4-5; architecture "resample_from_infostate".
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.core.rng import Rng
from meeple.games.caprice.data import NUM_TYPES, TOKENS_PER_TYPE

_ATTEMPTS = 200


def draw_seat(index: int, first: int, players: int) -> tuple[int, int]:
    """Return ``(seat, slot)`` of draw number ``index`` of the setup (rounds of draws from the first player)."""
    return (first + index % players) % players, index // players


def _held_before(seat: int, index: int, first: int, players: int) -> int:
    """Return how many tokens ``seat`` keeps before draw number ``index``."""
    pos = (seat - first) % players
    return index // players + (1 if pos < index % players else 0)


def _pick(pool: Sequence[int], allowed: Sequence[bool], rng: Rng) -> int:
    """Return a type drawn from ``pool`` counts restricted to ``allowed`` types, or -1 if none is left."""
    total = sum(c for c, ok in zip(pool, allowed, strict=True) if ok)
    if total <= 0:
        return -1
    r = rng.randrange(total)
    for t in range(NUM_TYPES):
        if allowed[t]:
            if r < pool[t]:
                return t
            r -= pool[t]
    return -1  # pragma: no cover - unreachable


def _attempt(
    viewer: int,
    own: Sequence[int],
    own_pending: int,
    done: int,
    first: int,
    players: int,
    exchanges: Sequence[Sequence[Sequence[int]]],
    mandatory: bool,
    constrained: bool,
    rng: Rng,
) -> tuple[list[list[int]], list[int]] | None:
    pool = [TOKENS_PER_TYPE] * NUM_TYPES
    for t in own:
        pool[t] -= 1
    if own_pending >= 0:
        pool[own_pending] -= 1
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[viewer] = list(own)
    set_aside = {(seat, slot): aside for seat in range(players) for slot, aside in exchanges[seat]}
    everything = [True] * NUM_TYPES
    for index in range(done):
        seat, slot = draw_seat(index, first, players)
        if seat == viewer:
            continue
        hand = hands[seat]
        allowed = everything
        aside = set_aside.get((seat, slot), 0)
        if constrained and aside:
            pairs = [t for t in range(NUM_TYPES) if hand.count(t) >= 2]
            if not pairs:
                return None
            gone = pairs[0]
            held = sum(hands[s][: _held_before(s, index, first, players)].count(gone) for s in range(players))
            if TOKENS_PER_TYPE - held < aside:
                return None
            allowed = [t != gone for t in range(NUM_TYPES)]
        elif constrained and mandatory:
            allowed = [hand.count(t) < 2 for t in range(NUM_TYPES)]
        token = _pick(pool, allowed, rng)
        if token < 0:
            return None
        pool[token] -= 1
        hand.append(token)
    return hands, pool


def resample_symbols(
    viewer: int,
    own: Sequence[int],
    own_pending: int,
    other_pending: bool,
    done: int,
    first: int,
    players: int,
    exchanges: Sequence[Sequence[Sequence[int]]],
    mandatory: bool,
    rng: Rng,
) -> tuple[list[list[int]], int, list[int]]:
    """Re-deal every token ``viewer`` cannot see, consistently with the public draw and exchange record.

    Args:
        viewer: the seat whose knowledge is kept.
        own: the viewer's kept tokens, in draw order.
        own_pending: the token the viewer is looking at (drawn, not yet kept), or -1.
        other_pending: True if another seat is looking at a drawn token (it is re-dealt too).
        done: the number of completed draws of the setup.
        first: the first player.
        players: the player count.
        exchanges: per seat, the public ``[slot, tokens set aside]`` records.
        mandatory: True under ``third_symbol_exchange="mandatory"``.
        rng: the source of randomness (advanced).

    Returns:
        ``(hands, pending, bag)``: every seat's kept tokens in draw order (the viewer's unchanged), the re-dealt
        pending token of another seat (or ``own_pending``), and the bag as counts per type.
    """
    result = None
    for attempt in range(_ATTEMPTS + 1):
        # The last attempt drops the constraints so that a re-deal always exists (never needed in practice).
        result = _attempt(
            viewer, own, own_pending, done, first, players, exchanges, mandatory, attempt < _ATTEMPTS, rng
        )
        if result is not None:
            break
    assert result is not None
    hands, pool = result
    pending = own_pending
    if other_pending:
        pending = _pick(pool, [True] * NUM_TYPES, rng)
        pool[pending] -= 1
    return hands, pending, pool
