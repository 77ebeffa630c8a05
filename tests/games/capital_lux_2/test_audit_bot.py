"""Audit: the heuristic bot's solo play against ROB."""

from __future__ import annotations

from meeple.arena.match import play_match
from meeple.bots.heuristic.capital_lux_2 import CapitalLux2HeuristicBot
from meeple.core.view import SeatView
from meeple.games.capital_lux_2.actions import ChooseDistrict, PlayToCapital, TakeCard
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK, YELLOW
from tests.games.capital_lux_2.helpers import blank, card, finish


def test_solo_agent_puts_a_negative_modifier_where_rob_is_at_the_max() -> None:
    st = blank(1)
    st.capital = [[card(BLUE, 3)], [card(PINK, 6)], [card(YELLOW, 5)], [card(GREEN, 6), card(GREEN, 6, 1)]]
    st.city[1][YELLOW] = [card(YELLOW, 5, 1)]  # ROB exactly at the yellow MAX: a -3 busts it
    st.city[1][GREEN] = [card(GREEN, 3), card(GREEN, 3, 1)]  # more cards, but 6 <= 12 - 3 survives
    st.city[0][PINK] = [card(PINK, 2)]
    st.hand[0] = [card(BLUE, 2), card(GREEN, 2)]
    st.rob_hand = [card(BLUE, 6), card(BLUE, 6, 1)]
    st.rob_deck = [0] * 5
    st.rob_red = []
    st.rob_blue = []
    finish(st)
    st.mat["agent_pile"] = [-3]
    st.apply_action(PlayToCapital(card(BLUE, 2)))
    assert st.stack and st.stack[-1].kind == "agent"
    bot = CapitalLux2HeuristicBot(seed=0)
    assert bot.select_action(SeatView(st, 0)) == ChooseDistrict(YELLOW)


def test_solo_clerc_takes_the_card_that_busts_rob() -> None:
    st = blank(1)
    st.capital = [[], [], [card(YELLOW, 2), card(YELLOW, 5)], [card(GREEN, 2), card(GREEN, 6)]]
    st.city[1][GREEN] = [card(GREEN, 4), card(GREEN, 4, 1)]  # ROB at the green MAX (8)
    st.hand[0] = [card(PINK, 3), card(BLUE, 2)]
    st.rob_hand = [card(BLUE, 6), card(PINK, 6)]
    st.rob_deck = [0] * 5
    st.rob_red = []
    st.rob_blue = []
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 3)))
    assert st.legal_actions() == [TakeCard(card(YELLOW, 2)), TakeCard(card(GREEN, 2))]
    bot = CapitalLux2HeuristicBot(seed=0)
    # taking the green 2 drops the green MAX to 6: ROB's 8 busts and the player's 2 takes the green bonus
    assert bot.select_action(SeatView(st, 0)) == TakeCard(card(GREEN, 2))


def test_solo_heuristic_is_competitive_with_rob() -> None:
    margins = []
    for g in range(10):
        res = play_match("capital_lux_2", {"players": 1}, g, [CapitalLux2HeuristicBot(seed=g)])
        margins.append(res.final_state.observation(0)["rob"]["margin"])
    assert sum(margins) / len(margins) > -20  # the greedy bot before the audit averaged about -35
