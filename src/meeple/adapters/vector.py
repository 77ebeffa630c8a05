"""Many games stepped at once with numpy buffers: ``VectorEnv(game, num_envs, **params)`` (Gymnasium's vector API).

Two ways to play:

- **self-play** (``opponents=None``, the default): the policy plays **every seat**; at each step, each game's seat
  to move acts.
- **against fixed opponents** (``opponents=...``): the learner plays one seat per game (``seat=``: ``"rotate"``,
  the default, ``"random"`` or a fixed seat), the opponents play the others and a step returns only the learner's
  decisions. An opponent is a bot spec (``"random"``, ``"heuristic"``, ``"hard"``...: a fresh bot per game and
  deal, seeded with ``derive_seed(deal, "bot", seat)``), a ``Bot`` object (one for every game; its generator is
  reseeded at ``reset(seed=...)``), a function of no argument making a ``Bot`` (one per game and deal, seeded as a
  spec's), a policy of the seat's view ``policy(view)`` (called per game), or a **batched
  policy** ``policy(observations, masks) -> codes``: called once for all the games waiting on that opponent, with
  float32 ``(k, observation_tensor_size)`` tensors and int8 ``(k, num_distinct_actions)`` masks of the opponent's own
  seat in each game (arrays reused between calls: copy what you keep), returning ``k`` action codes. Opponents see
  only what their seat may see: bots get their seat's :class:`~meeple.core.view.SeatView`, batched policies their
  seat's tensor and mask. ``opponents`` is one opponent for every other seat or a list of one per other seat, in
  seat order from the learner's left: ``opponents[k]`` plays seat ``(learner + 1 + k) % players``.

What one step reads and writes, all preallocated and reused (copy what you keep):

- ``observations``: float32 ``(num_envs, observation_tensor_size)``: in each game the observation tensor of the seat
  to decide (the learner's, against opponents): what that seat may see, nothing more;
- ``infos["action_mask"]``: int8 ``(num_envs, num_distinct_actions)``: that seat's legal actions;
  ``infos["seat"]``: the seat each row is about; ``infos["current_player"]``: the seat to move (the same, or
  :data:`~meeple.core.state.TERMINAL` in a row that shows a finished game);
- ``rewards``: float32 ``(num_envs,)``: the final reward (``reward=``: ``"win"``, ``"rank"``, ``"score"``,
  ``"score_margin"``; at ``reward_scale=``: ``"raw"`` or ``"unit"``, in [-1, 1]; :mod:`meeple.core.rewards`) of the
  seat that just acted (self-play) or of the learner, 0 until its game ends; ``infos["final_rewards"]``: float32
  ``(num_envs, players)``: every seat's final reward in the games that just ended (0 elsewhere);
- ``terminations``: bool ``(num_envs,)``: the game ended with this step; ``truncations``: always False.

A game that ends is dealt again (``autoreset_mode=``, Gymnasium's modes):

- ``"same_step"`` (the default, ``AutoresetMode.SAME_STEP``): at once; its row is already the next game's first
  decision, and ``infos["final_obs"]`` (an object array, ``None`` but in the games that ended, with their
  ``infos["_final_obs"]`` mask) holds the seat's last observation of the finished game, ``infos["final_info"]`` (with
  ``infos["_final_info"]``) its ``final_rewards`` and ``seat``, as Gymnasium's own vector environments give them;
- ``"next_step"`` (``AutoresetMode.NEXT_STEP``): the row shows the finished game (the seat's last observation, an
  all-zero mask); the next step deals it again, ignoring that game's action, with reward 0: what Gymnasium's
  observation wrappers (``NormalizeObservation``, ``TransformObservation``...) require;
- ``"disabled"`` (``AutoresetMode.DISABLED``): a finished game stays finished until ``reset(options={"reset_mask":
  mask})`` deals it again; stepping it raises.

``reset(seed=s)`` deals game ``i`` with seed ``s + i`` (or ``seed=[s0, s1, ...]``, one per game) and later games from
a generator seeded by ``s``: the same seed, the same games for the same actions. An illegal action raises
``IllegalActionError`` naming the game and its legal codes, before any game is stepped (nothing is half-changed). An
opponent's illegal or failing move raises too, once the games have moved: the environment then needs ``reset()``.

Speed: benchmarks/adapters.py (ratios to the PettingZoo env in the same process). Rules: issues "For researchers,
round two" (batched environments) and "round three" (fixed opponents, Gymnasium's conventions); Gymnasium's
``VectorEnv`` (``step`` returns ``(obs, rewards, terminations, truncations, infos)``; autoreset modes,
https://farama.org/Vector-Autoreset-Mode).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from meeple.bots.base import Bot
from meeple.bots.policy import Policy, as_bot
from meeple.bots.random import RandomBot
from meeple.core.errors import IllegalActionError, InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import load_game
from meeple.core.rewards import check_reward, check_reward_scale, final_rewards
from meeple.core.rng import Rng, derive_seed
from meeple.core.state import TERMINAL, State
from meeple.core.tensor import OBS_BOUND
from meeple.core.view import SeatView

MAX_ENVS = 1 << 16
"""The most games one VectorEnv holds."""

AUTORESET_MODES = {
    "same_step": AutoresetMode.SAME_STEP,
    "next_step": AutoresetMode.NEXT_STEP,
    "disabled": AutoresetMode.DISABLED,
}
"""``autoreset_mode=`` values (Gymnasium's ``AutoresetMode`` members and their values are accepted too)."""

SEAT_CHOICES = ("rotate", "random")
"""``seat=`` values besides a seat number: ``"rotate"`` (deal ``k`` of game ``i``: seat ``(i + k) % players``) or
``"random"`` (drawn from the environment's generator at each deal)."""

BatchedPolicy = Callable[[Any, Any], Any]
"""``policy(observations, masks) -> codes``: float32 ``(k, size)`` and int8 ``(k, actions)`` in, ``k`` codes out."""


def _autoreset_mode(value: Any) -> AutoresetMode:
    if isinstance(value, AutoresetMode):
        return value
    for name, mode in AUTORESET_MODES.items():
        if value in (name, mode.value):
            return mode
    raise InvalidParameterError(
        f"autoreset_mode must be one of {', '.join(AUTORESET_MODES)} (or a gymnasium AutoresetMode), not {value!r}"
    )


def _arity(policy: Any) -> int | None:
    """The positional parameters a callable that is not a Bot requires (None: not such a callable)."""
    if isinstance(policy, str | Bot) or not callable(policy):
        return None
    try:
        params = inspect.signature(policy).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: the view form
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in params if p.kind in kinds and p.default is inspect.Parameter.empty)


