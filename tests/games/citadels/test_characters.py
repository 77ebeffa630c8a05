"""Scenario tests: every character power and its rulings (citadels.md §5.2 rules 6, 10-17; §2)."""

from __future__ import annotations

import pytest

from meeple.core import IllegalActionError
from meeple.games.citadels.actions import Assassinate, Rob
from meeple.games.citadels.state import D_DESTROY

from .helpers import kind, play, position, texts


def test_assassin_kills_and_victim_is_skipped_silently_then_revealed_at_round_end() -> None:
    s = position(chars={0: [1], 1: [2], 2: [6], 3: [8]}, gold={0: 0, 1: 0, 2: 0, 3: 0})
    assert s.current_player() == 0 and s.calling == 1
    # powers may be used before the mandatory action; face-up/unpicked names are legal (2..8)
    assert [a.character for a in s.legal_actions() if isinstance(a, Assassinate)] == [2, 3, 4, 5, 6, 7, 8]
    play(s, "assassinate the Merchant", "take 2 gold", "end the turn")
    assert s.current_player() == 1  # the Thief
    obs = s.observation(3)
    assert obs["characters"]["assassinated"] == 6
    play(s, "take 2 gold", "end the turn")
    # the Merchant (seat 2) is skipped silently: the Warlord (seat 3) plays next
    assert s.current_player() == 3 and s.calling == 8
    calls = s.observation(0)["characters"]["calls"]
    merchant = next(c for c in calls if c["character"] == 6)
    assert merchant["status"] == "silent" and merchant["seat"] is None
    assert s.gold[2] == 0  # no Merchant bonus
    play(s, "take 2 gold", "end the turn")
    assert s.round == 2 and s.phase == 0
    assert s.observation(1)["characters"]["last_round_killed"] == {"character": 6, "seat": 2}


def test_thief_cannot_rob_assassin_thief_or_killed_and_gold_moves_on_reveal() -> None:
    s = position(chars={0: [1], 1: [2], 2: [6], 3: [7]}, gold={0: 0, 1: 1, 2: 5, 3: 4}, cities={2: ["taverne"]})
    play(s, "assassinate the Architect", "take 2 gold", "end the turn")
    robs = [a.character for a in s.legal_actions() if isinstance(a, Rob)]
    assert robs == [3, 4, 5, 6, 8]  # not 1, 2, nor the killed Architect
    with pytest.raises(IllegalActionError):
        s.apply_action(Rob(7))
    play(s, "rob the Merchant", "take 2 gold")
    assert s.gold[1] == 3 and s.gold[2] == 5  # nothing moves before the Merchant is revealed
    play(s, "end the turn")
    # the Merchant is revealed: the Thief takes all his gold before he acts (the +1 comes after)
    assert s.current_player() == 2
    assert s.gold[1] == 8 and s.gold[2] == 1
    play(s, "take income")  # district income taken later is safe
    assert s.gold[2] == 2 and s.gold[1] == 8


def test_robbing_an_unpicked_character_does_nothing() -> None:
    s = position(chars={0: [2], 1: [4]}, gold={0: 0, 1: 3}, start=2)
    play(s, "rob the Bishop", "take 2 gold", "end the turn")
    assert s.gold == [2, 3, 0, 0]


def test_magician_swaps_hands_even_with_an_empty_hand() -> None:
    s = position(chars={0: [3], 1: [4]}, hands={0: [], 1: ["temple", "port"]}, start=3)
    before = sorted(s.hands[1])
    play(s, "swap hands with seat 1")
    assert sorted(s.hands[0]) == before and s.hands[1] == []
    assert "swap hands with seat 2" not in texts(s)  # once per turn


