"""Fast rollout policies, projected scores of cut-short searches, and the solo margin reward."""

from __future__ import annotations

import random

import pytest

from meeple.bots.ismcts import SOLO_WIN_WEIGHT, ISMCTSBot, parse_ismcts_spec
from meeple.bots.rollout import rollout_policy
from meeple.bots.rollout.capital_lux_2 import limits, rivals
from meeple.core import InvalidParameterError, SeatView, game_spec, load_game
from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict, KeepCard, PlayToCapital, PlayToCity, TakeCard
from meeple.games.capital_lux_2.state import CapitalLux2State
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
def _picks(st: CapitalLux2State) -> set[Action]:
    """Every move the rollout policy picks in ``st`` over 20 generators (one move when its choice has no tie)."""
    st.edited()
    policy = rollout_policy("capital_lux_2")
    legal = st.legal_actions()
    return {policy(st, legal, random.Random(k)) for k in range(20)}


def test_rollout_policy_plays_to_the_city_only_what_fits() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 5)]
    st.capital[PINK] = [card(PINK, 3)]
    st.city[0][BLUE] = [card(BLUE, 2)]
    st.hand[0] = [card(BLUE, 3), card(PINK, 4)]
    finish(st)
    # blue 3 fits (2 + 3 <= 5); pink 4 would bust (4 > 3)
    assert _picks(st) == {PlayToCity(card(BLUE, 3))}
    st.hand[0] = [card(PINK, 4), card(PINK, 5)]
    assert _picks(st) == {PlayToCapital(card(PINK, 4))}  # nothing fits: the cheapest card to the Capital


def test_rollout_policy_counts_face_down_items_in_the_max() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 5)]
    st.hand[0] = [card(BLUE, 4), card(BLUE, 2)]
    st.hidden = [[BLUE, 0, -3, 0]]  # the player's own -3 modifier: MAX 2
    finish(st)
    assert _picks(st) == {PlayToCity(card(BLUE, 2))}
    st.hidden.append([BLUE, 1, card(PINK, 4), -1])  # a face-down card (Infiltré) adds its value: MAX 6
    finish(st)
    assert limits(st) == [6, 0, 0, 0]
    assert _picks(st) == {PlayToCity(card(BLUE, 4))}


def test_rollout_policy_takes_a_majority_from_rob() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 6)]
    st.capital[PINK] = [card(PINK, 5)]
    st.city[1][BLUE] = [card(BLUE, 5, 1)]  # ROB leads blue with 5 and pink with 2
    st.city[1][PINK] = [card(PINK, 2)]
    st.hand[0] = [card(BLUE, 5), card(PINK, 3)]
    finish(st)
    # blue 5 is worth 5 (it only ties ROB); pink 3 is worth 3 + MAJORITY_VALUE (3 > ROB's 2, within MAX 5)
    assert _picks(st) == {PlayToCity(card(PINK, 3))}


def test_rollout_policy_counts_robs_reserve_in_his_totals() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 6), card(BLUE, 2)]
    st.city[1][BLUE] = [card(BLUE, 2)]
    st.rob_reserve = [card(BLUE, 3), card(BLUE, 5), card(BLUE, 4)]
    finish(st)
    # ROB's rule, highest first: 5 fits (2 + 5 <= 8), then 4 and 3 do not
    assert rivals(st, 0) == [7, 0, 0, 0]


def test_rollout_policy_lifts_the_max_over_a_busting_district() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 4)]
    st.capital[PINK] = [card(PINK, 5)]
    st.city[0][BLUE] = [card(BLUE, 6)]  # over its MAX of 4
    st.city[1][PINK] = [card(PINK, 4)]
    st.hand[0] = [card(BLUE, 2), card(PINK, 3)]
    finish(st)
    # blue 2 to the Capital saves the 6 (worth 6 - 1); pink 3 to the City is worth 3
    assert _picks(st) == {PlayToCapital(card(BLUE, 2))}


def _agent_decision(st: CapitalLux2State, modifier: int) -> None:
    st.mat["agent_drawn"] = [modifier, 0]
    st.stack = [Decision(0, "agent", ("place",))]
    finish(st)


def test_rollout_policy_aims_a_negative_modifier_at_rob() -> None:
    st = blank(1)
    st.capital[GREEN] = [card(GREEN, 6)]
    st.city[1][GREEN] = [card(GREEN, 6, 1)]  # ROB exactly at the visible total
    st.capital[BLUE] = [card(BLUE, 5)]
    st.city[0][BLUE] = [card(BLUE, 5, 1)]  # the player exactly at the total too
    _agent_decision(st, -3)
    assert _picks(st) == {ChooseDistrict(GREEN)}  # busts ROB's 6, not the player's 5


def test_rollout_policy_aims_a_positive_modifier_at_its_own_busting_district() -> None:
    st = blank(1)
    st.capital[YELLOW] = [card(YELLOW, 5)]
    st.city[0][YELLOW] = [card(YELLOW, 4), card(YELLOW, 3)]  # 7 > 5
    st.capital[GREEN] = [card(GREEN, 3)]
    st.city[1][GREEN] = [card(GREEN, 6)]  # ROB over its MAX (a Capital card was taken): +4 would save it
    _agent_decision(st, 4)
    assert _picks(st) == {ChooseDistrict(YELLOW)}


def test_rollout_policy_aims_the_clerc_at_rob() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 2), card(BLUE, 5)]
    st.city[1][BLUE] = [card(BLUE, 3), card(BLUE, 4)]  # 7, exactly the total
    st.capital[YELLOW] = [card(YELLOW, 3), card(YELLOW, 6)]
    st.city[0][YELLOW] = [card(YELLOW, 6, 1)]  # taking yellow 3 would bust it (9 > 6)
    st.capital[GREEN] = [card(GREEN, 2), card(GREEN, 6)]
    st.stack = [Decision(0, "clerc", ("take",))]
    finish(st)
    legal = st.legal_actions()
    assert set(legal) == {TakeCard(card(BLUE, 2)), TakeCard(card(YELLOW, 3)), TakeCard(card(GREEN, 2))}
    # blue 2: +2 in the City and ROB's 7 busts; green 2: +2; yellow 3: the player's 6 busts
    assert _picks(st) == {TakeCard(card(BLUE, 2))}


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
    assert game_spec("capital_lux_2").rollout_policy is not None
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
