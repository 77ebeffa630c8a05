"""The evaluation protocol: paired, seat-rotated deals, win share with a Wilson interval, mean score and margin."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.arena.evaluate import evaluate, evaluate_lineups, summary_line
from meeple.arena.match import play_match
from meeple.arena.ratings import wilson
from meeple.bots import make_bot
from meeple.core.errors import InvalidParameterError
from meeple.core.rewards import final_rewards
from meeple.core.rng import derive_seed
from meeple.core.view import SeatView


def test_every_deal_is_played_once_per_seat_and_the_numbers_add_up() -> None:
    result = evaluate("heuristic", "caprice", "random", deals=4, seed=10, players=3)
    assert result.games == 12 and result.deals == 4 and result.fair_share == pytest.approx(1 / 3)
    wins, scores = [], []
    for deal in range(10, 14):
        for seat in range(3):
            bots = [
                make_bot("heuristic" if s == seat else "random", "caprice", derive_seed(deal, "bot", s))
                for s in range(3)
            ]
            state = play_match("caprice", {"players": 3}, deal, bots).final_state
            wins.append(final_rewards(state, "win")[seat])
            scores.append(state.scores()[seat])
    assert result.win_share == pytest.approx(sum(wins) / 12)
    assert (result.low, result.high) == pytest.approx(wilson(sum(wins), 12))
    assert result.mean_score == pytest.approx(sum(scores) / 12)
    assert "of 12 games against random (fair share 33.3%)" in summary_line(result)


def test_a_policy_function_is_evaluated_reproducibly_and_a_solo_game_against_the_game() -> None:
    def last(view: SeatView) -> Any:
        return view.legal_actions()[-1]

    a = evaluate(last, "citadels", "random", deals=2, seed=1, players=3)
    b = evaluate(last, "citadels", "random", deals=2, seed=1, players=3)
    assert a == b and a.policy == "last"
    solo = evaluate_lineups("random", "capital_lux_2", ("random", "heuristic"), deals=2, players=1)
    assert len(solo) == 1 and solo[0].opponent is None and solo[0].fair_share is None
    assert "against the game" in summary_line(solo[0])


def test_bad_inputs_are_refused_before_any_game() -> None:
    with pytest.raises(InvalidParameterError, match="unknown bot"):
        evaluate("random", "caprice", "grandmaster", deals=1)
    with pytest.raises(InvalidParameterError, match="deals must be at least 1"):
        evaluate("random", "caprice", "random", deals=0)