def test_magician_exchanges_k_cards_under_the_deck_then_draws_k() -> None:
    s = position(chars={0: [3]}, hands={0: ["temple", "temple", "port"]}, start=3)
    top3 = s.deck[-2:]
    hand = list(s.hands[0])
    play(s, "exchange cards with the deck")
    cancel = "cancel the exchange (choose your power again)"
    assert texts(s) == ["select Temple for the exchange", "select Harbor for the exchange", cancel]
    play(s, "select Temple for the exchange", "select Temple for the exchange")
    assert texts(s) == ["select Harbor for the exchange", "confirm the exchange", cancel]
    play(s, "confirm the exchange")
    temples = [c for c in hand if s.game.card_kind[c] == kind("temple")]
    assert set(s.deck[:2]) == set(temples)  # under the deck
    assert sorted(s.hands[0]) == sorted([c for c in hand if c not in temples] + top3)
    assert "exchange cards with the deck" not in texts(s)


def test_the_magicians_exchange_can_be_cancelled_before_it_is_confirmed() -> None:
    """Issue "Comfort": cancelling leaves the hand as it was and the power unused; he may then swap hands, but not
    start another exchange this turn (so a turn cannot loop on exchange and cancel)."""
    s = position(chars={0: [3]}, hands={0: ["temple", "temple", "port"]}, start=3)
    hand, deck = sorted(s.hands[0]), list(s.deck)
    play(s, "exchange cards with the deck", "select Temple for the exchange")
    play(s, "cancel the exchange (choose your power again)")
    assert sorted(s.hands[0]) == hand and s.deck == deck
    assert "exchange cards with the deck" not in texts(s)
    assert any(t.startswith("swap hands with seat") for t in texts(s))


def test_king_takes_the_crown_when_revealed() -> None:
    s = position(chars={0: [1], 2: [4]}, crown=1)
    assert s.crown == 1
    play(s, "take 2 gold", "end the turn")
    assert s.calling == 4 and s.crown == 2


@pytest.mark.parametrize("flag, crown", [(False, 1), (True, 2)])
def test_killed_king_and_the_crown(flag: bool, crown: int) -> None:
    s = position(chars={0: [1], 2: [4]}, crown=1, killed_king_takes_crown=flag)
    play(s, "assassinate the King", "take 2 gold", "end the turn")
    assert s.round == 2
    assert s.crown == crown
    assert s.steps[0][0] == crown  # the crown holder picks first


def test_crown_stays_when_nobody_took_the_king() -> None:
    s = position(chars={0: [1]}, crown=3)
    play(s, "take 2 gold", "end the turn")
    assert s.round == 2 and s.crown == 3


def test_bishop_protects_his_city_from_the_warlord_unless_assassinated() -> None:
    cities = {1: ["temple"], 2: ["manoir"]}
    s = position(chars={1: [5], 2: [8]}, cities=cities, gold={2: 5}, start=5)
    play(s, "take 2 gold", "end the turn")
    play(s, "take 2 gold", "end the turn")
    destroy = texts(s)
    assert "destroy Temple in seat 1's city" not in destroy
    assert "destroy Manor in seat 2's city" in destroy  # his own city is allowed
    s = position(chars={0: [1], 1: [5], 2: [8]}, cities=cities, gold={2: 5})
    play(s, "assassinate the Bishop", "take 2 gold", "end the turn")
    play(s, "take 2 gold", "end the turn")
    assert "destroy Temple in seat 1's city" in texts(s)


def test_colour_income_and_school_of_magic() -> None:
    s = position(chars={0: [5]}, cities={0: ["temple", "eglise", "ecole_de_magie", "manoir"]}, start=5)
    play(s, "take income")
    assert s.gold[0] == 3  # two blue + School of Magic
    assert "take income" not in texts(s)


def test_income_taken_after_building_counts_the_new_district() -> None:
    s = position(chars={0: [4]}, hands={0: ["manoir"]}, cities={0: ["chateau"]}, gold={0: 1}, start=4)
    play(s, "take 2 gold", "build Manor", "take income")
    assert s.gold[0] == 2
    s = position(chars={0: [4]}, hands={0: ["manoir"]}, cities={0: ["chateau"]}, gold={0: 1}, start=4)
    play(s, "take income", "take 2 gold", "build Manor")
    assert s.gold[0] == 1 and "take income" not in texts(s)


def test_merchant_gets_one_gold_at_the_start_of_his_turn() -> None:
    s = position(chars={0: [6]}, cities={0: ["marche", "port"]}, gold={0: 0}, start=6)
    assert s.gold[0] == 1
    play(s, "take 2 gold", "take income")
    assert s.gold[0] == 5


