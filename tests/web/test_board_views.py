"""The board fragment is a new channel to a seat: it must read the same in every world the seat cannot tell apart.

Every board is rendered for each seat and a spectator from the real state and from states resampled for that seat
(``resample_from_infostate``), in English and French; the HTML must be identical. No server is needed: the page
renders exactly this (``meeple.web.render.render_board``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.i18n import translator
from meeple.web.render import render_board

GAMES = [("citadels", 4), ("capitol", 3), ("capital_lux_2", 3), ("capital_lux_2", 1), ("caprice", 3)]


def _html(state: Any, seat: int | None, lang: str) -> str:
    return render_board(state, seat, state.history_messages(-3 if seat is None else seat), translator(lang))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_seats_board_is_the_same_in_every_world_it_cannot_tell_apart(name: str, players: int) -> None:
    state = load_game(name, players=players).new_initial_state(4)
    rng = Rng(4)
    checked = 0
    step = 0
    while not state.is_terminal():
        if step % 9 == 0:
            for seat in range(players):
                world = state.resample_from_infostate(seat, rng.fork())
                for lang in ("en", "fr"):
                    assert _html(world, seat, lang) == _html(state, seat, lang), f"{name} seat {seat} step {step}"
                checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    assert checked >= 5


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_legal_move_is_offered_with_its_code(name: str, players: int) -> None:
    state = load_game(name, players=players).new_initial_state(6)
    rng = Rng(6)
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.current_player()
        html = _html(state, seat, "en")
        for code in state.legal_action_codes():
            assert f'data-action-code="{code}"' in html
        other = (seat + 1) % players
        if other != seat:
            assert "data-action-code" not in _html(state, other, "en")
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


def _board_without_the_list(html: str) -> str:
    start = html.index('<details class="moves"')
    return html[:start] + html[html.index("</details>", start) :]


CONFIGURATIONS = [
    ("citadels", {"players": 3}),
    ("citadels", {"players": 2, "variant_2p_ffg": True}),
    ("citadels", {"players": 6}),
    ("capitol", {"players": 2}),
    ("capitol", {"players": 4}),
    ("capital_lux_2", {"players": 1}),
    ("capital_lux_2", {"players": 3}),
    ("caprice", {"players": 2}),
    ("caprice", {"players": 3}),
]


@pytest.mark.parametrize(("name", "params"), CONFIGURATIONS)
def test_every_legal_move_is_on_the_board_itself_not_only_in_the_list(name: str, params: dict[str, Any]) -> None:
    """Through whole games, every legal code is an element of the board drawing (the move list is a fallback)."""
    missing: dict[str, set[str]] = {}
    for seed in (1, 2):
        state = load_game(name, **params).new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.current_player()
            board = _board_without_the_list(_html(state, seat, "en"))
            legal = state.legal_actions()
            for action in legal:
                code = state.game.codec.encode(action)
                if f'data-action-code="{code}"' not in board:
                    missing.setdefault(action.type_name, set()).add(state.action_to_string(action, seat))
            state.apply_action(legal[rng.randrange(len(legal))])
    assert not missing, missing


@pytest.mark.parametrize(
    ("lang", "words", "italian"),
    [
        ("en", ("Zone 1", "blue", "pink", "mauve"), "Italian rulebook, board: blue = blue, pink = white, mauve = red"),
        (
            "fr",
            ("Zone 1", "bleu", "rose", "mauve"),
            "règle italienne, plateau\u202f: bleu = bleu, rose = blanc, mauve = rouge",
        ),
    ],
)
def test_capitol_zones_carry_their_colour_word_and_the_rulebooks_legend(
    lang: str, words: tuple[str, ...], italian: str
) -> None:
    """Issue "Comfort": the zone colour labels match the rulebooks' colours (capitol.md §1; docs/decisions.md); issue
    #43 item 8: in words a player reads ("Zone 1", "blue"), never the ids ``Z1``/``C1``, the legend included."""
    html = _html(load_game("capitol", players=2).new_initial_state(1), 0, lang)
    for word in words:
        assert word in html
    legend = html.split('class="colour-legend"')[1].split("</details>")[0]
    assert legend.count("<li>") == 2
    assert italian in legend
    visible = re.sub(r"<[^>]+>", " ", html)
    assert not re.findall(r"\b[ZC]\d\b", visible)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_the_end_screen_shows_only_at_the_end_and_reads_the_same_in_every_world(name: str, players: int) -> None:
    """The results (#results, the revealed symbols, every round's scoring) are a new channel: none before the end
    (a game still running for the others shows nobody's secrets), and at the end each seat's end screen is the same
    in every world it cannot tell apart, in both languages."""
    state = load_game(name, players=players).new_initial_state(7)
    rng = Rng(7)
    step = 0
    while not state.is_terminal():
        if step % 5 == 0:
            for seat in [*range(players), None]:
                assert 'id="results"' not in _html(state, seat, "en"), f"{name} step {step}"
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        step += 1
    for seat in range(players):
        html = _html(state, seat, "en")
        assert 'id="results"' in html and 'table class="breakdown' in html
        for lang in ("en", "fr"):
            world = state.resample_from_infostate(seat, rng.fork())
            assert _html(world, seat, lang) == _html(state, seat, lang), f"{name} seat {seat} at the end"


