from __future__ import annotations

from typing import Any

import pytest

from meeple.core.errors import IllegalActionError
from meeple.games.capital_lux_2.actions import (
    ChooseDistrict,
    ChooseSeat,
    DiscardDistrict,
    GiveCard,
    PayExcess,
    PlayToCapital,
    PlayToCity,
    SelectCard,
    TakeCard,
)
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK, YELLOW
from meeple.games.capital_lux_2.flow import end_round
from meeple.games.capital_lux_2.powers import POWERS, PowerTile
from meeple.games.capital_lux_2.state import CapitalLux2State
from tests.games.capital_lux_2.helpers import blank, card, finish

P = {"provisional_powers": True}


def table(config: str, players: int = 3, **extra: Any) -> CapitalLux2State:
    params = dict(P) if config != "A" else {}
    params.update(extra)
    st = blank(players, config=config, **params)
    for s in range(1, players):
        st.hand[s] = [card(GREEN, 2, s), card(BLUE, 2, s)]
    return st


def test_registry_has_sixteen_tiles_with_data() -> None:
    assert len(POWERS) == 16
    for tile in POWERS.values():
        assert isinstance(tile, PowerTile)
        assert tile.name_fr and tile.name_en and tile.effect
        assert tile.provisional == (tile.config != "A")
    assert {t.tile_id for t in POWERS.values() if not t.solo_allowed} == {"etranger", "prophete", "proselytiste"}


# ---------------------------------------------------------------- configuration A


def test_agent_places_a_modifier_only_its_owner_sees() -> None:
    st = table("A")
    st.hand[0] = [card(BLUE, 3), card(PINK, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(BLUE, 3)))
    assert st.stack[-1].kind == "agent"
    assert st.legal_actions() == [ChooseDistrict(d) for d in range(4)]
    drawn = st.mat["agent_drawn"][0]
    assert st.observation(0)["tiles"][0]["state"]["drawn_modifier"] == drawn
    assert "drawn_modifier" not in st.observation(1)["tiles"][0]["state"]
    st.apply_action(ChooseDistrict(GREEN))
    assert st.hidden == [[GREEN, 0, drawn, 0]]
    assert st.observation(0)["capital"][GREEN]["face_down"] == [{"kind": "modifier", "value": drawn}]
    assert st.observation(1)["capital"][GREEN]["face_down"] == [{"kind": "modifier", "value": "hidden"}]
    assert len(st.mat["agent_pile"]) == 3 and st.turn == 1


def test_agent_is_impossible_with_an_empty_pile() -> None:
    st = table("A")
    st.mat["agent_pile"] = []
    st.hand[0] = [card(BLUE, 3), card(PINK, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(BLUE, 3)))
    assert not st.stack and st.turn == 1


def test_clerc_moves_a_lowest_non_pink_capital_card_to_the_same_city_district() -> None:
    st = table("A")
    st.capital = [[card(BLUE, 5), card(BLUE, 2)], [card(PINK, 2, 1)], [card(YELLOW, 3), card(YELLOW, 3, 1)], []]
    st.hand[0] = [card(PINK, 4), card(GREEN, 6)]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 4)))
    assert st.legal_actions() == [TakeCard(card(BLUE, 2)), TakeCard(card(YELLOW, 3)), TakeCard(card(YELLOW, 3, 1))]
    st.apply_action(TakeCard(card(YELLOW, 3, 1)))
    assert st.city[0][YELLOW] == [card(YELLOW, 3, 1)]
    assert st.capital[YELLOW] == [card(YELLOW, 3)]


def test_marchand_gives_one_gold() -> None:
    st = table("A")
    st.hand[0] = [card(YELLOW, 5), card(PINK, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(YELLOW, 5)))
    assert st.gold[0] == 1 and not st.stack