def test_architect_draws_two_blind_cards_and_builds_up_to_three() -> None:
    s = position(chars={0: [7]}, hands={0: ["temple", "taverne", "prison", "manoir"]}, gold={0: 20}, start=7)
    assert len(s.hands[0]) == 6
    play(s, "take 2 gold", "build Temple", "build Tavern", "build Prison")
    assert not any(t.startswith("build") for t in texts(s))
    assert len(s.cities[0]) == 3


def test_other_characters_build_only_one_district() -> None:
    s = position(chars={0: [6]}, hands={0: ["temple", "taverne"]}, gold={0: 20}, start=6)
    play(s, "take 2 gold", "build Temple")
    assert not any(t.startswith("build") for t in texts(s))


def test_warlord_destroys_at_the_end_of_his_turn_and_pays_cost_minus_one() -> None:
    cities = {0: ["temple", "chateau", "donjon", "universite"]}
    s = position(chars={1: [8]}, cities=cities, gold={1: 3}, start=8)
    assert not any(t.startswith("destroy") for t in texts(s))
    play(s, "take 2 gold", "end the turn")
    assert s.stack and s.stack[-1].kind == D_DESTROY
    t = texts(s)
    assert t[0] == "destroy nothing"
    assert "destroy Temple in seat 0's city" in t  # cost 1: free
    assert "destroy Castle in seat 0's city" in t  # pays 3
    assert "destroy University in seat 0's city" in t  # pays 5
    assert "destroy Keep in seat 0's city" not in t  # the Keep is immune
    play(s, "destroy University in seat 0's city")
    assert s.gold[1] == 0
    assert s.game.card_kind[s.deck[0]] == kind("universite")  # under the deck
    assert s.round == 2


def test_warlord_price_unaffordable_is_not_offered() -> None:
    s = position(chars={1: [8]}, cities={0: ["cathedrale"]}, gold={1: 1}, start=8)
    play(s, "take 2 gold", "end the turn")  # 3 gold < 4: no target, no decision
    assert s.round == 2


def test_warlord_cannot_attack_a_completed_city() -> None:
    full = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche", "prison"]
    s = position(chars={1: [8]}, cities={0: full, 2: ["temple"]}, gold={1: 9}, start=8)
    play(s, "take 2 gold", "end the turn")
    t = texts(s)
    assert not any("seat 0" in x for x in t) and "destroy Temple in seat 2's city" in t


def test_one_seat_two_characters_plays_two_turns() -> None:
    s = position(players=3, chars={0: [2, 6], 1: [4, 8], 2: [3, 5]}, variant_3p_ffg=True, gold={0: 0})
    assert s.current_player() == 0 and s.calling == 2
    play(s, "take 2 gold", "end the turn")
    assert s.current_player() == 2 and s.calling == 3
    play(s, "take 2 gold", "end the turn", "take 2 gold", "end the turn", "take 2 gold", "end the turn")
    assert s.current_player() == 0 and s.calling == 6
    assert s.gold[0] == 3  # 2 + the Merchant's 1


def test_three_player_warlord_immunity_threshold_is_ten() -> None:
    eight = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche", "prison"]
    s = position(players=3, chars={1: [8]}, cities={0: eight}, gold={1: 9}, start=8)
    play(s, "take 2 gold", "end the turn")
    assert "destroy Temple in seat 0's city" in [x for x in texts(s)]  # 8 < 10: still attackable
    s = position(players=4, chars={1: [8]}, cities={0: eight[:6]}, gold={1: 9}, start=8, quick_game="6")
    play(s, "take 2 gold", "end the turn")
    assert s.round == 2  # a complete quick-game city (6) is immune: nothing to destroy


def test_warlord_killed_does_not_destroy() -> None:
    s = position(chars={0: [1], 1: [8]}, cities={2: ["temple"]}, gold={1: 9})
    play(s, "assassinate the Warlord", "take 2 gold", "end the turn")
    assert s.round == 2 and s.cities[2]
