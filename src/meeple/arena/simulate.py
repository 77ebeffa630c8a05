"""Batches of bot-only games and their summary statistics (``meeple simulate``; reused by tournaments).

Game ``i`` of a batch uses seed ``base_seed + i`` and :func:`meeple.arena.match.play_bots`, so a batch gives the same
results whether it runs on one process or several (:func:`run_games` with ``jobs``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from meeple.arena.match import play_bots
from meeple.core.records import GameRecord
from meeple.core.registry import game_class


@dataclass(frozen=True)
class GameOutcome:
    """The result of one bot-only game.

    Attributes:
        seed: the game's seed.
        returns: ``state.returns()`` at the end.
        scores: ``state.scores()`` at the end.
        decisions: number of actions played.
        rounds: ``observation(None)["round"]`` at the end if the game exposes an integer round, else ``None``.
        solo: for a solo game against a game-run opponent, ``(margin, rating, rating scale)`` from the final
            public observation's ``"solo_result"`` (Capital Lux 2 against ROB), else ``None``.
        record: the game record, kept only when asked for.
    """

    seed: int
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    decisions: int
    rounds: int | None = None
    record: GameRecord | None = None
    solo: tuple[int, str, tuple[str, ...]] | None = None

    def winners(self) -> list[int]:
        """Return the seats with the best return (every tied winner); empty if every seat has the same return 0."""
        best = max(self.returns)
        if best <= 0 and min(self.returns) == best:
            return []
        return [s for s, r in enumerate(self.returns) if r == best]


def play_one(
    game_name: str, params: Mapping[str, Any], seed: int, bot_specs: Sequence[str], keep_record: bool = False
) -> GameOutcome:
    """Play one bot-only game and return its :class:`GameOutcome`.

    Raises:
        InvalidParameterError: bad game, parameters or bot kinds.
    """
    result = play_bots(game_name, params, seed, list(bot_specs))
    state = result.final_state
    final = state.observation(None)
    round_value = final.get("round")
    rounds = round_value if isinstance(round_value, int) and not isinstance(round_value, bool) else None
    solo_result = final.get("solo_result")
    solo = (
        (int(solo_result["margin"]), str(solo_result["rating"]), tuple(solo_result["scale"]))
        if isinstance(solo_result, dict)
        else None
    )
    return GameOutcome(
        seed=seed,
        returns=tuple(state.returns()),
        scores=tuple(state.scores()),
        decisions=result.decisions,
        rounds=rounds,
        record=result.record if keep_record else None,
        solo=solo,
    )


def _play_chunk(
    module: str, game_name: str, params: dict[str, Any], seeds: list[int], bot_specs: list[str], keep_record: bool
) -> list[GameOutcome]:
    importlib.import_module(module)  # registers the game in a freshly spawned worker
    return [play_one(game_name, params, seed, bot_specs, keep_record) for seed in seeds]


def run_games(
    game_name: str,
    params: Mapping[str, Any],
    bot_specs: Sequence[str],
    n: int,
    base_seed: int = 0,
    jobs: int = 1,
    keep_records: bool = False,
    on_progress: Callable[[list[GameOutcome]], None] | None = None,
    chunk_size: int | None = None,
) -> list[GameOutcome]:
    """Play ``n`` bot-only games with seeds ``base_seed + i``; the i-th seat is played by ``bot_specs[i]``.

    Args:
        game_name: registered game name.
        params: game parameters; ``players`` must equal ``len(bot_specs)``.
        bot_specs: one bot kind per seat.
        n: number of games.
        base_seed: seed of game 0.
        jobs: number of worker processes (1 = in this process). Results do not depend on it.
        keep_records: keep each game's :class:`GameRecord` in its outcome.
        on_progress: called in this process with the outcomes of the games just finished, batch by batch in the
            order they finish (one game at a time with ``jobs=1``, one task's games otherwise), so that a caller can
            show progress and save results before the whole batch is done.
        chunk_size: games per task sent to a worker (default: about 16 tasks per worker, at most 50 games each,
            so that progress and saved results follow the games closely).

    Returns:
        The outcomes in seed order.
    """
    seeds = [base_seed + i for i in range(n)]
    specs = list(bot_specs)
    if jobs <= 1 or n <= 1:
        out = []
        for seed in seeds:
            out.append(play_one(game_name, params, seed, specs, keep_records))
            if on_progress is not None:
                on_progress(out[-1:])
        return out
    size = chunk_size or max(1, min(50, n // (jobs * 16) or 1))
    chunks = [seeds[i : i + size] for i in range(0, n, size)]
    module = game_class(game_name).__module__
    results: dict[int, list[GameOutcome]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {
            pool.submit(_play_chunk, module, game_name, dict(params), chunk, specs, keep_records): k
            for k, chunk in enumerate(chunks)
        }
        try:
            for future in as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                if on_progress is not None:
                    on_progress(results[k])
        except BaseException:  # a failed game or Ctrl-C: cancel the games not started, wait for the running ones
            pool.shutdown(wait=True, cancel_futures=True)  # here: the ``with`` exit's shutdown would not cancel
            raise
    return [outcome for k in range(len(chunks)) for outcome in results[k]]


@dataclass
class LabelStats:
    """Totals for one seat or one bot label.

    Attributes:
        games: seat-games played (a label on two seats counts two per game).
        wins: games won, shared wins included.
        shared_wins: wins shared with another seat.
        score_total: sum of final scores.
    """

    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    score_total: float = 0.0

    @property
    def win_rate(self) -> float:
        """Wins per seat-game (0 when no game)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        """Mean final score (0 when no game)."""
        return self.score_total / self.games if self.games else 0.0


@dataclass
class SimulationSummary:
    """Summary statistics of a batch of games.

    Attributes:
        games: number of games.
        labels: the bot label of each seat.
        seats: statistics per seat.
        bots: statistics per bot label (in order of first seat).
        ties: games whose win was shared by several seats.
        no_winner: games without a winner.
        mean_decisions: mean number of actions per game.
        mean_rounds: mean number of rounds, or ``None`` when the game does not expose one.
        seconds: wall-clock time of the batch (0 if unknown).
        solo_margins: per solo game against a game-run opponent, the margin (own score minus the opponent's).
        solo_ratings: count of each rating of the game's scale, in scale order (empty if not solo).
    """

    games: int
    labels: list[str]
    seats: list[LabelStats]
    bots: dict[str, LabelStats] = field(default_factory=dict)
    ties: int = 0
    no_winner: int = 0
    mean_decisions: float = 0.0
    mean_rounds: float | None = None
    seconds: float = 0.0
    solo_margins: list[int] = field(default_factory=list)
    solo_ratings: dict[str, int] = field(default_factory=dict)

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time (0 if the time is unknown)."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


def summarize(outcomes: Sequence[GameOutcome], labels: Sequence[str], seconds: float = 0.0) -> SimulationSummary:
    """Return the summary of a batch: wins per seat and per bot (a tie is a win for each tied winner), ties, scores.

    Args:
        outcomes: the games' outcomes (all with ``len(labels)`` seats).
        labels: the bot label of each seat.
        seconds: wall-clock time of the batch, for games per second.
    """
    seats = [LabelStats() for _ in labels]
    bots: dict[str, LabelStats] = {}
    for label in labels:
        bots.setdefault(label, LabelStats())
    ties = no_winner = decisions = 0
    rounds: list[int] = []
    for outcome in outcomes:
        winners = outcome.winners()
        ties += len(winners) > 1
        no_winner += not winners
        decisions += outcome.decisions
        if outcome.rounds is not None:
            rounds.append(outcome.rounds)
        for seat, label in enumerate(labels):
            won = seat in winners
            shared = won and len(winners) > 1
            for stats in (seats[seat], bots[label]):
                stats.games += 1
                stats.wins += won
                stats.shared_wins += shared
                stats.score_total += outcome.scores[seat]
    n = len(outcomes)
    margins = [o.solo[0] for o in outcomes if o.solo is not None]
    ratings: dict[str, int] = {}
    for o in outcomes:
        if o.solo is not None:
            for label in o.solo[2]:
                ratings.setdefault(label, 0)
            ratings[o.solo[1]] = ratings.get(o.solo[1], 0) + 1
    return SimulationSummary(
        games=n,
        labels=list(labels),
        seats=seats,
        bots=bots,
        ties=ties,
        no_winner=no_winner,
        mean_decisions=decisions / n if n else 0.0,
        mean_rounds=sum(rounds) / len(rounds) if rounds and len(rounds) == n else None,
        seconds=seconds,
        solo_margins=margins,
        solo_ratings=ratings,
    )