def test_marchand_flag_pays_the_excess_or_discards() -> None:
    st = table("A", merchant_gold_covers_excess=True)
    st.capital[BLUE] = [card(BLUE, 4)]
    st.city[0][BLUE] = [card(BLUE, 6)]  # excess 2
    st.city[1][BLUE] = [card(BLUE, 5)]  # excess 1
    st.gold = [3, 1, 0]
    st.hand = [[], [], []]
    finish(st)
    end_round(st)
    assert st.current_player() == 0
    assert st.legal_actions() == [PayExcess(BLUE, 2), DiscardDistrict(BLUE)]
    st.apply_action(PayExcess(BLUE, 2))
    assert st.gold[0] == 1 and st.city[0][BLUE] == [card(BLUE, 6)]
    assert st.current_player() == 1
    st.apply_action(DiscardDistrict(BLUE))
    assert st.city[1][BLUE] == []
    assert st.bonus[0] == [card(BLUE, 4)]  # seat 0 kept its 6 and is highest


def test_marchand_flag_off_discards_as_usual() -> None:
    st = table("A")
    st.capital[BLUE] = [card(BLUE, 4)]
    st.city[0][BLUE] = [card(BLUE, 6)]
    st.gold = [3, 0, 0]
    st.hand = [[], [], []]
    finish(st)
    end_round(st)
    assert st.city[0][BLUE] == []


def test_savant_draws_the_top_card() -> None:
    st = table("A")
    st.hand[0] = [card(GREEN, 5), card(PINK, 2)]
    finish(st)
    top = st.deck[-1]
    st.apply_action(PlayToCapital(card(GREEN, 5)))
    assert top in st.hand[0] and len(st.hand[0]) == 2


# ---------------------------------------------------------------- blue B-D


def test_infiltre_puts_the_unseen_top_card_face_down_and_it_counts_at_resolution() -> None:
    st = table("B")
    st.hand[0] = [card(BLUE, 3), card(PINK, 2)]
    finish(st)
    top = st.deck[-1]
    st.apply_action(PlayToCapital(card(BLUE, 3)))
    st.apply_action(ChooseDistrict(PINK))
    assert st.hidden == [[PINK, 1, top, -1]]
    assert st.observation(0)["capital"][PINK]["face_down"] == [{"kind": "card", "value": "hidden"}]
    st.city[0][PINK] = [card(PINK, 2, 4)]
    st.capital[PINK] = []
    st.hand = [[], [], []]
    end_round(st)
    assert st.city[0][PINK] == [card(PINK, 2, 4)]  # MAX = the infiltrated card (>= 2)
    assert top in st.discard


def test_recruteur_moves_a_capital_card_to_another_district() -> None:
    st = table("C")
    st.capital[PINK] = [card(PINK, 5)]
    st.hand[0] = [card(BLUE, 3), card(PINK, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(BLUE, 3)))
    assert set(st.legal_actions()) == {TakeCard(card(BLUE, 3)), TakeCard(card(PINK, 5))}
    st.apply_action(TakeCard(card(PINK, 5)))
    assert ChooseDistrict(PINK) not in st.legal_actions()
    st.apply_action(ChooseDistrict(GREEN))
    assert st.capital[GREEN] == [card(PINK, 5)] and st.capital[PINK] == []


def test_etranger_plays_a_card_into_a_foreign_district_of_another_city() -> None:
    st = table("D")
    st.hand[0] = [card(BLUE, 3), card(PINK, 6)]
    finish(st)
    st.apply_action(PlayToCapital(card(BLUE, 3)))
    assert st.legal_actions() == [GiveCard(card(PINK, 6))]
    st.apply_action(GiveCard(card(PINK, 6)))
    assert st.legal_actions() == [ChooseSeat(1), ChooseSeat(2)]
    st.apply_action(ChooseSeat(2))
    assert ChooseDistrict(PINK) not in st.legal_actions()
    st.apply_action(ChooseDistrict(YELLOW))
    assert st.city[2][YELLOW] == [card(PINK, 6)] and st.hand[0] == []
    assert st.ending  # seat 0 ended its turn with an empty hand


# ---------------------------------------------------------------- pink B-D


def test_prophete_moves_each_other_players_lowest_card_to_the_capital() -> None:
    st = table("B")
    st.city[1][GREEN] = [card(GREEN, 4), card(GREEN, 3), card(GREEN, 3, 1)]
    st.city[2][GREEN] = [card(GREEN, 6)]
    st.city[0][GREEN] = [card(GREEN, 2)]
    st.hand[0] = [card(PINK, 3), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 3)))
    assert st.legal_actions() == [ChooseDistrict(GREEN)]
    st.apply_action(ChooseDistrict(GREEN))
    assert st.city[1][GREEN] == [card(GREEN, 4), card(GREEN, 3)]  # equal lowest: the one placed last goes
    assert st.city[2][GREEN] == []
    assert st.city[0][GREEN] == [card(GREEN, 2)]
    assert st.capital[GREEN] == [card(GREEN, 3, 1), card(GREEN, 6)]


