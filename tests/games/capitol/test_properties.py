"""Property: cards, floors and tiles are conserved through random play (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core import Rng, load_game
from meeple.games.capitol.data import CARD_REP, CARD_TYPE, NUM_CARDS, TOTAL_FLOORS
from meeple.games.capitol.rules import permit_allows
from meeple.games.capitol.state import PILE_PUBLIC, PILE_SHUFFLED, CapitolState


def kinds(cards: list[int]) -> list[int]:
    return sorted(CARD_REP[c] for c in cards)


def check_conservation(s: CapitolState) -> None:
    cards = [c for h in s.hands for c in h] + [c for p in s.piles for c in p] + [c for d in s.discards for c in d]
    assert sorted(cards) == list(range(NUM_CARDS))
    for seat in range(len(s.hands)):
        assert set(s.known[seat]) <= set(s.hands[seat])
        assert set(s.draft) <= set(s.hands[s.to_move]) if s.draft else True
    offboard = sum(c >> 2 for b in s.offboard for c in b)
    board = sum(b >> 2 for z in s.zone_bld for b in z)
    assert s.supply + offboard + board == TOTAL_FLOORS
    assert s.supply >= 0
    assert sum(s.zone_floors) == board
    placed_f = sum(s.zone_ftiles)
    placed = [sum(1 for t in s.zone_large if t == k) for k in (1, 2)]
    assert s.tiles[3] + placed_f + s.removed[3] == 8
    assert [s.tiles[k] + placed[k - 1] + s.removed[k] for k in (1, 2)] == [2, 2]
    n = len(s.hands)
    on_board = [sum(1 for z in s.zone_bld for b in z if b & 3 == p) for p in range(n)]
    roofs = [sum(1 for b in s.offboard[p] if b & 3) + on_board[p] for p in range(n)]
    assert [roofs[p] + s.reserve[2 * p] + s.reserve[2 * p + 1] for p in range(n)] == [10] * n
    for z, zone in enumerate(s.game.zones):
        assert 0 <= len(s.zone_bld[z]) + s.zone_ftiles[z] <= zone.small_spaces


def check_permits(s: CapitolState) -> None:
    """The engine's fast placement list agrees with the pure rule function."""
    game = s.game
    free = s.zone_free()
    for p in range(len(s.hands)):
        for colour in range(3):
            fast = {(a.height, a.roof, a.zone) for a in s._permit_actions(p, colour)}  # type: ignore[attr-defined]
            slow = {
                (c >> 2, c & 3, z)
                for c in s.offboard[p]
                for z in game.zones_of_colour[colour]
                if c & 3 and permit_allows(c >> 2, c & 3, z, game.zone_colours, s.zone_roof, s.zone_top, free)
            }
            assert fast == slow


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), shuffle=st.booleans())
def test_material_is_conserved(seed: int, players: int, shuffle: bool) -> None:
    game = load_game("capitol", players=players, exhausted_pile="shuffle" if shuffle else "flip_fifo")
    s = game.new_initial_state(seed)
    assert isinstance(s, CapitolState)
    rng = Rng(seed)
    while not s.is_terminal():
        check_conservation(s)
        if s.phase == 0:
            check_permits(s)
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    check_conservation(s)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), shuffle=st.booleans())
def test_resample_keeps_what_each_seat_knows(seed: int, players: int, shuffle: bool) -> None:
    game = load_game("capitol", players=players, exhausted_pile="shuffle" if shuffle else "flip_fifo")
    s = game.new_initial_state(seed)
    assert isinstance(s, CapitolState)
    rng = Rng(seed + 1)
    step = 0
    while not s.is_terminal():
        if step % 17 == 0:
            for seat in range(players):
                other = s.resample_from_infostate(seat, rng)
                assert isinstance(other, CapitolState)
                check_conservation(other)
                assert other.observation(seat) == s.observation(seat)
                assert other.hands[seat] == s.hands[seat]
                for p in range(players):
                    assert sorted(CARD_TYPE[c] for c in other.hands[p]) == sorted(CARD_TYPE[c] for c in s.hands[p])
                    # identical cards get canonical ids in a determinization: compare kinds (CARD_REP)
                    assert kinds(other.known[p]) == kinds(s.known[p]) and set(other.known[p]) <= set(other.hands[p])
                for t in range(3):
                    if s.pile_mode[t] == PILE_PUBLIC:
                        assert [CARD_REP[c] for c in other.piles[t]] == [CARD_REP[c] for c in s.piles[t]]
                    elif s.pile_mode[t] == PILE_SHUFFLED:
                        assert kinds(other.piles[t]) == kinds(s.piles[t])
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
        step += 1
