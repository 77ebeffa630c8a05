from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from meeple.arena.simulate import GameOutcome, play_one, run_games, summarize
from meeple.core.records import read_records
from tests.cli.conftest import Cli


def outcome(returns: tuple[float, ...], scores: tuple[float, ...], decisions: int = 10, rounds: int | None = None):
    return GameOutcome(seed=0, returns=returns, scores=scores, decisions=decisions, rounds=rounds)


def test_winners_count_every_tied_winner() -> None:
    assert outcome((0.0, 1.0, 0.0), (1, 5, 2)).winners() == [1]
    assert outcome((1.0, 1.0, 0.0), (5, 5, 2)).winners() == [0, 1]
    assert outcome((0.0, 0.0), (0, 0)).winners() == []


def test_summarize_counts_shared_wins_per_seat_and_per_bot() -> None:
    outcomes = [
        outcome((1.0, 0.0, 0.0), (9, 3, 3), decisions=10, rounds=4),
        outcome((1.0, 1.0, 0.0), (7, 7, 1), decisions=20, rounds=6),
        outcome((0.0, 0.0, 1.0), (2, 4, 8), decisions=30, rounds=5),
    ]
    summary = summarize(outcomes, ["heuristic", "random", "heuristic"], seconds=2.0)
    assert summary.games == 3 and summary.ties == 1 and summary.no_winner == 0
    assert [s.wins for s in summary.seats] == [2, 1, 1]
    assert [s.shared_wins for s in summary.seats] == [1, 1, 0]
    assert summary.seats[0].mean_score == pytest.approx(6.0)
    heuristic, random = summary.bots["heuristic"], summary.bots["random"]
    assert (heuristic.games, heuristic.wins, heuristic.shared_wins) == (6, 3, 1)
    assert heuristic.mean_score == pytest.approx((9 + 3 + 7 + 1 + 2 + 8) / 6)
    assert (random.games, random.wins) == (3, 1)
    assert random.win_rate == pytest.approx(1 / 3)
    assert summary.mean_decisions == pytest.approx(20.0)
    assert summary.mean_rounds == pytest.approx(5.0)
    assert summary.games_per_second == pytest.approx(1.5)


def test_mean_rounds_is_omitted_when_the_game_has_no_round() -> None:
    summary = summarize([outcome((1.0, 0.0), (2, 1))], ["random", "random"])
    assert summary.mean_rounds is None and summary.games_per_second == 0.0


def test_run_games_is_independent_of_jobs() -> None:
    one = run_games("toy_auction", {"players": 3}, ["random"] * 3, 12, base_seed=5, jobs=1)
    two = run_games("toy_auction", {"players": 3}, ["random"] * 3, 12, base_seed=5, jobs=2, chunk_size=5)
    assert one == two
    assert [o.seed for o in one] == list(range(5, 17))
    assert one[3] == play_one("toy_auction", {"players": 3}, 8, ["random"] * 3)


def test_run_games_reports_every_game_as_it_finishes() -> None:
    for jobs, chunk in ((1, None), (2, 3)):
        batches: list[list[GameOutcome]] = []
        out = run_games(
            "toy_auction", {"players": 3}, ["random"] * 3, 10, 5, jobs, on_progress=batches.append, chunk_size=chunk
        )
        assert sorted(o.seed for batch in batches for o in batch) == list(range(5, 15))
        assert max(len(batch) for batch in batches) == (1 if jobs == 1 else 3)
        assert sorted((o for batch in batches for o in batch), key=lambda o: o.seed) == out


def _numbers(output: str) -> str:
    return "\n".join(line for line in output.splitlines() if not line.startswith(("Speed:", "simulated ")))


def test_simulate_summary_is_the_same_for_any_jobs(cli: Cli) -> None:
    args = ["simulate", "toy_auction", "-n", "20", "--players", "3", "--bots", "random", "--seed", "7"]
    one = cli([*args, "--jobs", "1"]).output
    two = cli([*args, "--jobs", "2"]).output
    assert _numbers(one) == _numbers(two)
    for fragment in ("20 games", "seat 0", "seat 2", "all seats", "win %", "mean score", "Shared wins (ties)"):
        assert fragment in one
    assert "decisions" in one and "games/s" in one
    assert "rounds" not in one  # the toy game has no round number