def test_missionnaire_moves_your_lowest_city_card_to_the_capital() -> None:
    st = table("C")
    st.city[0][YELLOW] = [card(YELLOW, 5), card(YELLOW, 2)]
    st.city[0][BLUE] = [card(BLUE, 4)]
    st.hand[0] = [card(PINK, 3), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 3)))
    assert st.legal_actions() == [TakeCard(card(BLUE, 4)), TakeCard(card(YELLOW, 2))]
    st.apply_action(TakeCard(card(YELLOW, 2)))
    assert st.capital[YELLOW] == [card(YELLOW, 2)] and st.city[0][YELLOW] == [card(YELLOW, 5)]


def test_missionnaire_is_impossible_with_an_empty_city() -> None:
    st = table("C")
    st.hand[0] = [card(PINK, 3), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 3)))
    assert not st.stack and st.turn == 1


def test_mentaliste_discards_a_lowest_capital_card_not_the_one_just_played() -> None:
    st = table("D")
    st.capital[BLUE] = [card(BLUE, 4), card(BLUE, 6)]
    st.capital[PINK] = [card(PINK, 5)]
    st.hand[0] = [card(PINK, 2), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 2)))
    assert st.legal_actions() == [TakeCard(card(BLUE, 4)), TakeCard(card(PINK, 5))]
    with pytest.raises(IllegalActionError):
        st.apply_action(TakeCard(card(PINK, 2)))
    st.apply_action(TakeCard(card(PINK, 5)))
    assert st.capital[PINK] == [card(PINK, 2)] and card(PINK, 5) in st.discard


# ---------------------------------------------------------------- yellow B-D


def test_disciple_one_gold_plus_one_for_the_highest_yellow_district() -> None:
    st = table("B")
    st.city[0][YELLOW] = [card(YELLOW, 4)]
    st.city[1][YELLOW] = [card(YELLOW, 4, 1)]  # a tie counts
    st.hand[0] = [card(YELLOW, 3), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(YELLOW, 3)))
    assert st.gold[0] == 2
    st.hand[1] = [card(YELLOW, 2), card(BLUE, 6)]
    st.city[1][YELLOW] = []
    st.edited()
    st.apply_action(PlayToCapital(card(YELLOW, 2)))
    assert st.gold[1] == 1  # an empty yellow district is never "the highest"


def test_aristocrate_gives_plus_two_max_then_gold_when_none_left() -> None:
    st = table("C")
    st.mat["aristo_left"][0] = 1
    st.hand[0] = [card(YELLOW, 3), card(YELLOW, 4), card(BLUE, 2)]
    st.hand[1] = [card(GREEN, 2, 1), card(GREEN, 3, 1)]
    st.hand[2] = [card(GREEN, 2, 2), card(GREEN, 3, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(YELLOW, 3)))
    st.apply_action(ChooseDistrict(BLUE))
    assert st.mat["aristo_on"][BLUE] == 1 and st.mat["aristo_left"][0] == 0
    st.apply_action(PlayToCity(card(GREEN, 2, 1)))
    st.apply_action(PlayToCity(card(GREEN, 2, 2)))
    st.apply_action(PlayToCapital(card(YELLOW, 4)))
    assert st.gold[0] == 1 and not st.stack
    st.capital[BLUE] = [card(BLUE, 4)]
    st.city[0][BLUE] = [card(BLUE, 6)]  # 6 <= 4 + 2: kept
    st.city[1][BLUE] = [card(BLUE, 5)]  # 5 > 4: discarded
    st.hand = [[], [], []]
    end_round(st)
    assert st.city[0][BLUE] == [card(BLUE, 6)] and st.city[1][BLUE] == []


