"""Fast rollout policies, projected scores of cut-short searches, and the solo margin reward."""

from __future__ import annotations

import random

import pytest

from meeple.bots.ismcts import SOLO_WIN_WEIGHT, ISMCTSBot, parse_ismcts_spec
from meeple.bots.rollout import ROLLOUT_POLICIES, rollout_policy
from meeple.core import InvalidParameterError, SeatView, load_game
from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity
from meeple.games.capitol.data import TEMPLE
from tests.games.capital_lux_2.helpers import blank, card, finish, new_state
from tests.games.capitol.helpers import fresh, place

BLUE, PINK, YELLOW, GREEN = range(4)


# ---------------------------------------------------------------- Capitol projected scores
def test_capitol_projection_counts_the_board_for_every_scoring_left() -> None:
    state = fresh(players=2)
    assert state.projected_scores() == [0.0, 0.0]
    place(state, 0, 0, 2, 1)  # seat 0 alone in zone 0 (no fountain): 1st = 2 points a scoring
    assert state.round == 1 and state.scores() == [0.0, 0.0]
    assert state.projected_scores() == [8.0, 0.0]  # 4 scorings to come (rounds 1-4)
    state.round = 3
    state.points = [5, 9]
    assert state.projected_scores() == [5.0 + 2 * 2, 9.0]
    state.zone_large[0] = TEMPLE
    assert state.projected_scores() == [5.0 + 4 * 2, 9.0]


def test_capitol_projection_after_the_last_scoring_is_the_score() -> None:
    state = fresh(players=2)
    place(state, 1, 0, 3, 1)
    state.round = 4
    state.phase = 2  # the end phase of round 4: its scoring is done
    state.points = [30, 28]
    assert state.projected_scores() == [30.0, 28.0]


# ---------------------------------------------------------------- Capital Lux 2 solo opponent score
def test_opponent_score_is_rob_in_solo_and_none_otherwise() -> None:
    st = blank(1)
    st.city[1][BLUE] = [card(BLUE, 4)]
    st.bonus[1] = [card(PINK, 6)]
    st.gold = [0, 2]
    finish(st)
    assert st.opponent_score() == 4 + 6 + 2 * 2
    assert new_state(2).opponent_score() is None
    assert load_game("caprice", players=2).new_initial_state(0).opponent_score() is None


# ---------------------------------------------------------------- rollout policy
def test_rollout_policy_plays_to_the_city_only_what_fits() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 5)]
    st.capital[PINK] = [card(PINK, 3)]
    st.city[0][BLUE] = [card(BLUE, 2)]
    st.hand[0] = [card(BLUE, 3), card(PINK, 4), card(PINK, 2, 1)]
    finish(st)
    policy = rollout_policy("capital_lux_2")
    legal = st.legal_actions()
    picks = {policy(st, legal, random.Random(k)) for k in range(20)}
    # blue 3 fits (2 + 3 <= 5) and is the highest card that fits; pink 4 would bust (4 > 3)
    assert picks == {PlayToCity(card(BLUE, 3))}
    st.hand[0] = [card(PINK, 4), card(PINK, 5)]
    st._legal = None
    legal = st.legal_actions()
    picks = {policy(st, legal, random.Random(k)) for k in range(20)}
    assert picks == {PlayToCapital(card(PINK, 4))}  # nothing fits: the cheapest card to the Capital


def test_rollout_policy_keeps_a_highest_draft_card() -> None:
    st = new_state(1, seed=4)
    legal = st.legal_actions()
    assert all(isinstance(a, KeepCard) for a in legal)
    best = max(a.card % 25 // 5 for a in legal)  # value index of the card
    policy = rollout_policy("capital_lux_2")
    for k in range(10):
        pick = policy(st, legal, random.Random(k))
        assert isinstance(pick, KeepCard) and pick.card % 25 // 5 == best


def test_rollout_policy_registry_errors() -> None:
    assert "capital_lux_2" in ROLLOUT_POLICIES
    with pytest.raises(InvalidParameterError, match="no fast rollout policy for 'caprice'.*capital_lux_2"):
        rollout_policy("caprice")
    bot = parse_ismcts_spec("20:rollout=policy", seed=1)
    state = load_game("caprice", players=2).new_initial_state(0)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(InvalidParameterError, match="rollout=random"):
        bot.select_action(SeatView(state, state.current_player()))
    with pytest.raises(InvalidParameterError, match="random, heuristic or policy"):
        parse_ismcts_spec("20:rollout=clever", seed=1)


def test_policy_rollouts_are_reproducible_and_play_a_solo_game() -> None:
    game = load_game("capital_lux_2", players=1)
    state = game.new_initial_state(3)
    a = ISMCTSBot(seed=5, iterations=60, rollout="policy").root_statistics(SeatView(state, 0))
    b = ISMCTSBot(seed=5, iterations=60, rollout="policy").root_statistics(SeatView(state, 0))
    assert a == b and sum(n for n, _ in a.values()) == 60
    bot = ISMCTSBot(seed=2, iterations=20, rollout="policy", rollout_depth=10)
    while not state.is_terminal():
        state.apply_action(bot.select_action(SeatView(state, 0)), 0)
    assert state.returns() in ([0.0], [1.0])


# ---------------------------------------------------------------- solo reward plays for the margin
def test_solo_reward_weights_the_margin_against_rob() -> None:
    bot = ISMCTSBot(seed=0, iterations=1)
    st = blank(1)
    st.city[0][BLUE] = [card(BLUE, 6)]
    finish(st)
    low = bot._solo_scaled(st)  # first value seen: the middle of an empty range
    assert low == 0.5
    st.city[1][BLUE] = [card(BLUE, 5)]  # ROB gains: the margin drops from 6 to 1, own score unchanged
    assert bot._solo_scaled(st) == 0.0
    st.city[1][BLUE] = []
    assert bot._solo_scaled(st) == 1.0
    assert 0.0 < SOLO_WIN_WEIGHT < 0.5
