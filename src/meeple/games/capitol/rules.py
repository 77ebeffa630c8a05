"""Pure rule functions of Capitol: zone placings and scoring, auction resolution, permit placement.

Rules: capitol.md §5.2 (Phase 2 tie-breaks, Phase 3 scoring, Permit action).
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.games.capitol.data import CARD_VALUE, NO_ROOF


def zone_placings(
    floors: Sequence[int], tallest: Sequence[int], shared_first_blocks_second: bool = True
) -> tuple[list[int], list[int]]:
    """Return the seats placed 1st and 2nd in one zone.

    Args:
        floors: per seat, the sum of the heights of that seat's buildings in the zone.
        tallest: per seat, the height of that seat's tallest building in the zone (0 if none).
        shared_first_blocks_second: when several seats share 1st (equal floors and equal tallest building),
            nobody is 2nd (FR); if False, the other seats with the top floor count, or failing them the
            next-highest floor count, are 2nd.

    Returns:
        ``(firsts, seconds)``: sorted seat lists. Only seats with at least one floor place.

    Rules: capitol.md §5.2 Phase 3.
    """
    best = max(floors, default=0)
    if best <= 0:
        return [], []
    top = [p for p, f in enumerate(floors) if f == best]
    if len(top) == 1:
        firsts = top
        seconds: list[int] = []
    else:
        tall = max(tallest[p] for p in top)
        firsts = [p for p in top if tallest[p] == tall]
        seconds = [p for p in top if tallest[p] != tall]
        if len(firsts) > 1 and shared_first_blocks_second:
            return firsts, []
        if seconds:
            return firsts, seconds
    runner = max((f for f in floors if 0 < f < best), default=0)
    if runner == 0:
        return firsts, []
    return firsts, [p for p, f in enumerate(floors) if f == runner]


def score_zone(
    floors: Sequence[int],
    tallest: Sequence[int],
    fountains: int,
    temple: bool,
    shared_first_blocks_second: bool = True,
) -> list[int]:
    """Return the points each seat scores in one zone.

    Args:
        floors: per seat, floors in the zone (sum of building heights).
        tallest: per seat, tallest building in the zone.
        fountains: printed fountains plus fountain tiles in the zone.
        temple: whether the zone's large space holds a temple (doubles every point scored there).
        shared_first_blocks_second: see :func:`zone_placings`.

    Returns:
        Points per seat: 1st gets ``2 + fountains``, 2nd gets ``fountains``; doubled with a temple.

    Rules: capitol.md §5.2 Phase 3.
    """
    firsts, seconds = zone_placings(floors, tallest, shared_first_blocks_second)
    mult = 2 if temple else 1
    points = [0] * len(floors)
    for p in firsts:
        points[p] = (2 + fountains) * mult
    for p in seconds:
        points[p] = fountains * mult
    return points


def amphitheatre_bonus(
    floors: Sequence[int], tallest: Sequence[int], shared_first_blocks_second: bool = True
) -> list[int]:
    """Return the extra End-phase cards per seat from one amphitheatre zone: 2 for 1st, 1 for 2nd.

    Rules: capitol.md §5.2 Phase 4 (bonus, placed as in Phase 3).
    """
    firsts, seconds = zone_placings(floors, tallest, shared_first_blocks_second)
    bonus = [0] * len(floors)
    for p in firsts:
        bonus[p] = 2
    for p in seconds:
        bonus[p] = 1
    return bonus


def bid_value(cards: Sequence[int]) -> tuple[int, int]:
    """Return ``(sum of values, highest single value)`` of a bid of card ids (``(0, 0)`` when empty)."""
    values = [CARD_VALUE[c] for c in cards]
    return sum(values), max(values, default=0)


def auction_winner(bids: Sequence[Sequence[int]], consul: int) -> int:
    """Return the seat that wins an auction.

    Args:
        bids: per seat, the card ids of its bid.
        consul: the Consul's seat.

    Returns:
        The highest sum; ties: the highest single card; then the first tied seat clockwise from the Consul
        (the Consul included). Second-highest cards are never compared.

    Rules: capitol.md §5.2 Phase 2 step 3 and §2 j1.
    """
    n = len(bids)
    best_key: tuple[int, int, int] | None = None
    winner = consul
    for i in range(n):
        seat = (consul + i) % n
        total, high = bid_value(bids[seat])
        key = (total, high, -i)
        if best_key is None or key > best_key:
            best_key, winner = key, seat
    return winner


def permit_allows(
    height: int,
    roof: int,
    zone: int,
    zone_colours: Sequence[int],
    zone_roofs: Sequence[int],
    zone_tallest: Sequence[int],
    zone_free: Sequence[int],
) -> bool:
    """Return whether a completed building may be placed in ``zone`` (the permit's colour is checked by the caller).

    Args:
        height: the building's height (floors).
        roof: its roof type (1 round, 2 triangular).
        zone: the target zone.
        zone_colours: colour per zone.
        zone_roofs: roof type fixed per zone (0 = no building yet).
        zone_tallest: tallest building per zone (0 if none).
        zone_free: free small spaces per zone.

    Rules: capitol.md §5.2 Permit action: a free small space; the first building has height 1 and may not give
    its colour's three zones one roof type; later ones share the zone's roof type and have height H or H+1.
    """
    if zone_free[zone] <= 0 or roof == NO_ROOF:
        return False
    if zone_roofs[zone] == NO_ROOF:
        if height != 1:
            return False
        colour = zone_colours[zone]
        others = [z for z in range(len(zone_colours)) if z != zone and zone_colours[z] == colour]
        return not all(zone_roofs[z] == roof for z in others)
    if zone_roofs[zone] != roof:
        return False
    top = zone_tallest[zone]
    return height == top or height == top + 1
