from __future__ import annotations

import pytest

from meeple.core.errors import InvalidParameterError
from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity, TakeCard
from meeple.games.capital_lux_2.data import (
    BLUE,
    GREEN,
    PINK,
    ROB_BONUS,
    ROB_LEFT,
    ROB_RED,
    ROB_RIGHT,
    ROB_TOP,
    YELLOW,
    parse_rob_deck,
    solo_rating,
)
from meeple.games.capital_lux_2.solo import place_reserve, split_reserve
from tests.games.capital_lux_2.helpers import all_cards, blank, card, finish, new_state


def solo_table() -> object:
    return blank(1)


def test_solo_setup_four_capital_cards_rob_hand_city_reserve_and_deck() -> None:
    st = new_state(1, seed=5)
    assert sum(len(d) for d in st.capital) == 4
    assert len(st.rob_hand) == 2 and sum(len(d) for d in st.city[1]) == 1
    assert len(st.rob_reserve) == 5
    assert sorted(st.rob_deck) == sorted(parse_rob_deck("left=5/1/2,right=5/1/2,top=4/2/0"))
    assert sorted(all_cards(st)) == list(range(100))


def test_rob_plays_first_every_round() -> None:
    st = new_state(1, seed=5)
    for _ in range(6):
        st.apply_action(KeepCard(st.packs[0][0]))
    assert st.phase == 1
    assert len(st.rob_deck) == 13 and st.rob_last  # ROB already took its first turn
    assert st.current_player() == 0


def test_rob_deck_composition_is_a_parameter() -> None:
    st = new_state(1, seed=5, rob_deck="left=4/1/1,right=4/1/1,top=2/1/0")
    assert len(st.rob_deck) == 10
    with pytest.raises(InvalidParameterError):
        new_state(1, rob_deck="left=2/2/2")


def _rob_turn_setup(rob_card: int) -> object:
    st = blank(1)
    st.hand[0] = [card(GREEN, 2), card(GREEN, 3)]
    st.rob_deck = [rob_card]
    st.rob_red = []
    st.rob_blue = []
    return st


def test_rob_placement_goes_to_its_city_when_the_total_stays_within_the_visible_capital() -> None:
    st = _rob_turn_setup(ROB_LEFT)
    st.rob_hand = [card(BLUE, 4), card(PINK, 6)]
    st.capital[BLUE] = [card(BLUE, 5)]
    st.city[1][BLUE] = [card(BLUE, 2)]  # 2 + 4 = 6 > 5: to the Capital
    st.hidden = [[BLUE, 0, 4, 0]]  # face-down modifiers are ignored by ROB's test
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert st.capital[BLUE] == [card(BLUE, 5), card(BLUE, 4)]
    assert st.city[1][BLUE] == [card(BLUE, 2)]
    assert st.rob_hand[0] not in (-1, card(BLUE, 4)) and st.rob_hand[1] == card(PINK, 6)  # refilled left slot


def test_rob_placement_city_when_it_fits() -> None:
    st = _rob_turn_setup(ROB_RIGHT)
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    st.capital[PINK] = [card(PINK, 5)]
    st.city[1][PINK] = [card(PINK, 2)]  # 2 + 3 = 5 <= 5
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert st.city[1][PINK] == [card(PINK, 2), card(PINK, 3)]


