"""Variant flags written as options (--config B, --provisional-powers) and the solo summary of simulate."""

from __future__ import annotations

from meeple.arena.simulate import play_one, summarize
from tests.cli.conftest import Cli


def test_variant_flags_are_options(cli: Cli) -> None:
    result = cli(["simulate", "citadels", "-n", "2", "--quick-game", "7", "--killed-king-takes-crown"])
    assert "2 games" in result.output
    refused = cli(["simulate", "capital_lux_2", "--players", "2", "-n", "1", "--config", "B"], code=2)
    assert "provisional" in refused.output and "--provisional-powers" in refused.output
    accepted = cli(["simulate", "capital_lux_2", "--players", "2", "-n", "1", "--config", "B", "--provisional-powers"])
    assert "1 games" in accepted.output
    off = cli(["simulate", "capital_lux_2", "-n", "1", "--config=B", "--no-provisional-powers"], code=2)
    assert "provisional" in off.output


def test_unknown_option_is_explained(cli: Cli) -> None:
    result = cli(["simulate", "caprice", "-n", "1", "--colour", "red"], code=2)
    assert "no parameter 'colour'" in result.output and "third_symbol_exchange" in result.output
    stray = cli(["simulate", "caprice", "-n", "1", "extra"], code=2)
    assert "unexpected argument 'extra'" in stray.output


def test_solo_summary_reports_margin_and_rating(cli: Cli) -> None:
    outcome = play_one("capital_lux_2", {"players": 1}, 3, ["heuristic"])
    assert outcome.solo is not None
    margin, rating, scale = outcome.solo
    assert scale[0] == "lost" and scale[-1] == "world class" and rating in scale
    assert (rating == "lost") == (margin < 0)
    summary = summarize([outcome], ["heuristic"])
    assert summary.solo_margins == [margin] and summary.solo_ratings[rating] == 1
    assert list(summary.solo_ratings) == list(scale)
    result = cli(["simulate", "capital_lux_2", "--players", "1", "-n", "4"])
    assert "Solo: mean margin" in result.output and "world class" in result.output
    assert "95% interval of the mean" in result.output and "lost to the game-run opponent" in result.output
    multi = cli(["simulate", "capital_lux_2", "--players", "2", "-n", "1"])
    assert "Solo" not in multi.output and "no winner" in multi.output


def test_solo_play_ends_with_the_margin_and_rating(cli: Cli) -> None:
    result = cli(["play", "capital_lux_2", "--players", "1", "--seed", "3"], input="1\n" * 400)
    assert "ROB wins: margin" in result.output or "You win: margin" in result.output
    assert "rating:" in result.output and "Winner: nobody" not in result.output


def test_bench_measures_a_game_against_the_baseline(cli: Cli) -> None:
    result = cli(["bench", "caprice", "--seconds", "0.2"])
    assert "baseline" in result.output and "caprice" in result.output
    cli(["bench", "chess", "--seconds", "0.2"], code=2)


def test_bench_times_a_bots_moves(cli: Cli) -> None:
    result = cli(["bench", "caprice", "--players", "2", "--bot", "ismcts:20", "--moves", "3"])
    assert "Seconds per move of ismcts:20" in result.output and "caprice" in result.output
    cli(["bench", "caprice", "--bot", "genius", "--moves", "3"], code=2)


def test_measure_move_time_counts_only_real_choices() -> None:
    from meeple.bench import measure_move_time

    r = measure_move_time("capital_lux_2", 1, "ismcts:10:rollout=policy", max_moves=4, seed=2)
    assert r.moves == 4 and 0.0 < r.mean_s <= r.max_s and r.p90_s <= r.max_s
    assert r.bot == "ismcts:10:rollout=policy" and r.players == 1


def test_bot_specs_are_printed_verbatim_not_as_emoji(cli: Cli) -> None:
    result = cli(["simulate", "caprice", "--players", "2", "-n", "1", "--bots", "ismcts:100:c=0.5,random"])
    assert "ismcts:100:c=0.5" in result.output and "\N{HUNDRED POINTS SYMBOL}" not in result.output


def test_the_play_header_names_the_variant_flags_in_words() -> None:
    from meeple import load_game
    from meeple.cli.common import variant_words

    words = variant_words(load_game("citadels", players=4, deck="en", great_wall=True, quick_game="7"))
    assert words == "quick game: 7; deck: en; great wall: yes"
    assert "{" not in variant_words(load_game("capital_lux_2", players=3, agent_modifiers="4,2,-1,-1"))
    assert variant_words(load_game("caprice")).startswith("none")