def test_clickable_moves_are_named_by_their_words_and_seats_count_from_one() -> None:
    """Every data-action-code element carries its move's words as aria-label and title (issue #33 item 2)."""
    state = load_game("citadels", players=4).new_initial_state(3)
    rng = Rng(3)
    for _ in range(60):
        seat = state.current_player()
        html = _html(state, seat, "fr")
        tags = re.findall(r"<[a-z]+[^>]*data-action-code=[^>]*>", html)
        assert tags and all('aria-label="' in t and 'title="' in t for t in tags), tags[:2]
        assert "Place 0" not in html and "(#" not in html
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "players"), [("capital_lux_2", 3), ("capital_lux_2", 2), ("citadels", 4)])
def test_every_badge_shows_a_running_score_from_the_public_table(name: str, players: int) -> None:
    """Issue #33 items 1 and 6: a running score in every seat's badge (Capital Lux 2: City values + 2 per gold, the
    face-down Bonus pile only counted; Citadels: the points of the public cities) and the round in the turn bar.
    That it reads the same in every world a seat cannot tell apart is the first test of this module."""
    state = load_game(name, players=players).new_initial_state(2)
    rng = Rng(2)
    for step in range(200):
        if state.is_terminal():
            break
        if step % 7 == 0:
            obs = state.observation(None)
            for seat in (0, None):
                html = _html(state, seat, "en")
                assert re.search(r'class="round-phase"><span>Round \d', html)
                badges = re.findall(r'<li class="badge[^"]*" data-seat="(\d)"[^>]*>(.*?)</li>', html, re.S)
                assert len(badges) == players
                for s, badge in badges:
                    if name == "citadels":
                        points = obs["scores"][int(s)]["total"]
                    else:
                        districts = obs["cities"][int(s)]["districts"]
                        points = sum(c["value"] for d in districts for c in d) + 2 * obs["gold"][int(s)]
                        bonus = obs["bonus_counts"][int(s)]
                        assert (f"{bonus} Bonus card" in badge) == (bonus > 0), badge
                    assert re.search(rf'class="fact">{points} points?[ <]', badge), (s, points, badge)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_caprice_moves_and_log_name_pieces_in_words_not_codes(lang: str) -> None:
    """The terminal types ``LR``; the web board's moves and log say "light round" / "clair rond" (issue #33 item 3)."""
    state = load_game("caprice", players=3).new_initial_state(2)
    rng = Rng(2)
    for _ in range(12):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    html = _html(state, state.current_player(), lang)
    words = ("light round", "dark toothed") if lang == "en" else ("clair rond", "noir dentelé")
    assert any(w in html for w in words)
    visible = re.sub(r"<[^>]+>", " ", html)
    assert not re.search(r"\b(place|poser) (DR|DT|LR|LT)\b", visible), re.findall(
        r".{20}\b(?:DR|DT|LR|LT)\b.{10}", visible
    )