def test_rob_top_card_takes_the_top_citizen_card() -> None:
    st = _rob_turn_setup(ROB_TOP)
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    finish(st)
    top = st.deck[-1]
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert top in st.capital[top // 25] or top in st.city[1][top // 25]
    assert st.rob_hand == [card(BLUE, 4), card(PINK, 3)]


def test_rob_bonus_symbol_takes_the_lowest_capital_card_not_the_one_played() -> None:
    st = _rob_turn_setup(ROB_LEFT | ROB_BONUS)
    st.rob_hand = [card(BLUE, 2), card(PINK, 3)]
    st.capital[BLUE] = []
    st.capital[YELLOW] = [card(YELLOW, 3), card(YELLOW, 6)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    # blue 2 does not fit (Capital blue 0): played to the Capital; ROB takes the lowest other card
    assert card(BLUE, 2) in st.capital[BLUE]
    assert st.bonus[1] == [card(YELLOW, 3)]
    assert st.gold[0] == 0  # ROB never triggers powers (no Marchand gold for anybody)


def test_rob_bonus_tie_the_player_chooses() -> None:
    st = _rob_turn_setup(ROB_RIGHT | ROB_BONUS)
    st.rob_hand = [card(BLUE, 2), card(PINK, 6)]
    st.capital[PINK] = []
    st.capital[YELLOW] = [card(YELLOW, 3)]
    st.capital[GREEN] = [card(GREEN, 3, 2)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert st.current_player() == 0 and st.stack[-1].kind == "rob_bonus"
    assert st.legal_actions() == [TakeCard(card(YELLOW, 3)), TakeCard(card(GREEN, 3, 2))]
    st.apply_action(TakeCard(card(GREEN, 3, 2)))
    assert st.bonus[1] == [card(GREEN, 3, 2)]
    assert st.rob_hand[1] >= 0 and not st.stack  # ROB's turn finished (refill)


def test_three_red_cards_end_the_round_after_the_players_last_turn() -> None:
    st = _rob_turn_setup(ROB_TOP | ROB_RED)
    st.rob_red = [ROB_LEFT | ROB_RED, ROB_RIGHT | ROB_RED]
    st.rob_deck = [ROB_LEFT, ROB_TOP | ROB_RED]
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    st.hand[0] = [card(GREEN, 2), card(GREEN, 3), card(GREEN, 4)]
    st.capital[GREEN] = [card(GREEN, 6), card(GREEN, 5)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert len(st.rob_red) == 3 and st.ending and st.current_player() == 0
    st.apply_action(PlayToCity(card(GREEN, 3)))  # the player's last turn
    assert st.phase == 0 and st.round == 1  # resolution ran; next round's draft
    assert card(GREEN, 4) in st.city[0][GREEN]  # leftover hand card went to the City
    assert len(st.rob_deck) == 14 and st.rob_red == []  # all ROB cards reshuffled


def test_empty_hand_gives_rob_one_last_turn() -> None:
    st = _rob_turn_setup(ROB_LEFT)
    st.rob_deck = [ROB_RIGHT, ROB_LEFT]
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    st.hand[0] = [card(GREEN, 2)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert st.round == 1 and st.phase == 0
    assert st.rob_deck != [ROB_RIGHT]  # reshuffled for the new round
    assert card(BLUE, 4) in st.capital[BLUE] + st.city[1][BLUE]  # ROB's last turn played its left card


def test_rob_reserve_placement_order_highest_first_within_a_colour() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 6), card(BLUE, 2)]  # 8
    st.capital[PINK] = [card(PINK, 4)]
    st.rob_reserve = [card(BLUE, 3), card(BLUE, 5), card(PINK, 5), card(BLUE, 4), card(GREEN, 2)]
    place_reserve(st)
    # blue, highest first: 5 fits (5 <= 8), 4 does not (9), 3 fits (8); pink 5 > 4 stays; green 2 > 0 stays
    assert st.city[1][BLUE] == [card(BLUE, 5), card(BLUE, 3)]
    assert st.rob_reserve == [card(BLUE, 4), card(PINK, 5), card(GREEN, 2)]


def test_rob_reserve_counts_the_city_already_built_and_leaves_its_inputs_alone() -> None:
    city, visible = [3, 0, 0, 0], [8, 4, 0, 0]
    reserve = [card(BLUE, 2), card(PINK, 4), card(BLUE, 4), card(BLUE, 5)]
    placed, kept = split_reserve(reserve, city, visible)
    # blue from 3: 5 fits (8 <= 8), then 4 (12) and 2 (10) do not; pink 4 fits exactly
    assert placed == [card(BLUE, 5), card(PINK, 4)]
    assert kept == [card(BLUE, 4), card(BLUE, 2)]
    assert city == [3, 0, 0, 0] and len(reserve) == 4


def test_reserve_is_refilled_to_five_each_round() -> None:
    st = new_state(1, seed=9)
    st.rob_reserve = st.rob_reserve[:2]
    from meeple.games.capital_lux_2.solo import start_round

    start_round(st)
    assert len(st.rob_reserve) == 5


def test_solo_excludes_three_tiles() -> None:
    with pytest.raises(InvalidParameterError):
        new_state(1, config="B", provisional_powers=True)
    with pytest.raises(InvalidParameterError):
        new_state(1, config="custom", tiles="etranger,clerc,marchand,savant", provisional_powers=True)
    for seed in range(40):
        st = new_state(1, seed=seed, config="random", provisional_powers=True)
        assert not {"etranger", "prophete", "proselytiste"} & set(st.tile_ids)


def test_solo_returns_scores_observation_and_gold_tie_rule() -> None:
    st = blank(1)
    st.round = 2
    st.city[0][BLUE] = [card(BLUE, 4)]
    st.city[1][PINK] = [card(PINK, 4)]
    st.capital[BLUE] = [card(BLUE, 5)]
    st.capital[PINK] = [card(PINK, 5)]
    st.gold = [1, 2]
    st.hand[0] = []
    finish(st)
    from meeple.games.capital_lux_2.flow import end_round

    end_round(st)
    assert st.is_terminal()
    assert st.scores() == [11.0]
    obs = st.observation(0)
    assert obs["rob"]["score"] == 13 and obs["rob"]["margin"] == -2 and obs["rob"]["rating"] == "lost"
    assert st.returns() == [0.0]
    st.gold = [1, 1]
    assert st.returns() == [0.0]  # equal score and equal gold: not less gold than ROB, so lost
    st.gold = [0, 1]
    st.city[0][BLUE].append(card(BLUE, 2))  # 4 + 2 + 5 = 11 vs 4 + 5 + 2 = 11
    assert st.returns() == [1.0]


def test_solo_rating_scale() -> None:
    assert solo_rating(-1, False) == "lost"
    assert solo_rating(0, True) == solo_rating(6, True) == "decent"
    assert solo_rating(7, True) == solo_rating(12, True) == "good"
    assert solo_rating(13, True) == solo_rating(18, True) == "very good"
    assert solo_rating(19, True) == solo_rating(24, True) == "excellent"
    assert solo_rating(25, True) == solo_rating(30, True) == "extraordinary"
    assert solo_rating(31, True) == solo_rating(99, True) == "world class"


def test_a_tie_is_rated_by_its_outcome_on_gold() -> None:
    """One rule (issue "Comfort"): a tie won on gold is a won "decent" game, a tie lost on gold is "lost"."""
    assert solo_rating(0, True) == "decent" and solo_rating(0, False) == "lost"
    st = blank(1)
    st.round = 2
    st.city[0][BLUE] = [card(BLUE, 4)]
    st.city[1][PINK] = [card(PINK, 4)]
    st.capital[BLUE] = [card(BLUE, 5)]
    st.capital[PINK] = [card(PINK, 5)]
    st.hand[0] = []
    finish(st)
    from meeple.games.capital_lux_2.flow import end_round

    end_round(st)
    st.gold = [1, 1]  # equal score (11 each, gold counted) and equal gold: lost (not less gold than ROB)
    obs = st.observation(0)
    assert obs["rob"]["margin"] == 0 and st.returns() == [0.0]
    assert obs["rob"]["rating"] == obs["solo_result"]["rating"] == "lost"
    st.gold = [0, 1]
    st.city[0][BLUE].append(card(BLUE, 2))  # equal score again, with less gold than ROB: won
    obs = st.observation(0)
    assert obs["rob"]["margin"] == 0 and st.returns() == [1.0]
    assert obs["rob"]["rating"] == obs["solo_result"]["rating"] == "decent"


def test_rating_distribution() -> None:
    from meeple.games.capital_lux_2.data import rating_distribution

    out = rating_distribution([(-3, False), (0, True), (8, True), (40, True), (12, True), (0, False)])
    assert out["games"] == 6 and out["wins"] == 4 and out["mean_margin"] == 57 / 6
    assert out["ratings"] == {
        "lost": 2,
        "decent": 1,
        "good": 2,
        "very good": 0,
        "excellent": 0,
        "extraordinary": 0,
        "world class": 1,
    }


def test_solo_observation_shows_rob() -> None:
    st = new_state(1, seed=2)
    rob = st.observation(0)["rob"]
    assert len(rob["hand"]) == 2 and len(rob["reserve"]) == 5
    assert rob["red_cards"] == 0 and rob["deck_left"] == 14 and rob["bonus"] == []
    assert "margin" in rob and "rating" in rob
    assert PlayToCapital(0) != PlayToCity(0)


def test_rob_moves_use_no_decision_and_no_history_entry() -> None:
    st = new_state(1, seed=11)
    while st.phase == 0:
        st.apply_action(st.legal_actions()[0])
    assert all(p == 0 for p, _ in st.history)
    assert st.observation(0)["rob"]["last_move"].startswith("ROB flipped")


def test_rob_wins_a_bonus_with_equal_highest_cards_the_player_chooses_for_rob() -> None:
    from meeple.games.capital_lux_2.flow import end_round

    st = blank(1)
    a, b = card(YELLOW, 6, 0), card(YELLOW, 6, 1)
    st.capital[YELLOW] = [a, b, card(YELLOW, 2)]
    st.city[1][YELLOW] = [card(YELLOW, 5)]
    st.hand[0] = []
    finish(st)
    end_round(st)
    assert st.current_player() == 0 and st.stack[-1].kind == "bonus"
    st.apply_action(TakeCard(b))
    assert st.bonus[1] == [b] and st.bonus[0] == []


def test_rob_never_triggers_powers() -> None:
    st = _rob_turn_setup(ROB_LEFT)
    st.rob_hand = [card(BLUE, 5), card(YELLOW, 6)]
    st.capital[BLUE] = []
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert card(BLUE, 5) in st.capital[BLUE]  # played to the Capital (does not fit its City)
    assert not st.stack and len(st.mat["agent_pile"]) == 4 and st.current_player() == 0
    st.rob_deck = [ROB_RIGHT]
    st.apply_action(PlayToCity(card(GREEN, 3)))
    assert card(YELLOW, 6) in st.capital[YELLOW] and st.gold == [0, 0]  # no Marchand gold for ROB


def test_observation_key_sums_up_robs_turn_coarsely() -> None:
    """The closed-loop key keeps ROB's card, the colour and destination of its citizen card and the bonus taken."""
    st = _rob_turn_setup(ROB_LEFT | ROB_BONUS)
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    st.capital[BLUE] = [card(BLUE, 3)]
    st.capital[YELLOW] = [card(YELLOW, 2)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2)))
    assert st.rob_last == [ROB_LEFT | ROB_BONUS, card(BLUE, 4), 1, card(YELLOW, 2)]  # Capital, took the yellow 2
    key = st.observation_key(0)
    assert key[-1] == (ROB_LEFT | ROB_BONUS, BLUE, 1, 1)
    other = st.clone()
    other.rob_hand[0] = card(GREEN, 6)  # another refill card: the same key
    other.rob_last[1] = card(BLUE, 5)  # another blue card with the same effect: the same key
    assert other.observation_key(0) == key
    other.rob_last[2] = 0  # to ROB's City instead
    assert other.observation_key(0) != key
    other = st.clone()
    other.hand[0] = [card(GREEN, 4)]  # the player's own hand is in the key
    assert other.observation_key(0) != key
