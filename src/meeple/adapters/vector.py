"""Many games stepped at once with numpy buffers: ``VectorEnv(game, num_envs, **params)`` (Gymnasium's vector API).

Every game is played by the policy in **every seat** (self-play): at each step, each game's seat to move acts. What
one step reads and writes, all preallocated and reused (copy what you keep):

- ``observations``: float32 ``(num_envs, observation_tensor_size)``: the observation tensor of the seat to move in each
  game (``write_observation_tensor``: what that seat may see, nothing more);
- ``infos["action_mask"]``: int8 ``(num_envs, num_distinct_actions)``: that seat's legal actions;
  ``infos["current_player"]``: int ``(num_envs,)``: that seat;
- ``rewards``: float32 ``(num_envs,)``: the final reward (``reward=``: ``"win"``, ``"rank"``, ``"score"``,
  ``"score_margin"``; at ``reward_scale=``: ``"raw"`` or ``"unit"``, in [-1, 1]; :mod:`meeple.core.rewards`) of the
  seat that just acted, 0 until its game ends;
  ``infos["final_rewards"]``: float32 ``(num_envs, players)``: every seat's final reward in the games that just
  ended (0 elsewhere);
- ``terminations``: bool ``(num_envs,)``: the game ended with this step; ``truncations``: always False (every game
  ends). A game that ends is dealt again at once (Gymnasium's ``AutoresetMode.SAME_STEP``): its row of
  ``observations`` is already the next game's first decision.

``reset(seed=s)`` deals game ``i`` with seed ``s + i`` and later games from a generator seeded by ``s``: the same seed,
the same games for the same actions. An illegal action raises ``IllegalActionError`` naming the game and its legal
codes, before any game is stepped (nothing is half-changed).

Speed: benchmarks/adapters.py (ratios to the PettingZoo env in the same process). Rules: issue "For researchers,
round two" (batched environments); Gymnasium's ``VectorEnv`` (``step`` returns ``(obs, rewards, terminations,
truncations, infos)``).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from meeple.adapters.pettingzoo import OBS_BOUND
from meeple.core.errors import IllegalActionError, InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import load_game
from meeple.core.rewards import check_reward, check_reward_scale, final_rewards
from meeple.core.state import State

MAX_ENVS = 1 << 16
"""The most games one VectorEnv holds."""


class VectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``game`` stepped together (see the module docstring).

    Args:
        game: a registered game name.
        num_envs: how many games (1 .. :data:`MAX_ENVS`).
        reward: the final reward's kind.
        reward_scale: ``"raw"`` or ``"unit"`` (every kind in [-1, 1]; :mod:`meeple.core.rewards`).
        **params: the game's parameters (``players``, flags).

    Raises:
        InvalidParameterError: an unknown game, parameter, reward or scale, or ``num_envs`` out of range.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: str, num_envs: int, reward: str = "win", reward_scale: str = "raw", **params: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
            raise InvalidParameterError(f"num_envs must be an integer from 1 to {MAX_ENVS}, not {num_envs!r}")
        self.game: Game[Any] = load_game(game, **params)
        self.reward = check_reward(reward)
        self.reward_scale = check_reward_scale(reward_scale)
        self.num_envs = num_envs
        size, actions = self.game.observation_tensor_size(), self.game.num_distinct_actions()
        self.single_observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, (num_envs, size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self.observations = np.zeros((num_envs, size), np.float32)
        self.masks = np.zeros((num_envs, actions), np.int8)
        self.rewards = np.zeros(num_envs, np.float32)
        self.final = np.zeros((num_envs, self.game.num_players), np.float32)
        self.terminations = np.zeros(num_envs, bool)
        self.truncations = np.zeros(num_envs, bool)
        self.current = np.zeros(num_envs, np.int64)
        self.states: list[State[Any]] = []
        self._seeds = np.random.default_rng()
        self._rows = np.arange(num_envs)

    def _deal(self, i: int, seed: int) -> list[int]:
        state = self.game.new_initial_state(seed)
        if len(self.states) > i:
            self.states[i] = state
        else:
            self.states.append(state)
        return self._observe(i, state)

    def _observe(self, i: int, state: State[Any]) -> list[int]:
        """Write game ``i``'s mover and its tensor (into row ``i``); return the mover's legal codes.

        The masks are written for all games at once (:meth:`_write_masks`).
        """
        mover = state.current_player()
        self.current[i] = mover
        state.write_observation_tensor(mover, self.observations[i])
        return self.game.codec.encode_many(state.fast_legal_actions())

    def _write_masks(self, legal: list[list[int]]) -> None:
        """Set ``masks[i]`` to 1 at ``legal[i]``'s codes, 0 elsewhere (one numpy write for every game)."""
        self.masks.fill(0)
        counts = np.fromiter(map(len, legal), np.intp, len(legal))
        self.masks[np.repeat(self._rows, counts), np.fromiter(chain.from_iterable(legal), np.intp)] = 1

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.masks, "current_player": self.current, "final_rewards": self.final}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal every game (game ``i``: seed ``seed + i``; no seed: random deals); return observations and infos."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            deals = [int(seed) + i for i in range(self.num_envs)]
        else:
            deals = [int(d) for d in self._seeds.integers(0, 2**62, self.num_envs)]
        self.states = []
        self._write_masks([self._deal(i, deal) for i, deal in enumerate(deals)])
        self.final.fill(0.0)
        return self.observations, self._infos()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Play ``actions[i]`` (a legal code of game ``i``'s seat to move) in every game; deal again the ones that end.

        Raises:
            RuntimeError: before ``reset()``.
            IllegalActionError: an action is not legal in its game (checked for all games before any is stepped).
        """
        if not self.states:
            raise RuntimeError("call reset() before step()")
        codes = np.asarray(actions).reshape(-1)
        if codes.shape[0] != self.num_envs:
            raise InvalidParameterError(f"give one action per game ({self.num_envs}), not {codes.shape[0]}")
        inside = (codes >= 0) & (codes < self.masks.shape[1])
        ok = inside.copy()
        ok[inside] = self.masks[self._rows[inside], codes[inside]] == 1
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            allowed = np.flatnonzero(self.masks[i]).tolist()
            raise IllegalActionError(f"game {i}: action {int(codes[i])} is not legal; legal codes: {allowed}")
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.final.fill(0.0)
        actions_by_code = self.game.codec.all_actions
        legal: list[list[int]] = []
        for i, (state, code, actor) in enumerate(zip(self.states, codes.tolist(), self.current.tolist(), strict=True)):
            state.fast_apply_action(actions_by_code[code], actor)  # code checked against the mask above
            if state.is_terminal():
                final = final_rewards(state, self.reward, self.reward_scale)
                self.final[i] = final
                self.rewards[i] = final[actor]
                self.terminations[i] = True
                legal.append(self._deal(i, int(self._seeds.integers(0, 2**62))))
            else:
                legal.append(self._observe(i, state))
        self._write_masks(legal)
        return self.observations, self.rewards, self.terminations, self.truncations, self._infos()

    def action_masks(self) -> Any:
        """The legal-action masks of every game's seat to move (int8 ``(num_envs, num_distinct_actions)``)."""
        return self.masks

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