def test_sentinelle_limits_a_bust_to_the_highest_card_then_leaves() -> None:
    st = table("D")
    st.hand[0] = [card(YELLOW, 3), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(YELLOW, 3)))
    st.apply_action(ChooseDistrict(GREEN))
    assert st.mat["sentinel"][0] == GREEN
    st.capital[GREEN] = [card(GREEN, 5)]
    st.city[0][GREEN] = [card(GREEN, 4), card(GREEN, 6)]
    st.city[1][GREEN] = [card(GREEN, 4, 1), card(GREEN, 3)]
    st.hand = [[], [], []]
    end_round(st)
    assert st.city[0][GREEN] == [card(GREEN, 4)]
    assert st.city[1][GREEN] == []
    assert st.mat["sentinel"] == [-1, -1, -1]


# ---------------------------------------------------------------- green B-D


def test_proselytiste_takes_a_random_card_from_another_hand() -> None:
    st = table("B")
    st.hand[0] = [card(GREEN, 3), card(BLUE, 4)]
    st.hand[2] = []
    st.hand[1] = [card(PINK, 5), card(PINK, 6)]
    finish(st)
    st.apply_action(PlayToCapital(card(GREEN, 3)))
    assert st.legal_actions() == [ChooseSeat(1)]
    st.apply_action(ChooseSeat(1))
    assert len(st.hand[1]) == 1 and len(st.hand[0]) == 2
    assert set(st.hand[0]) - {card(BLUE, 4)} <= {card(PINK, 5), card(PINK, 6)}


def test_explorateur_keeps_one_of_three_and_puts_two_at_the_bottom() -> None:
    st = table("C")
    st.hand[0] = [card(GREEN, 3), card(BLUE, 4)]
    finish(st)
    top3 = st.deck[-3:]
    st.apply_action(PlayToCapital(card(GREEN, 3)))
    assert sorted(st.peek) == sorted(top3)
    assert "peek" in st.observation(0) and "peek" not in st.observation(1)
    keep = top3[0]
    st.apply_action(SelectCard(keep))
    assert keep in st.hand[0]
    assert sorted(st.deck[:2]) == sorted(top3[1:])
    assert st.action_to_string(SelectCard(keep), perspective=1, actor=0) == "keep one of the cards seen"


def test_dualiste_draws_then_gives_one_extra_play_without_chaining() -> None:
    st = table("D")
    st.hand[0] = [card(GREEN, 3), card(GREEN, 4), card(BLUE, 6)]
    finish(st)
    top = st.deck[-1]
    st.apply_action(PlayToCapital(card(GREEN, 3)))
    assert top in st.hand[0]
    assert st.stack[-1].kind == "dualiste" and st.current_player() == 0
    nxt = st.deck[-1]
    st.apply_action(PlayToCapital(card(GREEN, 4)))  # the extra play into green: draw only, no further extra play
    assert nxt in st.hand[0]
    assert not st.stack and st.turn == 1


class _Banker(PowerTile):
    tile_id = "banker"
    name_fr = "Banquier"
    name_en = "Banker"
    colour = GREEN
    config = "X"
    effect = "Take 3 gold."

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        st.gold[player] += 3


def test_a_new_tile_plugs_in_through_the_registry_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(POWERS, "banker", _Banker())
    st = blank(2, config="custom", tiles="agent,clerc,marchand,banker")
    assert st.tile_ids == ["agent", "clerc", "marchand", "banker"]
    st.hand = [[card(GREEN, 4), card(PINK, 2)], [card(BLUE, 2)]]
    finish(st)
    st.apply_action(PlayToCapital(card(GREEN, 4)))
    assert st.gold[0] == 3
    assert st.observation(0)["tiles"][3]["name"] == "Banker"


def test_clerc_variant_any_district_includes_pink() -> None:
    st = table("A", clerc_excludes_pink=False)
    st.capital = [[card(BLUE, 5)], [card(PINK, 2, 1)], [], []]
    st.hand[0] = [card(PINK, 4), card(GREEN, 6)]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 4)))
    assert st.legal_actions() == [TakeCard(card(BLUE, 5)), TakeCard(card(PINK, 2, 1))]
    st.apply_action(TakeCard(card(PINK, 2, 1)))
    assert st.city[0][PINK] == [card(PINK, 2, 1)]
