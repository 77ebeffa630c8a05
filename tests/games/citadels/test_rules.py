"""Unit tests of the pure rule functions (citadels.md §5.2 rules 9, 17, 20-22)."""

from __future__ import annotations

from meeple.games.citadels import rules
from meeple.games.citadels.data import KIND_INDEX, deck_kinds

K = KIND_INDEX


def ks(*keys: str) -> list[int]:
    return [K[k] for k in keys]


def test_income_by_colour_and_school_of_magic() -> None:
    city = ks("temple", "eglise", "manoir", "taverne", "prison", "ecole_de_magie")
    assert rules.income(city, 4) == 2  # King: Manor + School
    assert rules.income(city, 5) == 3  # Bishop
    assert rules.income(city, 6) == 2  # Merchant
    assert rules.income(city, 8) == 2  # Warlord
    assert rules.income(city, 1) == 0 and rules.income(city, 7) == 0


def test_destroy_price() -> None:
    assert rules.destroy_price(K["temple"], False) == 0
    assert rules.destroy_price(K["chateau"], False) == 3
    assert rules.destroy_price(K["universite"], False) == 5
    assert rules.destroy_price(K["dracoport"], False) == 5
    assert rules.destroy_price(K["chateau"], True) == 4
    assert rules.destroy_price(K["grande_muraille"], True) == 5


def test_five_colours() -> None:
    assert rules.has_five_colours(ks("temple", "manoir", "taverne", "prison", "donjon"), True)
    assert not rules.has_five_colours(ks("temple", "manoir", "taverne", "prison"), True)
    assert rules.has_five_colours(ks("temple", "manoir", "taverne", "donjon", "cour_des_miracles"), True)
    assert not rules.has_five_colours(ks("temple", "manoir", "taverne", "donjon", "cour_des_miracles"), False)
    assert rules.has_five_colours(ks("temple", "manoir", "taverne", "prison", "cour_des_miracles"), False)
    assert not rules.has_five_colours(ks("temple", "manoir", "taverne", "ecole_de_magie"), True)


def test_score_city_bonuses() -> None:
    city = ks("temple", "manoir", "taverne", "prison", "donjon", "universite", "dracoport", "cathedrale")
    first = rules.score_city(city, first=True, threshold=8, haunted_city_counts=True)
    assert first.to_json() == {"districts": 31, "five_colours": 3, "first_complete": 4, "complete": 0, "total": 38}
    other = rules.score_city(city, first=False, threshold=8, haunted_city_counts=True)
    assert other.total == 36 and other.complete == 2
    short = rules.score_city(city, first=False, threshold=10, haunted_city_counts=True)
    assert short.total == 34 and short.complete == 0


def test_winners() -> None:
    assert rules.winners([10, 12, 12], [10, 9, 12], [0, 0, 0]) == [2]
    assert rules.winners([12, 12], [12, 12], [3, 1]) == [0]
    assert rules.winners([12, 12], [12, 12], [3, 3]) == [0, 1]


def test_deck_profiles() -> None:
    fr1 = deck_kinds("fr1", False)
    en = deck_kinds("en", False)
    assert fr1.count(K["eglise"]) == 4 and fr1.count(K["palais"]) == 2
    assert en.count(K["eglise"]) == 3 and en.count(K["palais"]) == 3
    assert K["grande_muraille"] not in en and deck_kinds("en", True).count(K["grande_muraille"]) == 1
