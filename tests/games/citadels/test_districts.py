"""Scenario tests: the purple districts and the district rulings (citadels.md §5.2 rules 7, 8, 18-20, 23)."""

from __future__ import annotations

import pytest

from meeple.core import IllegalActionError
from meeple.games.citadels.actions import BuildDistrict
from meeple.games.citadels.state import D_GRAVEYARD, D_KEEP

from .helpers import card_total, kind, play, position, texts


def test_draw_two_keep_one_the_other_under_the_deck() -> None:
    s = position(chars={0: [6]}, start=6)
    top = s.deck[-2:]
    total = card_total(s)
    play(s, "draw cards")
    assert s.stack[-1].kind == D_KEEP and set(s.stack[-1].data[0]) == set(top)
    assert card_total(s) == total
    keep = texts(s)[0]
    play(s, keep)
    assert len(s.hands[0]) == 1 and s.deck[0] in top and s.hands[0][0] in top
    # the drawn cards are shown only to the drawer
    assert s.observation(1)["pending"] is None


def test_drawn_cards_are_private_while_choosing() -> None:
    s = position(chars={0: [6]}, start=6)
    play(s, "draw cards")
    assert "cards" in s.observation(0)["pending"]
    other = s.observation(1)["pending"]
    assert "cards" not in other and other["count"] == 2
    assert s.action_to_string(s.legal_actions()[0], perspective=1, actor=0) == "keep a card"


def test_observatory_draws_three_keeps_one() -> None:
    s = position(chars={0: [6]}, cities={0: ["observatoire"]}, start=6)
    play(s, "draw cards")
    assert len(s.stack[-1].data[0]) == 3 and s.stack[-1].data[1] == 1
    play(s, texts(s)[0])
    assert len(s.hands[0]) == 1 and not s.stack


def test_library_keeps_both() -> None:
    s = position(chars={0: [6]}, cities={0: ["bibliotheque"]}, start=6)
    play(s, "draw cards")
    assert not s.stack and len(s.hands[0]) == 2


def test_library_and_observatory_draw_three_keep_two() -> None:
    s = position(chars={0: [6]}, cities={0: ["bibliotheque", "observatoire"]}, start=6)
    bottom = len(s.deck) - 3
    play(s, "draw cards")
    assert s.stack[-1].data[1] == 2
    play(s, texts(s)[0])
    assert s.stack[-1].data[1] == 1 and len(s.stack[-1].data[0]) == 2
    play(s, texts(s)[0])
    assert len(s.hands[0]) == 2 and len(s.deck) == bottom + 1


def test_deck_exhaustion_draw_not_offered_and_partial_draws() -> None:
    s = position(chars={0: [6]}, start=6)
    s.deck = []
    s.edited()
    assert "draw cards" not in texts(s) and "take 2 gold" in texts(s)
    s = position(chars={0: [6]}, start=6)
    s.deck = s.deck[-1:]
    s.edited()
    play(s, "draw cards")  # one card only: kept, no choice
    assert len(s.hands[0]) == 1 and not s.stack and s.deck == []


def test_build_only_after_the_mandatory_action_and_no_duplicates() -> None:
    s = position(chars={0: [6]}, hands={0: ["temple", "temple", "port"]}, cities={0: ["temple"]}, gold={0: 9}, start=6)
    assert not any(t.startswith("build") for t in texts(s))
    assert "end the turn" not in texts(s)
    play(s, "take 2 gold")
    assert [t for t in texts(s) if t.startswith("build")] == ["build Harbor"]
    with pytest.raises(IllegalActionError):
        s.apply_action(BuildDistrict(kind("temple")))


def test_cannot_build_what_you_cannot_pay() -> None:
    s = position(chars={0: [4]}, hands={0: ["cathedrale", "temple"]}, gold={0: 2}, start=4)
    play(s, "take 2 gold")
    assert [t for t in texts(s) if t.startswith("build")] == ["build Temple"]  # 4 gold < 5


def test_architect_draws_what_is_left_when_the_deck_is_short() -> None:
    s = position(chars={0: [6], 1: [7]}, start=6)
    s.deck = s.deck[-1:]
    play(s, "take 2 gold", "end the turn")
    assert len(s.hands[1]) == 1 and s.deck == []


def test_building_beyond_the_threshold_is_allowed() -> None:
    eight = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche", "prison"]
    s = position(chars={0: [7]}, cities={0: eight}, hands={0: ["port", "caserne"]}, gold={0: 20}, start=7)
    play(s, "take 2 gold", "build Harbor", "build Battlefield")
    assert len(s.cities[0]) == 10


def test_laboratory_discards_under_the_deck_for_one_gold_once() -> None:
    s = position(chars={0: [6]}, cities={0: ["laboratoire"]}, hands={0: ["port"]}, gold={0: 0}, start=6)
    card = s.hands[0][0]
    assert "discard Harbor to the Laboratory for 1 gold" in texts(s)  # also before the mandatory action
    play(s, "discard Harbor to the Laboratory for 1 gold")
    assert s.gold[0] == 2 and s.deck[0] == card and s.hands[0] == []
    assert s.action_to_string(s.history[-1][1], perspective=2, actor=0) == "discard a card to the Laboratory for 1 gold"
    s.hands[0].append(s.deck.pop())
    s.edited()
    assert not any("Laboratory" in t for t in texts(s))


