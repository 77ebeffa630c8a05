"""Property tests (hypothesis): district cards are conserved and gold is never negative through random play."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple import load_game
from meeple.core import Rng
from meeple.games.citadels.state import CitadelsState

VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (7, {}),
    (2, {"variant_2p_ffg": True}),
    (3, {"variant_3p_ffg": True}),
    (4, {"deck": "en", "great_wall": True}),
    (5, {"quick_game": "6", "killed_king_takes_crown": True}),
]


def all_cards(s: CitadelsState) -> list[int]:
    pending = s.pending_cards()
    return s.deck + [c for h in s.hands for c in h] + [c for city in s.cities for c in city] + pending


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS))
def test_cards_conserved_and_gold_non_negative(seed: int, variant: tuple[int, dict[str, Any]]) -> None:
    players, params = variant
    game = load_game("citadels", players=players, **params)
    state = game.new_initial_state(seed)
    assert isinstance(state, CitadelsState)
    n_cards = len(game.card_kind)
    rng = Rng(seed)
    while not state.is_terminal():
        cards = all_cards(state)
        assert sorted(cards) == list(range(n_cards))
        assert min(state.gold) >= 0
        for s, city in enumerate(state.cities):  # no two districts of one name in a city
            kinds = [game.card_kind[c] for c in city]
            assert len(set(kinds)) == len(kinds)
            assert state.masks[s] == sum(1 << k for k in kinds)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert sorted(all_cards(state)) == list(range(n_cards))
    assert min(state.gold) >= 0
    assert sum(state.returns()) >= 1.0
