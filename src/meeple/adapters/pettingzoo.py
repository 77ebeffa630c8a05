"""meeple's games as PettingZoo AEC environments, and as Gymnasium environments against meeple bots.

- :func:`env` ``(game, players=n, **flags)``: a PettingZoo AEC environment. Agents ``player_0`` ... ``player_{n-1}``
  (a Capital Lux 2 solo game has one agent; ROB plays inside the rules). Each agent observes
  ``{"observation": float32 (observation_tensor_size,), "action_mask": int8 (num_distinct_actions,)}``; actions are
  meeple's stable codes (``Discrete(num_distinct_actions)``); rewards are 0 until the end, then the final reward
  chosen by ``reward=`` (``"win"``: the seat's share of the win, the default; ``"rank"``, ``"score"``,
  ``"score_margin"``; :mod:`meeple.core.rewards`), at ``reward_scale=`` (``"raw"``, or ``"unit"``: divided by the
  kind's measured bound for the game and player count, so every kind lies in [-1, 1]). A game always ends (no
  truncation). ``reset(seed=s)`` deals ``new_initial_state(s)``: the same seed, the same game.
- :func:`single_agent_env` ``(game, seat=0, opponents="random", reward="win", players=n, **flags)``: a Gymnasium
  environment where the other seats are played by opponents: bot specs (``"heuristic"``, ``"ismcts:200"``,
  ``"hard"``...), ``Bot`` objects or policy functions, mixed freely (:mod:`meeple.bots.policy`). The observation is
  the same dict; ``action_masks()`` gives the mask (sb3-contrib's ``MaskablePPO`` reads it). An illegal action ends
  the episode with ``illegal_reward`` (default -1) and ``info["illegal_action"] = True``: a policy must learn the
  mask or use it.
- :func:`self_play_env` ``(game, policy, ...)``: the same with ``policy`` in every other seat (self-play), and
  :func:`self_play` plays one whole game with one policy in every seat.

An agent's observation is built from its seat's view only (``observation_tensor``): what a human in that seat sees.
Observation values are bounded by ``[-OBS_BOUND, OBS_BOUND]`` (the tensors' scales keep them near [0, 1]).

Needs ``pip install 'meeple[pettingzoo]'``. Rules: issue "For researchers: tensors and action masks, OpenSpiel and
PettingZoo adapters"; PettingZoo's AEC API (``AECEnv``: ``reset``, ``step``, ``observe``, ``last``, agent
selection) and Gymnasium's ``Env``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from meeple.bots.base import Bot
from meeple.bots.policy import Policy, as_bot
from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import load_game
from meeple.core.rewards import check_reward, check_reward_scale, final_rewards
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.tensor import OBS_BOUND
from meeple.core.view import SeatView

__all__ = ["OBS_BOUND", "MeepleAECEnv", "MeepleGymEnv", "env", "self_play", "self_play_env", "single_agent_env"]


def _spaces(game: Game[Any]) -> tuple[spaces.Dict, spaces.Discrete]:
    n = game.num_distinct_actions()
    observation = spaces.Dict(
        {
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (game.observation_tensor_size(),), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        }
    )
    return observation, spaces.Discrete(n)


def _observe(state: State[Any], seat: int) -> dict[str, Any]:
    return {"observation": state.observation_tensor(seat), "action_mask": state.legal_actions_mask(seat)}


class MeepleAECEnv(AECEnv):  # type: ignore[misc]
    """One meeple game as a PettingZoo AEC environment (see the module docstring).

    Args:
        game: a registered game name (``"citadels"``...).
        render_mode: ``"ansi"`` (``render()`` returns the last actions and whose turn it is) or None.
        reward: the final reward: ``"win"``, ``"rank"``, ``"score"`` or ``"score_margin"`` (:mod:`meeple.core.rewards`).
        reward_scale: ``"raw"`` (the game's values) or ``"unit"`` (every kind in [-1, 1]; :mod:`meeple.core.rewards`).
        **params: the game's parameters (``players`` and variant flags), as :func:`meeple.load_game` takes them.

    Raises:
        InvalidParameterError: an unknown game, parameter, value, reward or scale (the message lists what is allowed).
    """

    metadata = {"render_modes": ["ansi"], "name": "meeple_v0", "is_parallelizable": False}

    def __init__(
        self, game: str, render_mode: str | None = None, reward: str = "win", reward_scale: str = "raw", **params: Any
    ) -> None:
        super().__init__()
        self.reward = check_reward(reward)
        self.reward_scale = check_reward_scale(reward_scale)
        self.game: Game[Any] = load_game(game, **params)
        self.metadata = {**self.metadata, "name": f"meeple_{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        observation, action = _spaces(self.game)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self.state_: State[Any] | None = None
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``: the same for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_distinct_actions)``: meeple's stable action codes."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``new_initial_state(seed)`` (no seed: the next of a generator seeded by the last one)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            deal = int(seed)
        else:
            deal = int(self._seeds.integers(0, 2**62))
        self.state_ = self.game.new_initial_state(deal)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state_.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: its seat's tensor and action mask (all zeros when it is not to move)."""
        return _observe(self._state(), self.possible_agents.index(agent))

    def _state(self) -> State[Any]:
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def step(self, action: int | None) -> None:
        """Play ``action`` (a legal code) for ``agent_selection``; after the end, step each finished agent with None.

        Raises:
            IllegalActionError: ``action`` is not one of the agent's legal codes (the message lists them).
        """
        state = self._state()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(int(action) if action is not None else -1)
        if state.is_terminal():
            for a, r in zip(self.agents, final_rewards(state, self.reward, self.reward_scale), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The last few actions and whose turn it is (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        lines = [f"seat {actor}: {text}" for actor, text in self.state_.history_texts(None)[-5:]]
        status = "game over" if self.state_.is_terminal() else f"seat {self.state_.current_player()} to move"
        return "\n".join([*lines, status])

    def close(self) -> None:
        """Nothing to release."""


def env(
    game: str, render_mode: str | None = None, reward: str = "win", reward_scale: str = "raw", **params: Any
) -> MeepleAECEnv:
    """Return the PettingZoo AEC environment of ``game`` with ``params`` (``players=n``, variant flags)."""
    return MeepleAECEnv(game, render_mode=render_mode, reward=reward, reward_scale=reward_scale, **params)


class MeepleGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of a meeple game as a Gymnasium environment; opponents play the other seats.

    Args:
        game: a registered game name.
        seat: the learner's seat.
        opponents: one opponent for every other seat, or a list of one per other seat (in seat order). An opponent
            is a bot spec, a ``Bot`` or a policy function (:mod:`meeple.bots.policy`); specs are built anew at each
            ``reset`` with seeds from it; ``Bot`` objects are kept and their generator reseeded from it (the same
            seed, the same episode); functions are kept.
        illegal_reward: the reward of an illegal action, which ends the episode.
        reward: the final reward: ``"win"``, ``"rank"``, ``"score"`` or ``"score_margin"`` (:mod:`meeple.core.rewards`).
        reward_scale: ``"raw"`` (the game's values) or ``"unit"`` (every kind in [-1, 1]).
        **params: the game's parameters (``players``, flags).

    Raises:
        InvalidParameterError: an unknown game, parameter, bot spec, reward or scale, an opponent of no accepted
            kind, a wrong number of opponents, or a seat outside the game.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: Policy | list[Policy] = "random",
        illegal_reward: float = -1.0,
        reward: str = "win",
        reward_scale: str = "raw",
        **params: Any,
    ) -> None:
        self.game: Game[Any] = load_game(game, **params)
        self.reward = check_reward(reward)
        self.reward_scale = check_reward_scale(reward_scale)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise InvalidParameterError(f"seat must be 0..{n - 1}, not {seat}")
        others = [s for s in range(n) if s != seat]
        specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * len(others)
        if len(specs) != len(others):
            raise InvalidParameterError(f"give one opponent, or {len(others)} (one per other seat), not {len(specs)}")
        for spec in specs:
            as_bot(spec, self.game.name)  # refuse a bad spec or kind now, not at the first reset
        self.seat = seat
        self.specs: dict[int, Policy] = dict(zip(others, specs, strict=True))
        self.illegal_reward = illegal_reward
        self.observation_space, self.action_space = _spaces(self.game)
        self.state: State[Any] | None = None
        self.bots: dict[int, Bot] = {}
        self._ended_by: str | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a game (``seed``: the deal and the bots' seeds) and let the opponents play up to the learner's turn."""
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 2**62))
        self.state = self.game.new_initial_state(deal)
        self._ended_by = None
        self.bots = {s: as_bot(spec, self.game.name, seed=deal + s) for s, spec in self.specs.items()}
        for s, bot in self.bots.items():
            if bot is self.specs[s]:
                bot.rng = Rng(deal + s)  # a kept Bot object: the same seed, the same episode
        self._play_bots()
        return _observe(self.state, self.seat), {}

    def _play_bots(self) -> None:
        state = self._live()
        while not state.is_terminal() and state.current_player() != self.seat:
            mover = state.current_player()
            state.apply_action(self.bots[mover].select_action(SeatView(state, mover)), player=mover)

    def _live(self) -> State[Any]:
        if self.state is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self.state

    def action_masks(self) -> Any:
        """The learner's legal action mask (``int8``, ``num_distinct_actions``; all zeros once the game is over).

        Raises:
            RuntimeError: before ``reset()``, or after an illegal action ended the episode (call ``reset()``).
        """
        state = self._live()
        if self._ended_by is not None:
            raise RuntimeError(f"the episode was ended by {self._ended_by}: call reset() before asking for a mask")
        return state.legal_actions_mask(self.seat)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until the learner's next turn or the end.

        Returns:
            ``(observation, reward, terminated, truncated, info)``: reward 0 until the end, then the learner's final
            reward; an illegal action ends the episode with ``illegal_reward`` and ``info["illegal_action"]``.

        Raises:
            RuntimeError: before ``reset()``, or after the episode ended.
        """
        state = self._live()
        if state.is_terminal() or self._ended_by is not None:
            raise RuntimeError("the episode is over: call reset()")
        code = int(action)
        mask = state.legal_actions_mask(self.seat)
        if not 0 <= code < len(mask) or not mask[code]:
            self._ended_by = f"the illegal action {code}"
            return _observe(state, self.seat), self.illegal_reward, True, False, {"illegal_action": True}
        state.apply_action(code, player=self.seat)
        self._play_bots()
        done = state.is_terminal()
        reward = final_rewards(state, self.reward, self.reward_scale)[self.seat] if done else 0.0
        return _observe(state, self.seat), reward, done, False, {}


def single_agent_env(
    game: str,
    seat: int = 0,
    opponents: Policy | list[Policy] = "random",
    illegal_reward: float = -1.0,
    reward: str = "win",
    reward_scale: str = "raw",
    **params: Any,
) -> MeepleGymEnv:
    """Return a Gymnasium environment of ``game`` where ``seat`` learns and ``opponents`` play the other seats."""
    return MeepleGymEnv(
        game,
        seat=seat,
        opponents=opponents,
        illegal_reward=illegal_reward,
        reward=reward,
        reward_scale=reward_scale,
        **params,
    )


def self_play_env(
    game: str,
    policy: Policy,
    seat: int = 0,
    illegal_reward: float = -1.0,
    reward: str = "win",
    reward_scale: str = "raw",
    **params: Any,
) -> MeepleGymEnv:
    """Self-play: the learner in ``seat`` and ``policy`` (e.g. its own latest network) in every other seat.

    ``policy`` is called at every opponent turn, so a function that reads the learner's current weights makes the
    opponents improve with it (``lambda o, m: model.predict(o, action_masks=m, deterministic=False)[0]``).
    """
    return MeepleGymEnv(
        game,
        seat=seat,
        opponents=policy,
        illegal_reward=illegal_reward,
        reward=reward,
        reward_scale=reward_scale,
        **params,
    )


def self_play(
    game: str, policy: Policy, seed: int, reward: str = "win", reward_scale: str = "raw", **params: Any
) -> list[float]:
    """Play one game of ``game`` (deal ``seed``) with ``policy`` in every seat; return every seat's final reward.

    A bot spec is built once per seat (seeded ``seed + seat``); a ``Bot`` or a function plays all seats.

    Raises:
        InvalidParameterError: bad game, parameters, reward, scale or policy.
        IllegalActionError: the policy chose an action that is not legal.
    """
    check_reward(reward)
    check_reward_scale(reward_scale)
    meeple_game = load_game(game, **params)
    state = meeple_game.new_initial_state(seed)
    bots = [as_bot(policy, meeple_game.name, seed=seed + s) for s in range(meeple_game.num_players)]
    while not state.is_terminal():
        mover = state.current_player()
        state.apply_action(bots[mover].select_action(SeatView(state, mover)), player=mover)
    return final_rewards(state, reward, reward_scale)