def test_simulate_cycles_bots_and_records(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "sim.jsonl"
    out = cli(["simulate", "toy_auction", "-n", "4", "--players", "3", "--record", str(path)]).output
    assert "random, random, random" in out
    assert "Saved 4 game records" in out
    records = list(read_records(path))
    assert [r.seed for r in records] == [0, 1, 2, 3]
    for record in records:
        final = record.replay()
        assert final.is_terminal() and final.returns() == record.returns
        assert record.players == ["random"] * 3


def test_simulate_bad_options(cli: Cli) -> None:
    assert "non-negative" not in cli(["simulate", "toy_auction", "-n", "0"], code=2).output  # typer's own check
    out = cli(["simulate", "toy_auction", "--variant", "coins=lots"], code=2).output
    assert "parameter 'coins' cannot be 'lots'" in out


def test_simulate_prints_progress_lines_when_not_on_a_terminal(cli: Cli) -> None:
    out = cli(["simulate", "toy_auction", "-n", "20", "--players", "3", "--seed", "1"]).output
    lines = [line for line in out.splitlines() if line.startswith("simulated ")]
    assert [line.split(" games")[0] for line in lines] == [f"simulated {2 * k}/20" for k in range(1, 11)]


def test_simulate_bad_record_path_fails_before_playing(cli: Cli, tmp_path: Path) -> None:
    result = cli(["simulate", "toy_auction", "-n", "3", "--record", str(tmp_path / "no" / "sim.jsonl")], code=2)
    assert "cannot write the records to" in result.output and "sim.jsonl" in result.output
    assert "simulated" not in result.output


def test_simulate_keeps_the_records_of_games_finished_before_an_interruption(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = {s: play_one("toy_auction", {"players": 3}, s, ["random"] * 3, keep_record=True) for s in range(10, 15)}

    def interrupted(*args: object, on_progress: Any, **kwargs: object) -> list[GameOutcome]:
        on_progress([games[11], games[13]])  # out of seed order, as workers finish
        on_progress([games[10]])
        raise KeyboardInterrupt

    monkeypatch.setattr("meeple.cli.simulate.run_games", interrupted)
    path = tmp_path / "sim.jsonl"
    args = ["simulate", "toy_auction", "-n", "5", "--players", "3", "--seed", "10", "--record", str(path)]
    out = cli(args, code=130).output
    assert "interrupted after 3 of 5 games" in out
    assert "the records of seeds 10..11 (2 games) are saved in" in out
    assert [r.seed for r in read_records(path)] == [10, 11]  # 13 waits for 12, which never finished
    assert [tuple(r.returns) for r in read_records(path)] == [games[10].returns, games[11].returns]


def test_simulate_reports_a_record_file_that_fails_during_the_run(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play_one("toy_auction", {"players": 3}, 0, ["random"] * 3, keep_record=True)

    def full_disk(path: object, records: object, append: bool = False) -> int:
        if append:
            raise OSError(28, "No space left on device")
        return 0

    def one_game(*args: object, on_progress: Any, **kwargs: object) -> list[GameOutcome]:
        on_progress([game])
        return [game]

    monkeypatch.setattr("meeple.cli.simulate.write_records", full_disk)
    monkeypatch.setattr("meeple.cli.simulate.run_games", one_game)
    out = cli(["simulate", "toy_auction", "-n", "1", "--players", "3", "--record", str(tmp_path / "s.jsonl")], code=2)
    assert "cannot write the records to" in out.output and "No space left on device" in out.output
    assert "no game record was saved" in out.output


def test_simulate_prints_intervals_and_says_that_seats_are_not_rotated(cli: Cli) -> None:
    out = cli(["simulate", "caprice", "-n", "6", "--players", "2", "--bots", "heuristic,random"]).output
    assert "95% CI" in out and "Seats are not rotated" in out and "meeple tournament" in out
    assert re.search(r"\d+\.\d–\d+\.\d", out)
    same = cli(["simulate", "caprice", "-n", "4", "--players", "2", "--bots", "random"]).output
    assert "Seats are not rotated" not in same  # one bot everywhere: nothing to rotate
