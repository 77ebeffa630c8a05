"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), for every game of the core contract.

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG 2012), algorithm SO-ISMCTS:
each iteration draws a determinization of the game consistent with what the searching seat knows
(:meth:`SeatView.determinize` → ``State.resample_from_infostate``), walks one tree of the searching seat's
information sets with UCB1 corrected by availability counts (an action's exploration term uses how often it was
*legal* when its node was visited, not the node's visit count), expands one edge, finishes the game with a rollout
policy and backs the result up.

Details of this implementation:

* **Nodes** are reached by sequences of *observer keys*: an action of the searching seat, or an action of another
  seat that the searching seat sees in full, is its own key; an action whose text is redacted for the searching seat
  (a sealed bid, a card drawn face down) is keyed by its redacted text, so hidden choices of the other seats lead to
  the same node. The statistics of a node are kept per *full* action and from the point of view of the seat that
  acts there (multiplayer: each seat maximises its own reward), so the other seats still choose their hidden actions
  well. Nothing reads ``information_state_string`` (O(history)) in the hot loop. The tree is *open-loop* by default
  (cards dealt and a game-run opponent's moves, which happen inside ``apply_action``, do not split nodes); with
  ``loop="closed"`` every key is paired with the searching seat's ``State.observation_key`` after the step, so the
  nodes follow what the seat has seen, as information sets do.
* **Reward** of a seat = its ``returns()`` scaled to ``[0, 1]`` by the game's utility range, plus optionally
  ``shaping`` × (fraction of the other seats whose final score it beats, ties counting half). Solo games (one
  seat): :data:`SOLO_WIN_WEIGHT` × the result plus the rest × the margin against the game-run opponent
  (``State.opponent_score``, e.g. ROB; the score when there is none) scaled to the range seen so far in the search,
  so that the bot plays for a margin and not only for the win (the solo rating scales rate the margin).
* **Budget**: a number of iterations (reproducible: same seed and same information → same move), or seconds per move
  (not reproducible, by nature), or both (whichever ends first).
* **Rollouts**: uniform random, the game's heuristic bot (``rollout="heuristic"``) acting on ``SeatView`` objects
  of the determinized state, or the game's fast rollout policy (``rollout="policy"``, :mod:`meeple.bots.rollout`);
  optionally truncated after ``rollout_depth`` decisions, the position then being scored by
  the rank of each seat's ``projected_scores()`` (the scaled margin when solo).
* The bot sees the game only through its :class:`SeatView`: the determinizations depend only on the seat's knowledge
  (the core's ``_resample`` contract), and the search never looks at the real state.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from meeple.bots.base import Bot
from meeple.bots.heuristic import heuristic_bot
from meeple.bots.parallel import Stats, parallel_search, resolve_workers
from meeple.bots.rollout import RolloutPolicy, rollout_policy
from meeple.core.action import Action, short_repr
from meeple.core.errors import InvalidParameterError
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.view import SeatView

DEFAULT_ITERATIONS = 1000
"""Iterations per move when neither ``iterations`` nor ``time_limit`` is given."""

RANGES: dict[str, tuple[str, float, float, str]] = {
    "iterations": ("N", 1, 10_000_000, "an integer from 1 to 10000000"),
    "time_limit": ("time", 0, 86_400, "seconds, a finite number more than 0 and at most 86400"),
    "exploration": ("c", 0, 100, "a finite number from 0 to 100"),
    "rollout_depth": ("depth", 0, 100_000, "an integer from 0 to 100000"),
    "shaping": ("shaping", 0, 100, "a finite number from 0 to 100"),
    "trust": ("trust", -1000, 1000, "a finite number from -1000 to 1000"),
    "workers": ("workers", 1, 1024, "an integer from 1 to 1024, cores or auto"),
}
"""The numbers an :class:`ISMCTSBot` accepts: argument -> (its option in a spec, lowest, highest, the range in
words). ``time_limit`` must be more than its lowest; every other bound is inclusive (docs/bots.md)."""

SOLO_WIN_WEIGHT = 0.2
"""Solo games: weight of the win (0/1) in the reward; the rest is the margin against the game-run opponent (or the
score when there is none), scaled to ``[0, 1]`` by the range of margins seen in the current search."""


def _check_number(name: str, value: object) -> None:
    """Refuse a number of an :class:`ISMCTSBot` outside :data:`RANGES` (not finite, or out of bounds).

    ``value`` is typed ``object``: the compiled build (mypyc) would turn an ``int`` passed as ``float`` into a float,
    and an integer option given as ``301.0`` must be refused while ``301`` is accepted.
    """
    if value is None:
        return
    option, low, high, words = RANGES[name]
    integer = name in ("iterations", "rollout_depth", "workers")
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        raise InvalidParameterError(f"ismcts option {option} ({name}) must be {words}, not {short_repr(value)}")
    number: int | float = value
    above = number > low if name == "time_limit" else number >= low
    if not ((isinstance(number, int) or math.isfinite(number)) and above and number <= high):
        raise InvalidParameterError(f"ismcts option {option} ({name}) must be {words}, not {short_repr(value)}")


class _Edge:
    """Statistics of one action at one node, from the point of view of the seat acting there."""

    __slots__ = ("avail", "n", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 1


class _Node:
    """One information set of the searching seat (reached by a sequence of observer keys)."""

    __slots__ = ("edges", "kids")

    def __init__(self) -> None:
        self.edges: dict[Action, _Edge] = {}
        self.kids: dict[Hashable, _Node] = {}


class ISMCTSBot(Bot):
    """Information-set MCTS (SO-ISMCTS) bot, generic over every game.

    Args:
        seed: seed of the bot's generator (determinizations, expansion and rollouts draw from it).
        iterations: iterations per move (default :data:`DEFAULT_ITERATIONS` when ``time_limit`` is not given).
        time_limit: seconds per move; with ``iterations`` too, the search stops at whichever comes first.
        exploration: the UCB1 constant ``c`` (rewards are in ``[0, 1 + shaping]``).
        rollout: ``"random"``, ``"heuristic"`` (the game's heuristic bot plays every seat in rollouts) or
            ``"policy"`` (the game's fast rollout policy, :mod:`meeple.bots.rollout`).
        rollout_depth: stop rollouts after this many decisions and score the position by the rank of the seats'
            ``projected_scores()`` (solo: the scaled margin); None plays rollouts to the end.
        shaping: weight of the score-rank term added to the win/loss reward (0 disables it).
        prior: ``"heuristic"``: the game's heuristic bot proposes a move, which the search tries first and keeps
            unless the most visited move's mean reward beats it by more than ``trust`` standard errors.
        trust: the margin, in standard errors of the difference of the two means, needed to overrule the prior.
        loop: ``"open"``: a node is reached by the seats' actions alone, so the searching seat's choices deeper in
            the tree are averaged over every card it may be dealt and every move of a game-run opponent;
            ``"closed"``: the node an action leads to is also keyed by the searching seat's
            ``State.observation_key`` after it (games without one stay open-loop), so those choices depend on
            what it saw, at the cost of a wider tree.
        workers: root parallelism: the iterations are shared by this many searches, one in this process and the
            others in worker processes, each on its own determinization, and their root statistics are summed
            (:mod:`meeple.bots.parallel`); 1 searches in this process only.

    Raises:
        InvalidParameterError: a number outside :data:`RANGES` (a non-positive budget, a number that is not finite),
            an unknown rollout policy, prior or loop; at the first search, a game without a fast rollout policy for
            ``rollout="policy"``.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_limit: float | None = None,
        exploration: float = 0.7,
        rollout: str = "random",
        rollout_depth: int | None = None,
        shaping: float = 0.1,
        prior: str | None = None,
        trust: float = 2.0,
        loop: str = "open",
        workers: int = 1,
    ) -> None:
        super().__init__(seed)
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        numbers = {"iterations": iterations, "time_limit": time_limit, "exploration": exploration}
        numbers |= {"rollout_depth": rollout_depth, "shaping": shaping, "trust": trust, "workers": workers}
        for name, value in numbers.items():
            _check_number(name, value)
        if rollout not in ("random", "heuristic", "policy"):
            raise InvalidParameterError(f"unknown ismcts rollout policy {rollout!r}; use random, heuristic or policy")
        if prior not in (None, "heuristic"):
            raise InvalidParameterError(f"unknown ismcts prior {prior!r}; use heuristic")
        if loop not in ("open", "closed"):
            raise InvalidParameterError(f"unknown ismcts loop {loop!r}; use open or closed")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.shaping = shaping
        self.prior = prior
        self.trust = trust
        self.loop = loop
        self.workers = workers
        self.last_iterations = 0
        """Iterations run by the last :meth:`select_action` (0 when the move was forced)."""
        self._solo_bounds = [math.inf, -math.inf]

    def __repr__(self) -> str:
        budget = f"time={self.time_limit}" if self.iterations is None else str(self.iterations)
        loop = ":loop=closed" if self.loop == "closed" else ""
        workers = f":workers={self.workers}" if self.workers > 1 else ""
        return f"ismcts:{budget}:rollout={self.rollout}{loop}{workers}"

    def search_options(self) -> dict[str, Any]:
        """The constructor options a worker process needs to run a share of this bot's search."""
        return {
            "iterations": self.iterations,
            "time_limit": self.time_limit,
            "exploration": self.exploration,
            "rollout": self.rollout,
            "rollout_depth": self.rollout_depth,
            "shaping": self.shaping,
            "loop": self.loop,
        }

    # ------------------------------------------------------------------ search
    def select_action(self, view: SeatView) -> Action:
        """Return the most visited root action after the search (ties: best mean, then legal order).

        Raises:
            ValueError: it is not this seat's turn (no legal action).
        """
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        seed = self.rng.randrange(1 << 62)
        proposal = self._proposal(view, seed) if self.prior is not None else None
        codec = view.game.codec
        by_code, self.last_iterations = self.search_root(
            view, seed, None if proposal is None else codec.encode(proposal)
        )
        stats = {codec.decode(code): nw for code, nw in by_code.items()}
        best = legal[0]
        best_key = (-1, -1.0)
        for a in legal:
            nw = stats.get(a)
            if nw is not None:
                key = (nw[0], nw[1] / nw[0] if nw[0] else 0.0)
                if key > best_key:
                    best, best_key = a, key
        if proposal is not None and proposal is not best and self._keeps_prior(stats[best], stats[proposal]):
            return proposal
        return best

    def search_root(self, view: SeatView, seed: int, proposal: int | None = None) -> tuple[Stats, int]:
        """Search from ``view`` and return the root statistics by action code and the iterations run.

        With ``workers`` > 1 the budget is shared by root-parallel searches (:mod:`meeple.bots.parallel`).

        Args:
            view: the seat's view.
            seed: the search seed (the same seed, view and worker count give the same statistics).
            proposal: the code of a move to try first (the prior's), or None.

        Returns:
            ``({code: (visits, summed reward)}, iterations)``.
        """
        return parallel_search(
            self._share, _share_in_worker, self.search_options(), view, seed, self.workers, self.iterations, proposal
        )

    def _share(self, view: SeatView, seed: int, iterations: int | None, proposal: int | None) -> tuple[Stats, int]:
        """One share of a search, in this process (the whole search when ``workers`` is 1)."""
        codec = view.game.codec
        saved = self.iterations
        self.iterations = iterations
        try:
            root = _Node()
            if proposal is not None:
                edge = root.edges[codec.decode(proposal)] = _Edge()
                edge.avail = 0
            self._search(view, root, Rng(seed), random.Random(seed ^ 0x5DEECE66D))
        finally:
            self.iterations = saved
        return {codec.encode(a): (e.n, e.w) for a, e in root.edges.items()}, self.last_iterations

    def _proposal(self, view: SeatView, seed: int) -> Action:
        return heuristic_bot(view.game.name, seed=seed % (1 << 31)).select_action(view)

    def _keeps_prior(self, best: tuple[int, float], prior: tuple[int, float]) -> bool:
        """Return True unless ``best`` beats ``prior`` by more than ``trust`` standard errors (Bernoulli-like).

        Both are ``(visits, summed reward)`` at the root.
        """
        (nb, wb), (np_, wp) = best, prior
        if np_ == 0:
            return False
        mb, mp = wb / nb, wp / np_
        var = max(mb * (1 - mb), 0.05) / nb + max(mp * (1 - mp), 0.05) / np_
        return mb - mp <= self.trust * math.sqrt(var)

    def root_statistics(self, view: SeatView) -> dict[Action, tuple[int, float]]:
        """Run one search and return ``{action: (visits, mean reward)}`` at the root (for analysis and tests)."""
        by_code, _ = self.search_root(view, self.rng.randrange(1 << 62))
        decode = view.game.codec.decode
        return {decode(code): (n, w / n if n else 0.0) for code, (n, w) in by_code.items()}

    def _search(self, view: SeatView, root: _Node, det_rng: Rng, rnd: random.Random) -> None:
        game = view.game
        n_players = game.num_players
        lo, hi = game.info.min_utility, game.info.max_utility
        scale = 1.0 / (hi - lo) if hi > lo else 1.0
        observer = view.seat
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        randbelow = rnd.randrange
        keys: dict[tuple[Action, int], Hashable] = {}
        self._solo_bounds = [math.inf, -math.inf]
        rollout_bots = self._rollout_bots(game.name, n_players, rnd) if self.rollout == "heuristic" else None
        policy = rollout_policy(game.name) if self.rollout == "policy" else None
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        limit = self.iterations if self.iterations is not None else 1 << 62
        perf = time.perf_counter
        closed = self.loop == "closed"
        it = 0
        while it < limit and (deadline is None or it == 0 or perf() < deadline):
            it += 1
            state = view.determinize(det_rng)
            node = root
            path: list[tuple[_Edge, int]] = []
            while not state.is_terminal():
                actor = state.current_player()
                legal = state.fast_legal_actions()
                edges = node.edges
                if len(legal) == 1:
                    action = legal[0]
                else:
                    untried = None
                    best_e: _Edge | None = None
                    best_v = -1.0
                    action = legal[0]
                    for a in legal:
                        e = edges.get(a)
                        if e is None or e.n == 0:
                            if e is not None:  # the prior's proposal, pre-created: try it before the others
                                untried = [a]
                                break
                            if untried is None:
                                untried = [a]
                            else:
                                untried.append(a)
                            continue
                        e.avail += 1
                        if untried is None:
                            v = e.w / e.n + c * sqrt(log(e.avail) / e.n)
                            if v > best_v:
                                best_v, best_e, action = v, e, a
                    if untried is not None:
                        action = untried[randbelow(len(untried))] if len(untried) > 1 else untried[0]
                        new = edges.get(action)
                        if new is None:
                            new = edges[action] = _Edge()
                        else:
                            new.avail += 1
                        path.append((new, actor))
                        state.fast_apply_action(action, actor)
                        break
                    assert best_e is not None
                    path.append((best_e, actor))
                state.fast_apply_action(action, actor)
                if actor == observer:
                    key: Hashable = action
                else:
                    key = keys.get((action, actor))
                    if key is None:
                        key = self._observer_key(state, action, actor, observer)
                        keys[(action, actor)] = key
                if closed:
                    key = (key, state.observation_key(observer))
                kid = node.kids.get(key)
                if kid is None:
                    kid = node.kids[key] = _Node()
                node = kid
            reward = self._rollout(state, rnd, rollout_bots, policy, n_players, lo, scale)
            for e, p in path:
                e.n += 1
                e.w += reward[p]
        self.last_iterations = it

    @staticmethod
    def _observer_key(state: State[Any], action: Action, actor: int, observer: int) -> Hashable:
        """Return the tree key of another seat's action: the action itself if the observer sees it in full.

        Called after the action was applied; the text only depends on the action and the actor for the games of the
        contract (texts of hidden parts are redacted whatever the state).
        """
        seen = state.action_to_string(action, perspective=observer, actor=actor)
        if seen == state.action_to_string(action, perspective=None, actor=actor):
            return action
        return ("hidden", actor, seen)

    def _rollout_bots(self, game: str, n_players: int, rnd: random.Random) -> list[Bot]:
        return [heuristic_bot(game, seed=rnd.randrange(1 << 31)) for _ in range(n_players)]

    def _rollout(
        self,
        state: State[Any],
        rnd: random.Random,
        bots: list[Bot] | None,
        policy: RolloutPolicy | None,
        n_players: int,
        lo: float,
        scale: float,
    ) -> list[float]:
        depth = self.rollout_depth
        steps = 0
        if bots is None:
            uniform = rnd.random
            while not state.is_terminal():
                if depth is not None and steps >= depth:
                    return self._truncated_reward(state, n_players)
                legal = state.fast_legal_actions()
                if policy is None:
                    action = legal[int(uniform() * len(legal))]
                elif len(legal) > 1:
                    action = policy(state, legal, rnd)
                else:
                    action = legal[0]
                state.fast_apply_action(action)
                steps += 1
        else:
            views = [SeatView(state, s) for s in range(n_players)]
            while not state.is_terminal():
                if depth is not None and steps >= depth:
                    return self._truncated_reward(state, n_players)
                actor = state.current_player()
                state.apply_action(bots[actor].select_action(views[actor]), actor)
                steps += 1
        returns = state.returns()
        reward = [(r - lo) * scale for r in returns]
        if n_players == 1:
            return [SOLO_WIN_WEIGHT * reward[0] + (1.0 - SOLO_WIN_WEIGHT) * self._solo_scaled(state)]
        if self.shaping:
            rank = self._rank_reward(state.scores())
            w = self.shaping
            reward = [r + w * k for r, k in zip(reward, rank, strict=True)]
        return reward

    def _truncated_reward(self, state: State[Any], n_players: int) -> list[float]:
        """Value of a position where a rollout was cut: score ranks, or the scaled margin/score when solo."""
        if n_players == 1:
            return [self._solo_scaled(state)]
        return self._rank_reward(state.projected_scores())

    def _solo_scaled(self, state: State[Any]) -> float:
        """Return the solo margin (or the score, without a game-run opponent) scaled by the range seen so far."""
        value = state.scores()[0]
        opponent = state.opponent_score()
        if opponent is not None:
            value -= opponent
        bounds = self._solo_bounds
        if value < bounds[0]:
            bounds[0] = value
        if value > bounds[1]:
            bounds[1] = value
        span = bounds[1] - bounds[0]
        return (value - bounds[0]) / span if span > 0 else 0.5

    @staticmethod
    def _rank_reward(scores: list[float]) -> list[float]:
        """Return, per seat, the fraction of the other seats it outscores (ties count half); 1.0 when alone."""
        n = len(scores)
        if n < 2:
            return [1.0] * n
        out = []
        for s in scores:
            beaten = sum(1.0 if s > t else 0.5 if s == t else 0.0 for t in scores) - 0.5  # itself counts half
            out.append(beaten / (n - 1))
        return out


def _share_in_worker(
    options: dict[str, Any], world: State[Any], seat: int, seed: int, iterations: int | None, proposal: int | None
) -> tuple[Stats, int]:
    """A share of a root-parallel search, in a worker process: a fresh bot searches a determinization ``world``."""
    bot = ISMCTSBot(seed=seed, **{**options, "iterations": iterations})
    return bot._share(SeatView(world, seat), seed, iterations, proposal)


_OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "iterations": ("iterations", int),
    "iters": ("iterations", int),
    "n": ("iterations", int),
    "time": ("time_limit", float),
    "t": ("time_limit", float),
    "rollout": ("rollout", str),
    "depth": ("rollout_depth", int),
    "c": ("exploration", float),
    "shaping": ("shaping", float),
    "prior": ("prior", str),
    "trust": ("trust", float),
    "loop": ("loop", str),
    "workers": ("workers", resolve_workers),
}
"""Option key of a spec -> (the :class:`ISMCTSBot` argument it sets, how its value is read)."""
_KNOWN = (
    "N (iterations), time=S, rollout=random|heuristic|policy, depth=N, c=X, shaping=X, prior=heuristic, trust=X, "
    "loop=open|closed, workers=N|cores|auto"
)


def parse_ismcts_spec(options: str, seed: int) -> ISMCTSBot:
    """Build an :class:`ISMCTSBot` from the options of a bot spec (the part after ``"ismcts:"``), strictly.

    Options are colon-separated: a bare integer is the iteration count, ``time=S`` seconds per move,
    ``rollout=random|heuristic|policy``, ``depth=N`` rollout truncation, ``c=X`` exploration, ``shaping=X``,
    ``prior=heuristic``, ``trust=X``, ``loop=open|closed`` and ``workers=N|cores|auto`` (root-parallel searches;
    :func:`meeple.bots.parallel.resolve_workers`) (see :class:`ISMCTSBot`; every number finite and within
    :data:`RANGES`). Examples: ``"1000"``, ``"time=0.5"``, ``"1000:rollout=heuristic"``.

    Raises:
        InvalidParameterError: an unknown, empty, repeated or malformed option, or a number out of its range
            (issue 41, item 15: ``ismcts:c=nan`` was accepted).
    """
    kwargs: dict[str, Any] = {}
    for raw in (part.strip() for part in options.split(":")) if options else ():
        if not raw:
            raise InvalidParameterError(f"an empty ismcts option in {_cut(options)} (':' twice, or ':' at the end)")
        key, eq, value = raw.partition("=")
        if not eq:
            key, value = "iterations", key
        if key not in _OPTIONS:
            raise InvalidParameterError(f"unknown ismcts option {_cut(raw)}; options: {_KNOWN}")
        name, read = _OPTIONS[key]
        try:
            parsed = read(value)
        except InvalidParameterError:
            raise
        except ValueError:
            raise InvalidParameterError(f"malformed ismcts option {_cut(raw)}; options: {_KNOWN}") from None
        if name in kwargs:
            raise InvalidParameterError(f"ismcts option {_cut(key)} given twice (in {_cut(options)})")
        kwargs[name] = parsed
    return ISMCTSBot(seed=seed, **kwargs)


def _cut(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut to ``limit`` characters (an error never echoes a long input)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")
