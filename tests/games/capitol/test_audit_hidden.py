"""Audit: hidden information (capitol.md §5.3) — no observation, text or infostate reveals a hidden card or bid.

Identical cards (e.g. the three floor5) have different ids; which of them a hand holds, and how many copies of a
kind beyond the public ones, are hidden. These scenarios compare two positions that differ only in hidden things.
"""

from __future__ import annotations

from typing import Any

from meeple.core import SPECTATOR, Rng, load_game
from meeple.games.capitol.actions import AddToBid, SealBid
from meeple.games.capitol.data import CARD_REP, CARD_TYPE
from meeple.games.capitol.state import AUCTION, CapitolState
from tests.games.capitol.helpers import card, do, fresh, names, texts


def give(state: CapitolState, seat: int, ids: list[int], known: list[int] | None = None) -> None:
    """Give ``seat`` exactly the cards ``ids`` (real ids); displaced cards go under their piles."""
    for c in ids:
        for lst in [*state.hands, *state.piles, *state.discards, *state.known]:
            if c in lst:
                lst.remove(c)
    for c in state.hands[seat]:
        state.piles[CARD_TYPE[c]].insert(0, c)
    state.hands[seat] = sorted(ids)
    state.known[seat] = list(known or [])
    state.edited()


def to_auction(s: CapitolState) -> None:
    while s.phase != AUCTION:
        do(s, "pass")


F5 = [card("floor5", i) for i in range(3)]
R1, R2 = card("roof1"), card("roof2")


def public_of(s: CapitolState, seat: int) -> Any:
    return s.observation(seat), s.information_state_string(seat)


def test_playing_a_hidden_copy_does_not_reveal_a_second_copy() -> None:
    # X: seat 1 holds a public floor5 and a hidden floor5; Y: the public floor5 and a hidden roof2
    x, y = fresh(3), fresh(3)
    give(x, 1, [F5[0], F5[1], R1], known=[F5[1]])
    give(y, 1, [F5[1], R1, R2], known=[F5[1]])
    for s in (x, y):
        do(s, "pass", "play floor5 without its action")
    # seat 0 only knows that seat 1 held one floor5 and played one
    assert x.observation(0)["players"][1]["known_cards"] == []
    assert y.observation(0)["players"][1]["known_cards"] == []
    assert x.observation(0)["piles"][1]["discard"] == y.observation(0)["piles"][1]["discard"]


def test_which_identical_copy_was_played_is_not_shown() -> None:
    # X: seat 1 holds floor5 #0 and #2 is under the floor pile; Y: the other way round
    x, y = fresh(3), fresh(3)
    give(x, 1, [F5[0], R1, R2])
    give(y, 1, [F5[2], R1, R2])
    for s in (x, y):
        for c in F5:
            if c not in s.hands[1] and c not in s.hands[0] and c not in s.hands[2]:
                for lst in s.piles:
                    if c in lst:
                        lst.remove(c)
                s.piles[1].insert(0, c)
        s.edited()
    for s in (x, y):
        do(s, "pass", "play floor5 without its action")
    assert x.observation(0)["piles"][1]["discard"] == y.observation(0)["piles"][1]["discard"]
    assert x.observation(None)["piles"][1]["discard"] == y.observation(None)["piles"][1]["discard"]


def test_losing_bid_with_a_hidden_copy_makes_one_copy_public() -> None:
    s = fresh(3)
    give(s, 1, [F5[0], F5[1], R1], known=[F5[1]])  # one floor5 public, one hidden
    give(s, 2, [card("floor8")])
    to_auction(s)
    do(s, "seal the bid", "bid: add floor5", "seal the bid", "bid: add floor8", "seal the bid")
    assert s.auction_log[-1][1] == 2
    # seat 1 revealed ONE floor5: the others know one, not two
    assert names(s.observation(0)["players"][1]["known_cards"]) == ["floor5"]
    assert len(s.known[1]) == 1


def test_losing_bid_of_two_copies_makes_both_public() -> None:
    s = fresh(3)
    give(s, 1, [F5[0], F5[1], R1], known=[F5[1]])
    give(s, 2, [card("floor8"), card("floor7")])
    to_auction(s)
    do(s, "seal the bid", "bid: add floor5", "bid: add floor5", "seal the bid")
    do(s, "bid: add floor8", "bid: add floor7", "seal the bid")
    assert names(s.observation(0)["players"][1]["known_cards"]) == ["floor5", "floor5"]


def test_winning_bid_with_a_hidden_copy_leaves_no_public_copy() -> None:
    s = fresh(3)
    give(s, 1, [F5[0], F5[1], R1], known=[F5[1]])
    give(s, 2, [card("floor2")])
    to_auction(s)
    do(s, "seal the bid", "bid: add floor5", "seal the bid", "bid: add floor2", "seal the bid")
    assert s.auction_log[-1][1] == 1
    # a floor5 may or may not remain in seat 1's hand: nothing of it is public any more
    assert s.observation(0)["players"][1]["known_cards"] == []
    assert set(s.known[1]) <= set(s.hands[1])


