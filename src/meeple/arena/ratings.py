"""Ratings and rates of tournament results: openskill (Plackett–Luce) ratings and Wilson win-rate intervals.

Win credit: a seat's share of the win, ``returns`` normalised to sum to 1 per game (a shared win between two seats
gives each 0.5), so the fair share of a seat is ``1 / players``. Win rates are credit / seat-games, with a 95% Wilson
score interval (fractional credits are treated as successes; exact for games without shared wins).

Ratings: openskill's multiplayer Plackett–Luce model, every seat a one-player team, ranked by returns then scores
(equal returns and scores tie); the sequential updates are averaged over several orders of the games. A bot that
fills two seats of one game (a lineup cycled over more seats than bots) is rated on both copies and takes the mean of
the two updates.
``ordinal = mu - 3 sigma`` is the conservative skill estimate used to sort.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.arena.balance import win_credit
from meeple.arena.tournament import GameResult
from meeple.core.rewards import competition_ranks

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (``(0, 1)`` when ``n == 0``)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class RateStat:
    """Win rate, scores and lengths of one bot or one seat.

    Attributes:
        name: bot label or ``"seat i"``.
        n: seat-games played.
        wins: win credit.
        score_sum: sum of final scores.
        length_sum: sum of game lengths (decisions).
        scores: every final score (for plots).
    """

    name: str
    n: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    length_sum: int = 0
    scores: list[float] = field(default_factory=list)
    deals: dict[int, list[float]] = field(default_factory=dict)
    """Per deal: ``[win credit, seat-games]`` (the unit the paired bootstrap resamples)."""

    @property
    def win_rate(self) -> float:
        """Win credit per seat-game."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% interval of the win rate: paired bootstrap over deals (from 5 deals), else Wilson.

        Tournament games come in paired deals (every rotation of the seats on the same deal), so games of one deal
        are not independent: the bootstrap resamples whole deals (:func:`paired_bootstrap`). Computed once.
        """
        key = (self.n, self.wins, len(self.deals))
        cached = self.__dict__.get("_interval")
        if cached is None or cached[0] != key:
            if len(self.deals) >= MIN_DEALS:
                value = paired_bootstrap([(w, int(n)) for w, n in self.deals.values()])
            else:
                value = wilson(self.wins, self.n)
            cached = (key, value)
            self.__dict__["_interval"] = cached
        return cached[1]

    def add(self, deal: int, credit: float, score: float, length: int) -> None:
        """Count one seat-game of ``deal``."""
        self.n += 1
        self.wins += credit
        self.score_sum += score
        self.length_sum += length
        self.scores.append(score)
        per_deal = self.deals.setdefault(deal, [0.0, 0.0])
        per_deal[0] += credit
        per_deal[1] += 1

    @property
    def mean_score(self) -> float:
        """Mean final score."""
        return self.score_sum / self.n if self.n else 0.0

    @property
    def mean_length(self) -> float:
        """Mean game length in decisions."""
        return self.length_sum / self.n if self.n else 0.0


MIN_DEALS = 5
"""Deals from which intervals are paired bootstraps (fewer: Wilson intervals)."""
BOOTSTRAP_RESAMPLES = 2000


def paired_bootstrap(
    per_deal: Sequence[tuple[float, int]], resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """95% percentile interval of a win rate, resampling whole deals with replacement (the paired design).

    Args:
        per_deal: ``(win credit, seat-games)`` of each deal.
        resamples: bootstrap samples.
        seed: the resampling seed (the same results give the same interval).

    Returns:
        ``(low, high)``, each in [0, 1].
    """
    rng = random.Random(seed)
    k = len(per_deal)
    if not k:
        return 0.0, 1.0
    rates = []
    for _ in range(resamples):
        wins = games = 0.0
        for _ in range(k):
            w, n = per_deal[rng.randrange(k)]
            wins += w
            games += n
        rates.append(wins / games if games else 0.0)
    rates.sort()
    return rates[int(0.025 * resamples)], rates[math.ceil(0.975 * resamples) - 1]


def bot_rates(results: Sequence[GameResult]) -> dict[str, RateStat]:
    """Return per-bot rates (every seat a bot filled counts), by first appearance."""
    out: dict[str, RateStat] = {}
    for res in results:
        credit = win_credit(res.returns)
        for seat, label in enumerate(res.labels):
            out.setdefault(label, RateStat(label)).add(res.deal, credit[seat], res.scores[seat], res.length)
    return out


def seat_rates(results: Sequence[GameResult]) -> list[RateStat]:
    """Return per-seat rates over all games (first-player advantage: seat 0 is the first player)."""
    n = max((len(r.labels) for r in results), default=0)
    out = [RateStat(f"seat {s}") for s in range(n)]
    for res in results:
        credit = win_credit(res.returns)
        for seat in range(len(res.labels)):
            out[seat].add(res.deal, credit[seat], res.scores[seat], res.length)
    return out


def head_to_head(results: Sequence[GameResult]) -> dict[tuple[str, str], tuple[int, int]]:
    """Return ``(a, b) -> (games where a finished strictly ahead of b, games they met)`` over distinct labels."""
    out: dict[tuple[str, str], list[int]] = {}
    for res in results:
        keyed = [(res.returns[s], res.scores[s]) for s in range(len(res.labels))]
        for i, a in enumerate(res.labels):
            for j, b in enumerate(res.labels):
                if a == b:
                    continue
                cell = out.setdefault((a, b), [0, 0])
                cell[1] += 1
                if keyed[i] > keyed[j]:
                    cell[0] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


@dataclass(frozen=True)
class Rating:
    """An openskill rating: mean ``mu``, uncertainty ``sigma``, conservative ``ordinal = mu - 3 sigma``."""

    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


def ranks_of(result: GameResult) -> list[int]:
    """Return 1-based ranks of the seats (1 = best), by returns then scores; equal keys share a rank."""
    return competition_ranks([(result.returns[s], result.scores[s]) for s in range(len(result.labels))])


ORDERINGS = 8
"""Orders of the games averaged by :func:`rate` (openskill updates are sequential, so the order matters)."""


def _rate_in_order(results: Sequence[GameResult], model: Any) -> dict[str, tuple[float, float, int]]:
    current: dict[str, tuple[float, float]] = {}
    games: dict[str, int] = {}
    for res in results:
        labels = list(res.labels)
        if len(labels) < 2:
            continue
        teams = []
        for label in labels:
            mu, sigma = current.get(label, (model.mu, model.sigma))
            teams.append([model.rating(mu=mu, sigma=sigma, name=label)])
        rated = model.rate(teams, ranks=[float(r) for r in ranks_of(res)])
        updates: dict[str, list[tuple[float, float]]] = {}
        for label, team in zip(labels, rated, strict=True):
            updates.setdefault(label, []).append((team[0].mu, team[0].sigma))
        for label, ups in updates.items():
            current[label] = (sum(u[0] for u in ups) / len(ups), sum(u[1] for u in ups) / len(ups))
            games[label] = games.get(label, 0) + 1
    return {label: (mu, sigma, games[label]) for label, (mu, sigma) in current.items()}


def rate(results: Sequence[GameResult], orderings: int = ORDERINGS) -> dict[str, Rating]:
    """Return the openskill Plackett–Luce rating of every bot label, best ordinal first.

    openskill rates games one after the other, so recent games weigh more; to report a rating that does not depend
    on the order the games happened to be stored in, the games are rated in ``orderings`` fixed pseudo-random
    orders (the first one: ``(deal, rotation)`` order) and ``mu`` and ``sigma`` are averaged.
    """
    import random

    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ordered = sorted(results, key=lambda r: (r.deal, r.rotation))
    totals: dict[str, list[float]] = {}
    for k in range(max(1, orderings)):
        games = list(ordered)
        if k:
            random.Random(k).shuffle(games)
        for label, (mu, sigma, n) in _rate_in_order(games, model).items():
            acc = totals.setdefault(label, [0.0, 0.0, 0.0])
            acc[0] += mu
            acc[1] += sigma
            acc[2] = n
    runs = max(1, orderings)
    ratings = [Rating(label, acc[0] / runs, acc[1] / runs, int(acc[2])) for label, acc in totals.items()]
    ratings.sort(key=lambda r: -r.ordinal)
    return {r.name: r for r in ratings}
