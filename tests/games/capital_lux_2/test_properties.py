from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st_

from tests.games.capital_lux_2.helpers import all_cards, new_state

CONFIGS = [{}, {"config": "random", "provisional_powers": True}, {"merchant_gold_covers_excess": True}]


@settings(max_examples=12, deadline=None)
@given(
    players=st_.integers(min_value=1, max_value=4),
    seed=st_.integers(min_value=0, max_value=10_000),
    config=st_.sampled_from(CONFIGS),
)
def test_the_hundred_citizen_cards_are_conserved(players: int, seed: int, config: dict[str, object]) -> None:
    st = new_state(players, seed=seed, **config)
    rng = random.Random(seed)
    while not st.is_terminal():
        assert sorted(all_cards(st)) == list(range(100))
        assert all(g >= 0 for g in st.gold)
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    assert sorted(all_cards(st)) == list(range(100))
