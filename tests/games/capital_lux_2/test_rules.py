from __future__ import annotations

import pytest

import meeple
from meeple.core.errors import InvalidParameterError
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK, YELLOW
from meeple.games.capital_lux_2.game import CapitalLux2Game
from meeple.games.capital_lux_2.rules import (
    bonus_outcome,
    highest_cards,
    lowest_cards,
    score,
    solo_wins,
    total,
    winners,
)
from tests.games.capital_lux_2.helpers import card, new_state


def test_score_rulebook_example_claire() -> None:
    # Claire: City 42, Bonus cards 20, 2 gold -> 66 (FR "Fin de partie" example)
    city = [[card(BLUE, 6, k) for k in range(5)], [card(PINK, 6, 0), card(PINK, 6, 1)], [], []]  # 30 + 12 = 42
    bonus = [card(GREEN, 6, 0), card(GREEN, 6, 1), card(YELLOW, 6, 0), card(YELLOW, 2, 0)]  # 20
    assert sum(total(d) for d in city) == 42 and total(bonus) == 20
    assert score(city, bonus, 2) == 66


def test_winners_fewer_gold_then_shared() -> None:
    assert winners([10, 12, 12], [0, 2, 1]) == [2]
    assert winners([12, 12], [1, 1]) == [0, 1]
    assert winners([5, 4], [9, 0]) == [0]


def test_solo_wins_needs_more_points_or_less_gold_on_a_tie() -> None:
    assert solo_wins(10, 3, 9, 0)
    assert solo_wins(10, 0, 10, 1)
    assert not solo_wins(10, 1, 10, 1)
    assert not solo_wins(9, 0, 10, 5)


def test_bonus_outcome() -> None:
    assert bonus_outcome([3, 5, 4]) == (1, [])
    assert bonus_outcome([5, 5, 4]) == (-1, [0, 1])
    assert bonus_outcome([0, 0]) == (-1, [])


def test_lowest_and_highest_cards_keep_pile_order() -> None:
    pile = [card(BLUE, 6, 0), card(BLUE, 2, 0), card(BLUE, 6, 1), card(BLUE, 2, 1)]
    assert lowest_cards(pile) == [card(BLUE, 2, 0), card(BLUE, 2, 1)]
    assert highest_cards(pile)[-1] == card(BLUE, 6, 1)
    assert lowest_cards([]) == []


def test_provisional_configs_need_the_flag() -> None:
    for config in "BCD":
        with pytest.raises(InvalidParameterError, match="provisional"):
            meeple.load_game("capital_lux_2", players=3, config=config)
        meeple.load_game("capital_lux_2", players=3, config=config, provisional_powers=True)
    with pytest.raises(InvalidParameterError, match="provisional"):
        meeple.load_game("capital_lux_2", players=3, config="custom", tiles="agent,clerc,disciple,savant")


def test_presets_follow_the_rulebook_table() -> None:
    expected = {
        "A": ["agent", "clerc", "marchand", "savant"],
        "B": ["infiltre", "prophete", "disciple", "proselytiste"],
        "C": ["recruteur", "missionnaire", "aristocrate", "explorateur"],
        "D": ["etranger", "mentaliste", "sentinelle", "dualiste"],
    }
    for config, tiles in expected.items():
        assert new_state(3, config=config, provisional_powers=True).tile_ids == tiles


def test_custom_tiles_any_order_one_per_colour() -> None:
    st = new_state(2, config="custom", tiles="dualiste,agent,mentaliste,aristocrate", provisional_powers=True)
    assert st.tile_ids == ["agent", "mentaliste", "aristocrate", "dualiste"]
    with pytest.raises(InvalidParameterError):
        new_state(2, config="custom", tiles="agent,recruteur,marchand,savant", provisional_powers=True)
    with pytest.raises(InvalidParameterError):
        new_state(2, config="custom", tiles="agent,clerc,marchand")


def test_random_config_draws_one_allowed_tile_per_colour() -> None:
    seen = set()
    for seed in range(30):
        st = new_state(3, seed=seed, config="random", provisional_powers=True)
        assert [t.colour for t in st.tiles] == [0, 1, 2, 3]
        seen.update(st.tile_ids)
        assert new_state(3, seed=seed, config="random").tile_ids == ["agent", "clerc", "marchand", "savant"]
    assert len(seen) > 10


def test_provisional_tiles_are_marked_everywhere() -> None:
    st = new_state(3, config="D", provisional_powers=True)
    names = [t["name"] for t in st.observation(0)["tiles"]]
    assert all(n.endswith("(provisional)") for n in names)
    summary = CapitalLux2Game.rules_summary()
    assert "Dualist (provisional)" in summary and "Agent (provisional)" not in summary
    assert "merchant_gold_covers_excess" in summary and "rob_deck" in summary
    a = new_state(3)
    assert not any("(provisional)" in t["name"] for t in a.observation(0)["tiles"])


def test_observation_hides_hands_and_bonus_piles_of_others() -> None:
    st = new_state(3, seed=3)
    st.bonus[1] = [card(PINK, 6)]
    obs = st.observation(0)
    assert "hand" in obs and obs["bonus_counts"][1] == 1
    assert all(c["id"] != card(PINK, 6) for c in obs["bonus"])
    spectator = st.observation(None)
    assert "hand" not in spectator and spectator["draft"]["pack"] is None
    assert obs["draft"]["pack"] is not None
    assert [d["district"] for d in obs["capital"]] == ["blue", "pink", "yellow", "green"]
    assert PINK == 1
