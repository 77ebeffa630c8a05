"""Audit: what a human reads in the terminal (renderer hints, pending decisions, no hidden card)."""

from __future__ import annotations

from rich.console import Console

from meeple.cli.moves import Moves, Problem, interpret
from meeple.cli.render.capitol import parse_input, render
from tests.games.capitol.helpers import do, fresh, names, set_hand, texts
from tests.games.capitol.test_improvement import to_auction


def show(obs: dict, seat: int | None) -> str:  # type: ignore[type-arg]
    console = Console(width=100, record=True)
    console.print(render(obs, seat))
    return console.export_text()


def test_bid_hint_only_for_the_bidder_and_typed_bid_is_played() -> None:
    s = fresh(3)
    set_hand(s, 0, ["floor3", "floor5", "roof7", "permitC1-6"])  # one card of each value: "5" is floor5
    to_auction(s)
    assert "bid 3 5 7" in show(s.observation(0), 0)
    assert "bid 3 5 7" not in show(s.observation(1), 1)
    parsed = interpret("bid 3 5 7", texts(s), parse_input)
    assert isinstance(parsed, Moves)
    for t in parsed.texts:
        do(s, t)
    assert names(s.bids.values[0]) == ["floor3", "floor5", "roof7"] and s.to_move == 1
    for seat in (1, 2, None):
        panel = show(s.observation(seat), seat).split("Improvement")[1].split("Your hand")[0]
        assert "floor3" not in panel and "roof7" not in panel and "P0: sealed" in panel


def test_pending_tile_reads_as_a_sentence_and_no_draft_line() -> None:
    s = fresh(2)
    to_auction(s)
    do(s, "seal the bid", "seal the bid")
    obs = s.observation(0)
    assert obs["auction"]["my_draft"] is None
    text = show(obs, 0)
    assert "P0 must now place the fountain just won on a free small space" in text
    assert "your bid so far" not in text


def test_known_cards_grouped() -> None:
    s = fresh(2)
    set_hand(s, 1, ["floor5", "floor5", "roof1"])
    s.known[1] = [c for c in s.hands[1] if names([c]) == ["floor5"]]
    assert "floor5 x2" in show(s.observation(0), 0)


def test_parse_input_stop_and_values_of_several_kinds() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor5", "permitC1-5", "roof2"])
    to_auction(s)
    legal = texts(s)
    assert parse_input("bid stop", legal) == ["seal the bid"]
    assert parse_input("bid 5 5", legal) == ["bid: add floor5", "bid: add permitC1-5", "seal the bid"]


def test_a_value_shared_by_two_kinds_is_not_guessed() -> None:
    """Issue "Comfort": ``bid 4`` with a roof 4 and a floor 4 asks which one (it used to take the roof silently)."""
    s = fresh(2)
    set_hand(s, 0, ["floor4", "roof4", "floor6"])
    to_auction(s)
    legal = texts(s)
    problem = interpret("bid 4", legal, parse_input)
    assert isinstance(problem, Problem)
    assert "ambiguous" in problem.message and "floor4" in problem.message and "roof4" in problem.message
    assert sorted(parse_input("bid 4 4", legal) or []) == ["bid: add floor4", "bid: add roof4", "seal the bid"]
    assert parse_input("bid 6", legal) == ["bid: add floor6", "seal the bid"]
    assert parse_input("bid roof4", legal) == ["bid: add roof4", "seal the bid"]


def test_zone_colours_are_named_as_each_rulebook_names_them() -> None:
    """Issue "Comfort": a zone shows its group and the French board's word; the legend gives each rulebook's names,
    with the Italian rulebook's blue and white in different groups and its red a zone colour (capitol.md §1)."""
    text = show(fresh(2).observation(0), 0)
    zone_rows = [line for line in text.splitlines() if line.lstrip("│ ").startswith("Z")]
    assert len(zone_rows) == 9
    assert {word for row in zone_rows for word in ("C1 blue", "C2 pink", "C3 mauve") if word in row} == {
        "C1 blue",
        "C2 pink",
        "C3 mauve",
    }
    assert "French rulebook, board: C1 blue, C2 pink, C3 mauve" in text
    assert "Italian rulebook, board: C1 blue, C2 white, C3 red" in text
    assert "French rulebook, permit cards: C1 black, C2 white, C3 red" in text


def test_zone_colours_in_french() -> None:
    from meeple.i18n.translator import language

    with language("fr"):
        text = show(fresh(2).observation(0), 0)
    assert "C2 rose" in text and "règle italienne, plateau\u202f: C1 bleu, C2 blanc, C3 rouge" in text


def test_tile_counts_agree_in_number() -> None:
    """Issue "Comfort": "1 amphitheatre", not "1 amphitheatres"."""
    obs = fresh(2).observation(0)
    obs["tiles_supply"] |= {"fountain": 1, "amphitheatre": 1, "temple": 0}
    head = " ".join(show(obs, 0).split("Board")[0].split())
    assert "tiles left: 1 fountain, 1 amphitheatre, 0 temples" in head