def _is_batched(policy: Any) -> bool:
    """A callable that is not a Bot and takes two positional parameters: ``policy(observations, masks)``."""
    return _arity(policy) == 2


class VectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``game`` stepped together (see the module docstring).

    Args:
        game: a registered game name.
        num_envs: how many games (1 .. :data:`MAX_ENVS`).
        reward: the final reward's kind.
        reward_scale: ``"raw"`` or ``"unit"`` (every kind in [-1, 1]; :mod:`meeple.core.rewards`).
        opponents: None for self-play; else one opponent for every other seat, or a list of one per other seat
            (``opponents[k]`` plays the ``k + 1``-th seat on the learner's left): bot specs, ``Bot`` objects,
            factories of a ``Bot`` (no argument), ``policy(view)`` functions or batched ``policy(observations,
            masks)`` functions.
        seat: against opponents, the learner's seat: ``"rotate"``, ``"random"`` or a seat number.
        autoreset_mode: ``"same_step"``, ``"next_step"`` or ``"disabled"`` (or Gymnasium's ``AutoresetMode``).
        **params: the game's parameters (``players``, flags).

    Raises:
        InvalidParameterError: an unknown game, parameter, reward, reward scale, bot spec or autoreset mode,
            ``num_envs`` out of range, an opponent of no accepted kind, a wrong number of opponents, or a seat outside
            the game.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: str,
        num_envs: int,
        reward: str = "win",
        reward_scale: str = "raw",
        *,
        opponents: Policy | Sequence[Policy] | None = None,
        seat: int | str = "rotate",
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        **params: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise InvalidParameterError(f"num_envs must be an integer from 1 to {MAX_ENVS}, not {num_envs!r}")
        self.game: Game[Any] = load_game(game, **params)
        self.reward = check_reward(reward)
        self.reward_scale = check_reward_scale(reward_scale)
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = num_envs
        self.players = self.game.num_players
        self.opponents: list[_Opponent] | None = self._opponents(opponents)
        self.seat_choice = self._check_seat(seat)
        size, actions = self.game.observation_tensor_size(), self.game.num_distinct_actions()
        self.single_observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (num_envs, size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self.observations = np.zeros((num_envs, size), np.float32)
        self.masks = np.zeros((num_envs, actions), np.int8)
        self.rewards = np.zeros(num_envs, np.float32)
        self.final = np.zeros((num_envs, self.players), np.float32)
        self.terminations = np.zeros(num_envs, bool)
        self.truncations = np.zeros(num_envs, bool)
        self.current = np.zeros(num_envs, np.int64)
        self.seats = np.zeros(num_envs, np.int64)
        self.states: list[State[Any]] = []
        self._learner = [-1] * num_envs  # the learner's seat per game (-1 in self-play: every seat decides)
        self._deals = [0] * num_envs
        self._bots: list[list[Bot | None]] = [[] for _ in range(num_envs)]
        self._over = np.zeros(num_envs, bool)  # rows that show a finished game (next_step, disabled)
        self._final_obs: dict[int, tuple[Any, int]] = {}
        self._broken: str | None = None
        self._seeds = np.random.default_rng()
        self._rows = np.arange(num_envs)
        self._opponent_obs = np.zeros((num_envs, size), np.float32)
        self._opponent_masks = np.zeros((num_envs, actions), np.int8)
        self._write_row = self.game.row_writer(self.observations)
        self._write_opponent_row = self.game.row_writer(self._opponent_obs)
        self._row_seats = [0] * num_envs  # the seat of each row, and its legal codes (empty: the row shows an end)
        self._row_legal: list[list[int]] = [[] for _ in range(num_envs)]

    # ------------------------------------------------------------------ construction checks
    def _opponents(self, opponents: Policy | Sequence[Policy] | None) -> list[_Opponent] | None:
        if opponents is None:
            return None
        others = self.players - 1
        if isinstance(opponents, list | tuple):
            given: list[Policy] = list(opponents)
        elif others == 0:
            raise InvalidParameterError("a solo game has no other seat: give opponents=[] (or None), not one opponent")
        else:
            given = [cast(Policy, opponents)] * others
        if len(given) != others:
            raise InvalidParameterError(f"give one opponent, or {others} (one per other seat), not {len(given)}")
        return [_Opponent(policy, self.game.name) for policy in given]

    def _check_seat(self, seat: int | str) -> int | str:
        if isinstance(seat, str) and seat in SEAT_CHOICES:
            return seat
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players:
            return seat
        choices = " or ".join(repr(c) for c in SEAT_CHOICES)
        raise InvalidParameterError(f"seat must be {choices} or a seat from 0 to {self.players - 1}, not {seat!r}")

    # ------------------------------------------------------------------ rewards: the one place they are computed
    def _final_rewards(self, state: State[Any]) -> list[float]:
        """Every seat's final reward of ``state``, a finished game (``reward=``; :mod:`meeple.core.rewards`)."""
        return final_rewards(state, self.reward, self.reward_scale)

    def _end(self, i: int, seat: int) -> bool:
        """Record the end of game ``i`` for ``seat`` (the actor, or the learner); deal it again if ``same_step``.

        Returns:
            True if the game was dealt again (its row is to be played on), False if its row shows the end.
        """
        state = self.states[i]
        final = self._final_rewards(state)
        self.final[i] = final
        self.rewards[i] = final[seat]
        self.terminations[i] = True
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            self._final_obs[i] = (state.observation_tensor(seat), seat)
            self._deal(i, self._new_seed())
            return True
        self._over[i] = True
        self._row_seats[i] = seat
        return False

    # ------------------------------------------------------------------ dealing
    def _deal(self, i: int, seed: int) -> State[Any]:
        """Deal game ``i`` with ``seed``; against opponents, choose its learner's seat and its opponents' bots."""
        state = self.game.new_initial_state(seed)
        if len(self.states) > i:
            self.states[i] = state
        else:
            self.states.append(state)
        self._over[i] = False
        if self.opponents is not None:
            learner = self._learner_seat(i)
            self._learner[i] = learner
            n = self.players
            self._bots[i] = [o.bot(seed, (learner + 1 + k) % n) for k, o in enumerate(self.opponents)]
        self._deals[i] += 1
        return state

    def _learner_seat(self, i: int) -> int:
        choice = self.seat_choice
        if isinstance(choice, int):
            return choice
        if choice == "rotate":
            return (i + self._deals[i]) % self.players
        return int(self._seeds.integers(0, self.players))

    def _new_seed(self) -> int:
        return int(self._seeds.integers(0, 2**62))

    # ------------------------------------------------------------------ reset
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Deal every game, or those of ``options["reset_mask"]``; return observations and infos.

        Args:
            seed: an int ``s`` (game ``i``: deal ``s + i``; later deals from a generator seeded by ``s``), a list of
                one seed (or None) per game, or None (random deals).
            options: ``{"reset_mask": bool array (num_envs,)}`` deals only those games (the others keep their rows
                and states): how finished games are dealt again with ``autoreset_mode="disabled"``.

        Raises:
            InvalidParameterError: a bad seed list or reset mask (the message says what is expected).
            RuntimeError: a reset mask before the first full ``reset()``.
        """
        mask = self._reset_mask(options)
        seeds = self._reset_seeds(seed)
        if mask is None:
            self._restart(seed)
            rows = list(range(self.num_envs))
        else:
            if not self.states:
                raise RuntimeError("call reset() once without a reset_mask before dealing some games again")
            rows = np.flatnonzero(mask).tolist()
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.final.fill(0.0)
        self._final_obs.clear()
        self.observations[rows] = 0.0
        try:
            waiting: dict[int, list[int]] = {}
            for i in rows:
                given = seeds[i] if seeds is not None else None
                self._deal(i, self._new_seed() if given is None else given)
                self._settle(i, waiting)
            self._answer(waiting)
        except BaseException as exc:
            self._broken = f"{type(exc).__name__}: {exc}"
            raise
        self._publish(None if mask is None else rows)
        return self.observations, self._infos()

    def _restart(self, seed: int | Sequence[int | None] | None) -> None:
        """Forget every game; seed the generator of later deals and the kept opponents' bots from ``seed``."""
        if isinstance(seed, int):
            self._seeds = np.random.default_rng(seed)
        elif seed is not None and any(s is not None for s in seed):
            self._seeds = np.random.default_rng([s for s in seed if s is not None])
        else:
            self._seeds = np.random.default_rng()
        base = int(self._seeds.integers(0, 2**62)) if seed is not None else None
        for k, opponent in enumerate(self.opponents or ()):
            opponent.reseed(base, k)
        self.states = []
        self._deals = [0] * self.num_envs
        self._over.fill(False)
        self._broken = None
        self._row_seats = [0] * self.num_envs
        self._row_legal = [[] for _ in range(self.num_envs)]

    def _reset_seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None] | None:
        if seed is None:
            return None
        if isinstance(seed, int) and not isinstance(seed, bool):
            if seed < 0:
                raise InvalidParameterError(f"a seed is a non-negative integer, not {seed}")
            return [seed + i for i in range(self.num_envs)]
        seeds = list(seed) if isinstance(seed, list | tuple) else None
        if seeds is None or len(seeds) != self.num_envs or not all(_is_seed(s) for s in seeds):
            raise InvalidParameterError(
                f"seed is a non-negative integer, None or a list of {self.num_envs} of them (one per game), "
                f"not {seed!r}"
            )
        return seeds

    def _reset_mask(self, options: dict[str, Any] | None) -> Any:
        if not options or "reset_mask" not in options:
            return None
        mask = options["reset_mask"]
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise InvalidParameterError(
                f"options['reset_mask'] is a numpy bool array of shape ({self.num_envs},), not {mask!r}"
            )
        if not mask.any():
            raise InvalidParameterError("options['reset_mask'] selects no game: mark at least one True")
        return mask

    # ------------------------------------------------------------------ step
    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Play ``actions[i]`` (a legal code of game ``i``'s deciding seat) in every game; the opponents answer.

        Raises:
            RuntimeError: before ``reset()``; after an opponent failed (call ``reset()``); with
                ``autoreset_mode="disabled"``, a game that is over and was not dealt again.
            InvalidParameterError: not one integer action per game.
            IllegalActionError: an action is not legal in its game (checked for all games before any is stepped);
                an opponent's illegal move (the games have moved: call ``reset()``).
        """
        codes = self._check_actions(actions)
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.final.fill(0.0)
        self._final_obs.clear()
        try:
            self._play(codes)
        except BaseException as exc:
            self._broken = f"{type(exc).__name__}: {exc}"
            raise
        return self.observations, self.rewards, self.terminations, self.truncations, self._infos()

    def _check_actions(self, actions: Any) -> list[int]:
        if self._broken is not None:
            raise RuntimeError(f"the games were left half-stepped by an opponent ({self._broken}): call reset()")
        if not self.states:
            raise RuntimeError("call reset() before step()")
        codes = np.asarray(actions).reshape(-1)
        if codes.shape[0] != self.num_envs:
            raise InvalidParameterError(f"give one action per game ({self.num_envs}), not {codes.shape[0]}")
        if codes.dtype.kind not in "iu":
            if codes.dtype.kind != "f" or not np.array_equal(codes, np.floor(codes)):
                raise InvalidParameterError(f"actions are integer action codes, not {codes.dtype} values")
            codes = codes.astype(np.int64)
        over = self._over
        if self.autoreset_mode == AutoresetMode.DISABLED and over.any():
            i = int(np.flatnonzero(over)[0])
            raise RuntimeError(
                f"game {i} is over and autoreset_mode is disabled: deal it again with "
                "reset(options={'reset_mask': mask})"
            )
        inside = (codes >= 0) & (codes < self.masks.shape[1])
        ok = inside.copy()
        ok[inside] = self.masks[self._rows[inside], codes[inside]] == 1
        ok |= over  # next_step: a game over is dealt again, its action ignored
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            allowed = np.flatnonzero(self.masks[i]).tolist()
            raise IllegalActionError(f"game {i}: action {int(codes[i])} is not legal; legal codes: {allowed}")
        result: list[int] = codes.tolist()
        return result

    def _play(self, codes: list[int]) -> None:
        """Apply each game's action (checked against its mask); let the opponents answer; observe every game.

        Each game is observed as soon as it is settled (at its next decision, or over), while its state is still in
        the CPU's cache: a batch of games interleaved step by step is what makes batching in Python slower per step
        than one game at a time (docs/research.md, "Batched environments").
        """
        actions_by_code = self.game.codec.all_actions
        over = self._over
        any_over = bool(over.any())
        states, seats = self.states, self._row_seats
        self.observations.fill(0.0)
        waiting: dict[int, list[int]] = {}
        for i, code in enumerate(codes):
            state = states[i]
            if any_over and over[i]:  # next_step: the finished game is dealt again, its action ignored
                self._deal(i, self._new_seed())
            else:
                actor = seats[i]
                state.fast_apply_action(actions_by_code[code], actor)  # code checked against the mask
                if state.is_terminal():
                    self._end(i, actor)
            self._settle(i, waiting)
        self._answer(waiting)
        self._publish(None)

    def _settle(self, i: int, waiting: dict[int, list[int]]) -> None:
        """Bring game ``i`` to its next decision of a deciding seat (or its end) and observe it there.

        Against opponents, their bots play game ``i`` in turn; a game that must wait on a batched opponent is added to
        ``waiting`` (opponent index -> games) and observed once :meth:`_answer` has played it on.
        """
        state: State[Any] | None = self.states[i]
        if self.opponents is not None and not self._over[i]:
            state = self._play_bots(i)
        if state is None:
            k = (self.states[i].current_player() - self._learner[i]) % self.players - 1
            waiting.setdefault(k, []).append(i)
            return
        if self._over[i]:
            seat = self._row_seats[i]
            self._row_legal[i] = []
        else:
            seat = state.current_player()
            self._row_seats[i] = seat
            self._row_legal[i] = self.game.codec.encode_many(state.fast_legal_actions())
        self._write_row(state, seat, i)

    def _answer(self, waiting: dict[int, list[int]]) -> None:
        """Call each batched opponent once for the games waiting on it; settle those games; repeat until none waits."""
        while waiting:
            todo, waiting = waiting, {}
            for k, group in todo.items():
                self._play_batched(k, group)
                for i in group:
                    self._settle(i, waiting)

    def _play_bots(self, i: int) -> State[Any] | None:
        """Play game ``i``'s bots until its learner decides, the game is over, or a batched opponent must move.

        Returns:
            The game's state at its learner's decision or its end (a game over is dealt again with ``same_step``, or
            its row shows the end), or None when a batched opponent must move.
        """
        n = self.players
        state, learner, bots = self.states[i], self._learner[i], self._bots[i]
        while True:
            if state.is_terminal():
                if self._over[i] or not self._end(i, learner):
                    return state
                state, learner, bots = self.states[i], self._learner[i], self._bots[i]
                continue
            mover = state.current_player()
            if mover == learner:
                return state
            bot = bots[(mover - learner) % n - 1]
            if bot is None:
                return None
            if type(bot) is RandomBot:  # its very choice (the same list, the same draw), by the engine's fast path
                legal = state.fast_legal_actions()
                state.fast_apply_action(legal[bot.rng.randrange(len(legal))], mover)
            else:
                state.apply_action(bot.select_action(SeatView(state, mover)), player=mover)

    def _play_batched(self, k: int, group: list[int]) -> None:
        """One call of batched opponent ``k`` for the games of ``group`` (its seat's tensors and masks); apply."""
        assert self.opponents is not None
        opponent = self.opponents[k]
        rows = len(group)
        states = [self.states[i] for i in group]
        seats = [(self._learner[i] + 1 + k) % self.players for i in group]
        encode, write = self.game.codec.encode_many, self._write_opponent_row
        self._opponent_obs[:rows] = 0.0
        legal = []
        for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
            legal.append(encode(state.fast_legal_actions()))
            write(state, seat, row)
        masks = self._opponent_masks[:rows]
        _write_masks(masks, legal)
        codes = opponent.choose(self._opponent_obs[:rows], masks)
        actions_by_code = self.game.codec.all_actions
        for i, state, seat, code, allowed in zip(group, states, seats, codes, legal, strict=True):
            if code not in allowed:
                raise IllegalActionError(
                    f"game {i}: opponent {k} (seat {seat}) chose action {code}, which is not legal; legal codes: "
                    f"{sorted(allowed)}"
                )
            state.fast_apply_action(actions_by_code[code], seat)

    # ------------------------------------------------------------------ observations
    def _publish(self, rows: list[int] | None) -> None:
        """Write the masks, seats and movers of ``rows`` (None: every game) from the rows' records, per batch."""
        if rows is None:
            _write_masks(self.masks, self._row_legal)
            self.seats[:] = self._row_seats
        else:
            scratch = self._opponent_masks[: len(rows)]
            _write_masks(scratch, [self._row_legal[i] for i in rows])
            self.masks[rows] = scratch
            self.seats[rows] = [self._row_seats[i] for i in rows]
        self.current[:] = self.seats
        if self._over.any():
            self.current[self._over] = TERMINAL

    def _infos(self) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": self.masks,
            "current_player": self.current,
            "seat": self.seats,
            "final_rewards": self.final,
        }
        if self._final_obs:
            ended = np.zeros(self.num_envs, bool)
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_seats = np.zeros(self.num_envs, np.int64)
            for i, (observation, seat) in self._final_obs.items():
                ended[i] = True
                final_obs[i] = observation
                final_seats[i] = seat
            infos["final_obs"], infos["_final_obs"] = final_obs, ended
            final_info = {"final_rewards": self.final.copy(), "_final_rewards": ended, "seat": final_seats}
            infos["final_info"], infos["_final_info"] = {**final_info, "_seat": ended}, ended
        return infos

    def action_masks(self) -> Any:
        """The legal-action masks of every game's deciding seat (int8 ``(num_envs, num_distinct_actions)``)."""
        return self.masks

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


def _is_seed(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)


def _write_masks(masks: Any, legal: list[list[int]]) -> None:
    """Set ``masks[i]`` to 1 at ``legal[i]``'s codes, 0 elsewhere (one numpy write for every row)."""
    masks.fill(0)
    counts = np.fromiter(map(len, legal), np.intp, len(legal))
    rows = np.repeat(np.arange(len(legal)), counts)
    masks[rows, np.fromiter(chain.from_iterable(legal), np.intp, int(counts.sum()))] = 1


class _Opponent:
    """One opponent of a :class:`VectorEnv` (``opponents[k]``): how it gets its bot per game, or its batched calls.

    Raises:
        InvalidParameterError: an unknown bot spec, or an object of no accepted kind.
    """

    def __init__(self, policy: Policy, game: str) -> None:
        self.policy = policy
        self.game = game
        self.batched: BatchedPolicy | None = cast(BatchedPolicy, policy) if _is_batched(policy) else None
        self.factory: Callable[[], Bot] | None = None
        self.kept: Bot | None = None
        if self.batched is not None:
            return
        if _arity(policy) == 0:
            made = cast(Callable[[], Any], policy)()
            if not isinstance(made, Bot):
                raise InvalidParameterError(
                    f"an opponent function of no argument makes a Bot for each game, not {type(made).__name__}"
                )
            self.factory = cast(Callable[[], Bot], policy)
            return
        bot = as_bot(policy, game)  # refuses a bad spec or kind now, not at the first deal
        self.kept = None if isinstance(policy, str) else bot

    def bot(self, seed: int, seat: int) -> Bot | None:
        """The bot of this opponent in ``seat`` of a game dealt with ``seed`` (None: a batched policy).

        A spec gets a fresh bot seeded ``derive_seed(seed, "bot", seat)`` (it cannot recover the deal), as does a
        factory's new bot; a ``Bot`` or a view function plays every game as it is.
        """
        if self.batched is not None:
            return None
        if self.kept is not None:
            return self.kept
        if self.factory is not None:
            bot = self.factory()
            bot.rng = Rng(derive_seed(seed, "bot", seat))
            return bot
        assert isinstance(self.policy, str)
        return as_bot(self.policy, self.game, seed=derive_seed(seed, "bot", seat))

    def reseed(self, base: int | None, k: int) -> None:
        """At a seeded full reset, reseed a kept ``Bot``'s generator (the same seed, the same games)."""
        if base is not None and self.kept is not None:
            self.kept.rng = Rng(derive_seed(base, "opponent", k))

    def choose(self, observations: Any, masks: Any) -> list[int]:
        """Call the batched policy once for ``len(observations)`` games; return one integer code per game.

        Raises:
            InvalidParameterError: it did not return one integer code per row.
        """
        assert self.batched is not None
        rows = observations.shape[0]
        codes = np.asarray(self.batched(observations, masks))
        if codes.size != rows or (codes.dtype.kind not in "iu" and not _integral(codes)):
            raise InvalidParameterError(
                f"a batched opponent policy(observations, masks) returns one integer action code per row ({rows}), "
                f"not {codes.dtype} of shape {codes.shape}"
            )
        result: list[int] = codes.reshape(-1).astype(np.int64).tolist()
        return result


def _integral(values: Any) -> bool:
    return bool(values.dtype.kind == "f" and np.array_equal(values, np.floor(values)))
