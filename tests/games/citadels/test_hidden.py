"""Hidden information: observations, redacted texts and resampling (issue 2 §3 observation; §5.2 draft)."""

from __future__ import annotations

import json

from meeple import load_game
from meeple.core import Rng
from meeple.games.citadels.state import CitadelsState

from .helpers import play, position


def midgame(players: int = 4, seed: int = 4, steps: int = 40, **params: object) -> CitadelsState:
    s = load_game("citadels", players=players, **params).new_initial_state(seed)
    assert isinstance(s, CitadelsState)
    rng = Rng(seed)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    return s


def test_other_hands_deck_order_and_facedown_do_not_change_an_observation() -> None:
    s = midgame()
    for seat in range(4):
        other = s.clone()
        assert isinstance(other, CitadelsState)
        victim = (seat + 1) % 4
        # swap the victim's hand with deck cards, reverse the deck, change the face-down character
        k = len(other.hands[victim])
        other.hands[victim], other.deck = other.deck[:k], other.hands[victim] + other.deck[k:]
        other.deck.reverse()
        assert other.observation(seat) == s.observation(seat)
        text = json.dumps(s.observation(seat))
        assert 'facedown"' not in text


def test_resample_keeps_what_the_observer_knows_and_redeals_the_rest() -> None:
    for players, params in [(4, {}), (7, {}), (2, {"variant_2p_ffg": True}), (3, {"variant_3p_ffg": True})]:
        s = midgame(players, seed=9, steps=25, **params)
        p = s.current_player()
        hands_changed = False
        for k in range(8):
            r = s.resample_from_infostate(p, Rng(k))
            assert isinstance(r, CitadelsState)
            assert r.observation(p) == s.observation(p)
            assert r.hands[p] == s.hands[p]
            assert [len(h) for h in r.hands] == [len(h) for h in s.hands]
            assert sorted(r.deck + [c for h in r.hands for c in h]) == sorted(s.deck + [c for h in s.hands for c in h])
            for c, status in s.calls:  # revealed characters stay with their holders
                if status >= 0:
                    assert r.owner[c] == status
            assert r.chars[p] == s.chars[p]
            hands_changed |= any(r.hands[q] != s.hands[q] for q in range(players) if q != p)
        assert hands_changed


def test_resample_during_the_draft_keeps_the_offer() -> None:
    s = load_game("citadels", players=5).new_initial_state(2)
    assert isinstance(s, CitadelsState)
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    p = s.current_player()
    seen = set()
    for k in range(20):
        r = s.resample_from_infostate(p, Rng(k))
        assert isinstance(r, CitadelsState)
        assert r.pool == s.pool and r.legal_actions() == s.legal_actions()
        seen.add(tuple(tuple(c) for c in r.chars))
    assert len(seen) > 1  # the earlier picks are drawn again


def test_thief_announcement_is_public_and_rob_text() -> None:
    s = position(chars={0: [2], 1: [6]}, start=2)
    play(s, "rob the Merchant")
    assert s.observation(3)["characters"]["robbed"] == 6
    assert s.action_to_string(s.history[-1][1], perspective=3, actor=0) == "rob the Merchant"


def test_resample_keeps_cards_whose_place_the_observer_knows() -> None:
    # seat 0 (Magician) swaps with seat 1: seat 0 knows where its old cards are now
    s = position(chars={0: [3]}, hands={0: ["temple", "port"], 1: ["manoir"]}, start=3)
    mine = list(s.hands[0])
    play(s, "swap hands with seat 1")
    for k in range(10):
        r = s.resample_from_infostate(0, Rng(k))
        assert isinstance(r, CitadelsState)
        assert sorted(r.hands[1]) == sorted(mine)
    # a destroyed district goes under the deck in public: it stays at the bottom for every observer
    s = position(chars={1: [8]}, cities={0: ["chateau"]}, hands={2: ["temple"]}, gold={1: 9}, start=8)
    play(s, "take 2 gold", "end the turn", "destroy Castle in seat 0's city")
    castle = s.deck[0]
    changed = False
    for k in range(10):
        r = s.resample_from_infostate(2, Rng(k))
        assert isinstance(r, CitadelsState)
        assert r.deck[0] == castle
        changed |= r.deck != s.deck
    assert changed