def test_smithy_pays_three_and_draws_three_once() -> None:
    s = position(chars={0: [4]}, cities={0: ["manufacture"]}, gold={0: 0}, start=4)
    assert "use the Smithy: pay 3 gold, draw 3 cards" not in texts(s)  # 0 gold
    play(s, "take 2 gold")
    assert "use the Smithy: pay 3 gold, draw 3 cards" not in texts(s)  # 2 gold
    s.gold[0] = 4
    s.edited()
    play(s, "use the Smithy: pay 3 gold, draw 3 cards")
    assert s.gold[0] == 1 and len(s.hands[0]) == 3
    s.gold[0] = 5
    s.edited()
    assert "use the Smithy: pay 3 gold, draw 3 cards" not in texts(s)


def test_graveyard_owner_pays_one_to_take_the_destroyed_district() -> None:
    s = position(chars={1: [8]}, cities={0: ["cimetiere"], 2: ["chateau"]}, gold={0: 1, 1: 9}, start=8)
    castle = s.cities[2][0]
    play(s, "take 2 gold", "end the turn", "destroy Castle in seat 2's city")
    assert s.stack[-1].kind == D_GRAVEYARD and s.current_player() == 0
    assert s.observation(3)["pending"]["district"]["name"] == "Castle"
    play(s, "pay 1 gold to take the destroyed district (Graveyard)")
    assert castle in s.hands[0] and s.gold[0] == 0 and s.gold[1] == 8


def test_graveyard_decline_sends_the_district_under_the_deck() -> None:
    s = position(chars={1: [8]}, cities={0: ["cimetiere"], 2: ["chateau"]}, gold={0: 1, 1: 9}, start=8)
    castle = s.cities[2][0]
    play(s, "take 2 gold", "end the turn", "destroy Castle in seat 2's city")
    play(s, "let the destroyed district go (Graveyard)")
    assert s.deck[0] == castle


@pytest.mark.parametrize(
    "cities, gold0, target",
    [
        ({1: ["cimetiere"], 2: ["chateau"]}, 1, "destroy Castle in seat 2's city"),  # the owner is the Warlord
        ({0: ["cimetiere"], 2: ["chateau"]}, 0, "destroy Castle in seat 2's city"),  # no gold
        ({0: ["cimetiere"]}, 1, "destroy Graveyard in seat 0's city"),  # cannot save itself
    ],
)
def test_graveyard_not_offered(cities: dict[int, list[str]], gold0: int, target: str) -> None:
    s = position(chars={1: [8]}, cities=cities, gold={0: gold0, 1: 9}, start=8)
    play(s, "take 2 gold", "end the turn", target)
    assert not s.stack and s.round == 2


def test_great_wall_makes_other_districts_cost_one_more() -> None:
    s = position(
        chars={1: [8]},
        cities={0: ["grande_muraille", "chateau", "temple"]},
        gold={1: 2},
        start=8,
        deck="en",
        great_wall=True,
    )
    play(s, "take 2 gold", "end the turn")  # 4 gold
    t = texts(s)
    assert "destroy Castle in seat 0's city" in t  # 3 + 1 = 4
    assert "destroy Temple in seat 0's city" in t  # 0 + 1 = 1
    assert "destroy Great Wall in seat 0's city" not in t  # itself: 5 > 4
    play(s, "destroy Castle in seat 0's city")
    assert s.gold[1] == 0


def test_haunted_city_counts_as_any_colour_unless_built_in_the_last_round() -> None:
    no_red = ["temple", "manoir", "taverne", "donjon"]
    s = position(chars={0: [6]}, cities={0: [*no_red, "cour_des_miracles"]}, start=6)
    s.round = 3
    assert s.score_breakdowns()[0].five_colours == 3
    haunted = s.cities[0][-1]
    s.built_round[haunted] = 3
    assert s.score_breakdowns()[0].five_colours == 0


def test_haunted_city_built_in_the_final_round_by_play() -> None:
    seven = ["temple", "manoir", "taverne", "prison", "eglise", "chateau", "marche"]
    s = position(chars={0: [6]}, cities={0: seven}, hands={0: ["cour_des_miracles"]}, gold={0: 5}, start=6)
    play(s, "take 2 gold", "build Haunted City", "end the turn")
    assert s.is_terminal()
    assert s.score_breakdowns()[0].five_colours == 3  # the four colours + purple (the Haunted City itself)
    no_red = ["temple", "manoir", "taverne", "eglise", "chateau", "marche", "port"]
    s2 = position(chars={0: [6]}, cities={0: no_red}, hands={0: ["cour_des_miracles"]}, gold={0: 5}, start=6)
    play(s2, "take 2 gold", "build Haunted City", "end the turn")
    assert s2.is_terminal() and s2.score_breakdowns()[0].five_colours == 0  # cannot stand in for red
    keep = ["temple", "manoir", "taverne", "donjon"]
    s3 = position(chars={0: [6]}, cities={0: [*keep, "cour_des_miracles"]}, gold={0: 5}, start=6)
    s3.round = 2
    assert s3.score_breakdowns()[0].five_colours == 3  # built earlier: stands in for red (the Keep is purple)


def test_school_of_magic_is_purple_for_the_bonus() -> None:
    s = position(chars={0: [6]}, cities={0: ["temple", "manoir", "taverne", "ecole_de_magie"]}, start=6)
    assert s.score_breakdowns()[0].five_colours == 0


def test_university_and_dracoport_cost_six_score_eight() -> None:
    s = position(chars={0: [4]}, hands={0: ["universite"]}, gold={0: 4}, start=4)
    play(s, "take 2 gold", "build University")
    assert s.gold[0] == 0 and s.score_breakdowns()[0].districts == 8