def test_sealed_bid_size_is_hidden_from_every_other_perspective() -> None:
    a, b = fresh(3), fresh(3)
    for s in (a, b):
        give(s, 0, [card("floor8"), card("floor7"), card("roof6"), R1])
        to_auction(s)
    do(a, "seal the bid")  # empty bid
    do(b, "bid: add floor8", "bid: add floor7", "bid: add roof6", "seal the bid")
    for seat in (1, 2, SPECTATOR):
        assert a.observation(seat) == b.observation(seat)
        assert a.history_texts(seat) == b.history_texts(seat)
    for seat in (1, 2):
        assert a.information_state_string(seat) == b.information_state_string(seat)
    # and while the bid is being built
    c, d = fresh(3), fresh(3)
    for s in (c, d):
        give(s, 0, [card("floor8"), card("floor7"), R1])
        to_auction(s)
    do(c, "bid: add floor8")
    do(d, "bid: add floor8", "bid: add floor7")
    for seat in (1, 2, SPECTATOR):
        assert c.observation(seat) == d.observation(seat)
        assert c.history_texts(seat) == d.history_texts(seat)
    assert c.action_to_string(c.legal_actions()[0], perspective=1) == "prepare a sealed bid"


def test_public_card_fields_never_carry_a_specific_copy() -> None:
    """Random play: every card id in a public field of any observation is the representative of its kind."""
    game = load_game("capitol", players=3, final_round_end_phase="play")
    s = game.new_initial_state(4)
    rng = Rng(4)
    steps = 0
    while not s.is_terminal():
        if steps % 9 == 0:
            for seat in (0, 1, 2, None):
                obs = s.observation(seat)
                public = [c for p in obs["players"] for c in p["known_cards"]]
                public += [c for p in obs["piles"] for c in p["discard"]] + [p["top"] for p in obs["piles"] if p["top"]]
                public += [c for e in obs["auction"]["log"] if e["bids"] for b in e["bids"] for c in b]
                assert all(CARD_REP[c] == c for c in public)
                for other, bid in enumerate(obs["auction"]["bids"]):
                    assert bid is None or other == seat or bid == "sealed"
        legal = s.legal_actions()
        action = legal[rng.randrange(len(legal))]
        actor = s.current_player()
        full = s.action_to_string(action)
        for seat in (0, 1, 2, SPECTATOR):
            seen = s.action_to_string(action, perspective=seat)
            if seat != actor and isinstance(action, (AddToBid, SealBid)):
                assert seen == "prepare a sealed bid"
            else:
                assert seen == full
        s.apply_action(action)
        steps += 1
    assert texts(s) == []


def explicit(hands: list[list[int]]) -> CapitolState:
    """A 3-player state with these hands; the other cards form the piles in id order (largest on top)."""
    s = fresh(3)
    s.hands = [sorted(h) for h in hands]
    s.known = [[], [], []]
    held = {c for h in hands for c in h}
    s.piles = [[c for c in range(62) if CARD_TYPE[c] == t and c not in held] for t in range(3)]
    s.discards = [[], [], []]
    s.edited()
    return s


def test_determinization_depends_only_on_what_the_seat_knows() -> None:
    seat0 = [card("permitC1-1"), card("permitC1-2"), card("permitC2-1"), card("roof2")]
    seat2 = [card("permitC3-1"), card("floor1"), card("roof3")]
    f6 = card("floor6")
    # X: seat 1 holds two floor5 (ids #0 and #2); Y: one floor5 (#2) and a floor6. Seat 0 cannot tell them apart.
    x = explicit([seat0, [F5[0], F5[2], R1], seat2])
    y = explicit([seat0, [F5[2], f6, R1], seat2])
    for s in (x, y):
        do(s, "play permitC1-1 without its action", "play floor5 without its action")
    assert x.information_state_string(0) == y.information_state_string(0)
    assert x.discards[1] != y.discards[1]  # different copies were played...
    for i in range(3):
        dx, dy = x.resample_from_infostate(0, Rng(i)), y.resample_from_infostate(0, Rng(i))
        assert dx.to_json() == dy.to_json()  # ...but the determinizations cannot show which
        assert dx.observation(0) == x.observation(0)


def test_error_messages_to_another_seat_name_no_card() -> None:
    import pytest

    from meeple.core import IllegalActionError, NotYourTurnError

    s = fresh(3)
    give(s, 0, [card("floor8"), card("roof7")])
    to_auction(s)
    do(s, "bid: add floor8")
    for seat in (1, 2):
        with pytest.raises(NotYourTurnError) as err:
            s.apply_action(s.legal_actions()[0], player=seat)
        assert "floor8" not in str(err.value) and "roof7" not in str(err.value)
    with pytest.raises(IllegalActionError) as bad:  # seat 0's own mistake lists only its own moves
        s.apply_action(AddToBid(card("floor1")), player=0)
    assert "roof7" in str(bad.value)
