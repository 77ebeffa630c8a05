"""Hidden information the audits found leaking, each checked across two worlds the observer cannot tell apart.

- Which copy was built: copies of a district are identical cards, so what the others see of a build must not depend
  on which copy the builder still holds (citadels.md §5.2 r11; issue "Hidden information and bad input", leak 3).
- The Magician's exchange: how many cards went under the deck is public at the table and stays known (§5.2 r14;
  leak 4).
"""

from __future__ import annotations

from meeple.core import SPECTATOR
from meeple.games.citadels.state import CitadelsState

from .helpers import kind, play, position


def _swap_in_hand(s: CitadelsState, seat: int, out_card: int, in_card: int) -> CitadelsState:
    """Return a copy where ``seat`` holds ``in_card`` (taken from the deck) instead of ``out_card`` (put there)."""
    o = s.clone()
    assert isinstance(o, CitadelsState)
    hand, deck = o.hands[seat], o.deck
    hand[hand.index(out_card)], deck[deck.index(in_card)] = in_card, out_card
    o.known[in_card], o.known[out_card] = o.known[out_card], o.known[in_card]
    o.edited()
    return o


def test_what_the_others_see_of_a_build_does_not_depend_on_which_copy_was_built() -> None:
    a = position(chars={0: [4]}, hands={0: ["temple", "temple", "port"]}, gold={0: 5}, start=4)
    temples = sorted(c for c in a.hands[0] if a.game.card_kind[c] == kind("temple"))
    other = next(c for c in a.deck if a.game.card_kind[c] == kind("manoir"))
    # world B: seat 0 holds only the higher Temple (and a Manor): the lowest-id rule builds another copy there
    b = _swap_in_hand(a, 0, temples[0], other)
    for s in (a, b):
        play(s, "take 2 gold", "build Temple")
    assert a.cities[0] != b.cities[0]  # the engine did build different copies
    for seat in (1, 2, 3, SPECTATOR):
        perspective = None if seat == SPECTATOR else seat
        assert a.observation(perspective) == b.observation(perspective)
        if seat != SPECTATOR:
            assert a.information_state_string(seat) == b.information_state_string(seat)
    assert a.observation(0)["hand"] != b.observation(0)["hand"]  # the builder's own view does differ


def _after_exchange(count: int) -> CitadelsState:
    s = position(chars={0: [3], 1: [5]}, hands={0: ["temple", "port", "manoir"]}, start=3)
    play(
        s, "exchange cards with the deck", *["select Temple for the exchange", "select Harbor for the exchange"][:count]
    )
    play(s, "confirm the exchange", "take 2 gold", "end the turn")
    return s


def test_the_size_of_a_magician_exchange_stays_known_to_the_others() -> None:
    one, two = _after_exchange(1), _after_exchange(2)
    assert one.observation(1)["exchanges"] == [{"round": 1, "seat": 0, "count": 1}]
    assert two.observation(None)["exchanges"] == [{"round": 1, "seat": 0, "count": 2}]
    for seat in (1, 2, 3):
        assert one.information_state_string(seat) != two.information_state_string(seat)
    restored = one.game.state_from_json(one.to_json(), check_history=False)
    assert restored.observation(2)["exchanges"] == one.observation(2)["exchanges"]
